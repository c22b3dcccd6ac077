import { afterEach, describe, expect, it, vi } from "vitest";
import {
  connect,
  HEARTBEAT_INTERVAL_MS,
  HELLO_RESEND_MS,
  HostApiError,
  SDK_NAME,
} from "../src/index.js";
import {
  APP_URL,
  FakeHost,
  FakeWindow,
  HELLO_RESULT,
  HOST_ORIGIN,
  jwtExpiringAt,
  NO_ANSWER,
  TOKEN,
  WINDOW_UUID,
  WireError,
} from "./helpers/fake-host.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("connect()", () => {
  it("sends window.hello with wid, token and client_info, then window.ready, and resolves with the window's state", async () => {
    const host = new FakeHost();
    const ready = host.waitForRequest("window.ready");
    const anna = await connect(host.connectOptions());
    try {
      const hello = host.requestsFor("window.hello")[0];
      expect(hello).toMatchObject({
        type: "anna-app/rpc",
        window_uuid: WINDOW_UUID,
        token: TOKEN,
        ns: "window",
        method: "hello",
        args: { client_info: { name: SDK_NAME } },
      });
      expect(typeof hello?.id).toBe("string");
      expect(typeof hello?.timeout_ms).toBe("number");
      expect(await ready).toMatchObject({ ns: "window", method: "ready", args: {} });
      expect(host.requests.map((r) => `${r.ns}.${r.method}`)).toEqual([
        "window.hello",
        "window.ready",
      ]);
      expect(anna.windowUuid).toBe(WINDOW_UUID);
      expect(anna.appId).toBe("app-1");
      expect(anna.versionId).toBe("dev");
      expect(anna.viewMeta.title).toBe("Demo");
      expect(anna.capabilities).toEqual(HELLO_RESULT.capabilities);
      expect(anna.entryPayload).toEqual({ mode: "first" });
      expect(anna.runtimeState).toEqual({ notes: "hi" });
      expect(anna.geometry).toMatchObject({ w: 640, h: 480 });
      expect(anna.hostOrigin).toBe(HOST_ORIGIN);
      expect(host.targetOrigins.every((origin) => origin === HOST_ORIGIN)).toBe(true);
    } finally {
      anna.close();
    }
  });

  it("merges clientInfo into window.hello's client_info", async () => {
    const host = new FakeHost();
    const anna = await connect(host.connectOptions({ clientInfo: { app: "demo" } }));
    anna.close();
    expect(host.requestsFor("window.hello")[0]?.args).toEqual({
      client_info: { name: SDK_NAME, version: expect.any(String) as string, app: "demo" },
    });
  });

  it("rejects with not_connected when the URL has no wid or t", async () => {
    const host = new FakeHost();
    const noToken = connect(
      host.connectOptions({ environment: { href: `${HOST_ORIGIN}/x?wid=${WINDOW_UUID}` } }),
    );
    await expect(noToken).rejects.toMatchObject({ name: "HostApiError", code: "not_connected" });
    expect(host.requests).toHaveLength(0);
  });

  it("rejects with not_connected outside an iframe", async () => {
    const top = new FakeWindow();
    await expect(connect({ window: top, environment: { href: APP_URL } })).rejects.toMatchObject({
      code: "not_connected",
    });
  });

  it("rejects with the host's error when window.hello is refused, and stops listening", async () => {
    const host = new FakeHost().handle("window.hello", () => {
      throw new WireError("invalid_token", "token expired", { reason: "exp" });
    });
    const error: unknown = await connect(host.connectOptions()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostApiError);
    expect(error).toMatchObject({
      code: "invalid_token",
      message: "token expired",
      details: { reason: "exp" },
    });
    expect(host.iframe.listeners.size).toBe(0);
    expect(host.requestsFor("window.ready")).toHaveLength(0);
  });

  it("re-sends window.hello with the same id until the page answers", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    let hellos = 0;
    // The page's listener is not attached yet: the first two posts are lost.
    const host = new FakeHost().handle("window.hello", () =>
      ++hellos < 3 ? NO_ANSWER : HELLO_RESULT,
    );
    const connecting = connect(host.connectOptions());
    await vi.advanceTimersByTimeAsync(HELLO_RESEND_MS * 2);
    const anna = await connecting;
    try {
      const ids = host.requestsFor("window.hello").map((request) => request.id);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(1);
      await vi.advanceTimersByTimeAsync(HELLO_RESEND_MS * 3);
      expect(host.requestsFor("window.hello")).toHaveLength(3);
      expect(anna.windowUuid).toBe(WINDOW_UUID);
    } finally {
      anna.close();
    }
  });

  it("rejects with timeout when the host never answers window.hello", async () => {
    const host = new FakeHost().handle("window.hello", () => NO_ANSWER);
    await expect(connect(host.connectOptions({ timeoutMs: 20 }))).rejects.toMatchObject({
      code: "timeout",
      details: { ns: "window", method: "hello", timeout_ms: 20 },
    });
  });

  it("posts to an explicit hostOrigin, and to the parent origin the browser reports otherwise", async () => {
    const other = new FakeHost("https://dashboard.test");
    const anna = await connect(
      other.connectOptions({
        environment: { href: APP_URL, ancestorOrigins: ["https://dashboard.test"] },
      }),
    );
    anna.close();
    expect(other.targetOrigins[0]).toBe("https://dashboard.test");

    const explicit = new FakeHost("https://explicit.test");
    const second = await connect(
      explicit.connectOptions({ hostOrigin: "https://explicit.test/some/page" }),
    );
    second.close();
    expect(explicit.targetOrigins[0]).toBe("https://explicit.test");
  });

  it("never reaches a parent at another origin than the one it resolved", async () => {
    // The browser drops a post whose targetOrigin does not match: the SDK must time out, not leak.
    const host = new FakeHost("https://evil.test");
    await expect(connect(host.connectOptions({ timeoutMs: 20 }))).rejects.toMatchObject({
      code: "timeout",
    });
    expect(host.requests).toHaveLength(0);
  });
});

