import { describe, expect, it } from "vitest";
import { Bridge, HostApiError, type Logger } from "../src/index.js";
import { FakeHost, FakeWindow, HOST_ORIGIN, NO_ANSWER, WINDOW_UUID } from "./helpers/fake-host.js";

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const discard = (): void => {};
  return {
    warnings,
    debug: discard,
    info: discard,
    error: discard,
    warn: (message) => warnings.push(message),
  };
}

function bridgeFor(
  host: FakeHost,
  logger: Logger = recordingLogger(),
  events: unknown[] = [],
): Bridge {
  return new Bridge({
    self: host.iframe,
    hostOrigin: HOST_ORIGIN,
    windowUuid: WINDOW_UUID,
    token: () => "tok",
    logger,
    onEvent: (message) => events.push(message),
  });
}

describe("Bridge", () => {
  it("posts the spec's envelope plus token and deadline, and resolves with result", async () => {
    const host = new FakeHost().handle("storage.get", () => ({ value: 42, exists: true }));
    const bridge = bridgeFor(host);
    try {
      await expect(bridge.request("storage", "get", { key: "k" }, 1_000)).resolves.toEqual({
        value: 42,
        exists: true,
      });
      expect(host.requests[0]).toEqual({
        type: "anna-app/rpc",
        id: expect.any(String) as string,
        window_uuid: WINDOW_UUID,
        token: "tok",
        ns: "storage",
        method: "get",
        args: { key: "k" },
        timeout_ms: 1_000,
      });
      expect(bridge.pendingCount).toBe(0);
    } finally {
      bridge.close();
    }
  });

  it("gives every request a distinct id", async () => {
    const host = new FakeHost().handle("window.focus", () => ({}));
    const bridge = bridgeFor(host);
    try {
      await Promise.all([1, 2, 3].map(() => bridge.request("window", "focus", {}, 1_000)));
      expect(new Set(host.requests.map((r) => r.id)).size).toBe(3);
    } finally {
      bridge.close();
    }
  });

  it("rejects with a timeout HostApiError naming the call", async () => {
    const host = new FakeHost().handle("tools.list", () => NO_ANSWER);
    const bridge = bridgeFor(host);
    try {
      const error: unknown = await bridge.request("tools", "list", {}, 15).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HostApiError);
      expect(error).toMatchObject({
        code: "timeout",
        details: { ns: "tools", method: "list", timeout_ms: 15 },
      });
      expect(bridge.pendingCount).toBe(0);
    } finally {
      bridge.close();
    }
  });

  it("ignores an answer posted by a window other than the parent, even from the host origin", async () => {
    const host = new FakeHost().handle("storage.get", () => NO_ANSWER);
    const logger = recordingLogger();
    const bridge = bridgeFor(host, logger);
    try {
      const pending = bridge.request("storage", "get", { key: "k" }, 1_000);
      const request = await host.waitForRequest("storage.get");
      const sibling = new FakeWindow();
      host.post(
        { type: "anna-app/rpc-result", id: request.id, ok: true, result: "forged" },
        sibling,
        HOST_ORIGIN,
      );
      host.post({ type: "anna-app/rpc-result", id: request.id, ok: true, result: "real" });
      await expect(pending).resolves.toBe("real");
      expect(logger.warnings.some((w) => w.includes("other than the parent"))).toBe(true);
    } finally {
      bridge.close();
    }
  });

  it("ignores an answer from the parent window at an unexpected origin", async () => {
    const host = new FakeHost().handle("storage.get", () => NO_ANSWER);
    const logger = recordingLogger();
    const bridge = bridgeFor(host, logger);
    try {
      const pending = bridge.request("storage", "get", { key: "k" }, 1_000);
      const request = await host.waitForRequest("storage.get");
      host.post(
        { type: "anna-app/rpc-result", id: request.id, ok: true, result: "forged" },
        host.page,
        "https://evil.test",
      );
      host.post({ type: "anna-app/rpc-result", id: request.id, ok: true, result: "real" });
      await expect(pending).resolves.toBe("real");
      expect(logger.warnings.some((w) => w.includes("unexpected origin"))).toBe(true);
    } finally {
      bridge.close();
    }
  });

  it("drops events from a foreign window or origin and delivers the parent's", async () => {
    const host = new FakeHost();
    const events: unknown[] = [];
    const bridge = bridgeFor(host, recordingLogger(), events);
    try {
      const event = { type: "anna-app/event", name: "entry_payload", payload: { n: 1 } };
      host.post(event, new FakeWindow(), HOST_ORIGIN);
      host.post(event, host.page, "null");
      host.post(event);
      await host.settle();
      expect(events).toEqual([{ kind: "named-event", name: "entry_payload", payload: { n: 1 } }]);
    } finally {
      bridge.close();
    }
  });

  it("accepts the spec's bare response envelope without our type tag", async () => {
    const host = new FakeHost().handle("window.focus", () => NO_ANSWER);
    const bridge = bridgeFor(host);
    try {
      const pending = bridge.request("window", "focus", {}, 1_000);
      const request = await host.waitForRequest("window.focus");
      host.post({
        id: request.id,
        ok: false,
        error: { code: "permission_denied", message: "no", details: { ns: "window" } },
      });
      await expect(pending).rejects.toMatchObject({
        code: "permission_denied",
        message: "no",
        details: { ns: "window" },
      });
    } finally {
      bridge.close();
    }
  });

  it("ignores unrelated messages and answers for unknown ids", async () => {
    const host = new FakeHost().handle("window.focus", () => NO_ANSWER);
    const events: unknown[] = [];
    const bridge = bridgeFor(host, recordingLogger(), events);
    try {
      const pending = bridge.request("window", "focus", {}, 1_000);
      const request = await host.waitForRequest("window.focus");
      for (const junk of [
        null,
        "hello",
        7,
        [],
        { type: "webpack-hmr" },
        { id: "nope", ok: true, result: 1 },
        { type: "anna-app/event" },
      ]) {
        host.post(junk);
      }
      host.respond(request.id, { ok: true, result: { done: true } });
      await expect(pending).resolves.toEqual({ done: true });
      expect(events).toEqual([]);
    } finally {
      bridge.close();
    }
  });

  it("rejects with invalid_arg when args cannot be posted", async () => {
    const host = new FakeHost();
    const bridge = bridgeFor(host);
    try {
      await expect(
        bridge.request("storage", "set", { key: "k", value: () => 1 }, 1_000),
      ).rejects.toMatchObject({
        code: "invalid_arg",
      });
      expect(bridge.pendingCount).toBe(0);
    } finally {
      bridge.close();
    }
  });

  it("rejects with cancelled when the signal aborts, before or during the call", async () => {
    const host = new FakeHost().handle("tools.invoke", () => NO_ANSWER);
    const bridge = bridgeFor(host);
    try {
      await expect(
        bridge.request("tools", "invoke", {}, 1_000, AbortSignal.abort()),
      ).rejects.toMatchObject({ code: "cancelled" });
      const controller = new AbortController();
      const pending = bridge.request("tools", "invoke", {}, 1_000, controller.signal);
      await host.waitForRequest("tools.invoke");
      controller.abort();
      await expect(pending).rejects.toMatchObject({ code: "cancelled" });
      expect(bridge.pendingCount).toBe(0);
    } finally {
      bridge.close();
    }
  });

  it("maps an error object with name and a numeric code (APP_SESSION_*) to its name", async () => {
    const host = new FakeHost().handle("agent.session.run", () => NO_ANSWER);
    const bridge = bridgeFor(host);
    try {
      const pending = bridge.request("agent", "session.run", {}, 1_000);
      const request = await host.waitForRequest("agent.session.run");
      host.respond(request.id, {
        ok: false,
        error: { name: "APP_SESSION_EXPIRED", code: -32017, message: "gone" },
      });
      await expect(pending).rejects.toMatchObject({ code: "APP_SESSION_EXPIRED", message: "gone" });
    } finally {
      bridge.close();
    }
  });
});