describe("heartbeat", () => {
  it("sends window.heartbeat every 10 s and stops on close()", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const host = new FakeHost();
    const anna = await connect(host.connectOptions());
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS - 1);
    expect(host.requestsFor("window.heartbeat")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(host.requestsFor("window.heartbeat")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 2);
    expect(host.requestsFor("window.heartbeat")).toHaveLength(3);
    anna.close();
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 3);
    expect(host.requestsFor("window.heartbeat")).toHaveLength(3);
  });

  it("stops when the host says the window is gone", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const host = new FakeHost().handle("window.heartbeat", () => {
      throw new WireError("not_found", "window closed");
    });
    const anna = await connect(host.connectOptions());
    try {
      await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 3);
      expect(host.requestsFor("window.heartbeat")).toHaveLength(1);
    } finally {
      anna.close();
    }
  });

  it("sends no second heartbeat while one is unanswered", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const host = new FakeHost().handle("window.heartbeat", () => NO_ANSWER);
    const anna = await connect(host.connectOptions({ timeoutMs: 25_000 }));
    try {
      await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 2);
      expect(host.requestsFor("window.heartbeat")).toHaveLength(1);
    } finally {
      anna.close();
    }
  });
});

describe("window token refresh", () => {
  it("asks the page for auth.refresh 30 s before the JWT expires and sends the new token from then on", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const now = Date.now();
    const first = jwtExpiringAt(Math.floor(now / 1000) + 120, "first");
    const second = jwtExpiringAt(Math.floor(now / 1000) + 240, "second");
    const host = new FakeHost().handle("auth.refresh", () => ({ token: second, expires_in: 120 }));
    host.handle("storage.get", () => ({ value: 1, exists: true }));
    const anna = await connect(
      host.connectOptions({
        environment: { href: `${HOST_ORIGIN}/app/index.html?wid=${WINDOW_UUID}&t=${first}` },
      }),
    );
    try {
      await vi.advanceTimersByTimeAsync(89_000);
      expect(host.requestsFor("auth.refresh")).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1_000);
      const refresh = host.requestsFor("auth.refresh");
      expect(refresh).toHaveLength(1);
      expect(refresh[0]).toMatchObject({ token: first, window_uuid: WINDOW_UUID, args: {} });
      await anna.storage.get("k");
      expect(host.requestsFor("storage.get")[0]?.token).toBe(second);
      // The next refresh is scheduled from the new token's lifetime (120 s - 30 s).
      await vi.advanceTimersByTimeAsync(89_000);
      expect(host.requestsFor("auth.refresh")).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(host.requestsFor("auth.refresh")).toHaveLength(2);
    } finally {
      anna.close();
    }
  });

  it("assumes the spec's 120 s lifetime for an opaque token", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const host = new FakeHost().handle("auth.refresh", () => ({ token: "opaque-2" }));
    const anna = await connect(host.connectOptions());
    try {
      await vi.advanceTimersByTimeAsync(89_999);
      expect(host.requestsFor("auth.refresh")).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(host.requestsFor("auth.refresh")).toHaveLength(1);
    } finally {
      anna.close();
    }
  });

  it("replaces the token when the page pushes an auth.refresh event, and reschedules", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const host = new FakeHost().handle("storage.get", () => ({ value: null, exists: false }));
    host.handle("auth.refresh", () => ({ token: "pulled" }));
    const anna = await connect(host.connectOptions());
    const seen: unknown[] = [];
    anna.on("auth.refresh", (payload) => seen.push(payload));
    try {
      await vi.advanceTimersByTimeAsync(60_000);
      host.emitNamed("auth.refresh", { token: "pushed", expires_in: 120 });
      await vi.advanceTimersByTimeAsync(0);
      expect(seen).toEqual([{ token: "pushed", expires_in: 120 }]);
      await anna.storage.get({ key: "k" });
      expect(host.requestsFor("storage.get")[0]?.token).toBe("pushed");
      // The original schedule (90 s) is gone: the next refresh is 90 s after the push.
      await vi.advanceTimersByTimeAsync(31_000);
      expect(host.requestsFor("auth.refresh")).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(59_000);
      expect(host.requestsFor("auth.refresh")).toHaveLength(1);
    } finally {
      anna.close();
    }
  });

  it("also takes auth.refresh relayed in an event envelope", async () => {
    const host = new FakeHost().handle("storage.get", () => ({ value: null, exists: false }));
    const anna = await connect(host.connectOptions());
    try {
      host.emitEvent({
        kind: "auth.refresh",
        window_uuid: WINDOW_UUID,
        payload: { token: "relayed" },
      });
      await host.settle();
      await anna.storage.get("k");
      expect(host.requestsFor("storage.get")[0]?.token).toBe("relayed");
    } finally {
      anna.close();
    }
  });

  it("retries a failed refresh 5 s later", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    let calls = 0;
    const host = new FakeHost().handle("auth.refresh", () => {
      calls++;
      if (calls === 1) throw new WireError("internal_error", "mint failed");
      return { token: "second" };
    });
    const anna = await connect(host.connectOptions());
    try {
      await vi.advanceTimersByTimeAsync(90_000);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(calls).toBe(2);
    } finally {
      anna.close();
    }
  });

  it("refreshes and retries once when a call is answered invalid_token", async () => {
    let attempts = 0;
    const host = new FakeHost()
      .handle("auth.refresh", () => ({ token: "fresh" }))
      .handle("storage.set", (request) => {
        attempts++;
        if (request.token !== "fresh") throw new WireError("invalid_token", "expired");
        return { etag: "e1", generation: 1, size_bytes: 3 };
      });
    const anna = await connect(host.connectOptions());
    try {
      await expect(anna.storage.set("k", 1)).resolves.toEqual({
        etag: "e1",
        generation: 1,
        size_bytes: 3,
      });
      expect(attempts).toBe(2);
      expect(host.requestsFor("auth.refresh")).toHaveLength(1);
    } finally {
      anna.close();
    }
  });

  it("gives up with invalid_token when the refresh brings no new token", async () => {
    const host = new FakeHost()
      .handle("auth.refresh", () => {
        throw new WireError("invalid_token", "window closed");
      })
      .handle("storage.get", () => {
        throw new WireError("invalid_token", "expired");
      });
    const anna = await connect(host.connectOptions());
    try {
      await expect(anna.storage.get("k")).rejects.toMatchObject({ code: "invalid_token" });
      expect(host.requestsFor("storage.get")).toHaveLength(1);
    } finally {
      anna.close();
    }
  });
});

describe("close()", () => {
  it("rejects pending calls with closed and stops listening", async () => {
    const host = new FakeHost().handle("tools.list", () => NO_ANSWER);
    const anna = await connect(host.connectOptions());
    const pending = anna.tools.list();
    await host.waitForRequest("tools.list").catch(() => undefined);
    anna.close();
    await expect(pending).rejects.toMatchObject({ code: "closed" });
    expect(host.iframe.listeners.size).toBe(0);
    await expect(anna.storage.get("k")).rejects.toMatchObject({ code: "closed" });
  });
});
