import { describe, expect, it } from "vitest";
import { HOST_API_METHODS, hostApiAllows, type UiHostApi } from "@anna-ai/app-schema";
import {
  createDispatcher,
  createHostApiAcl,
  isAclBypass,
  WindowTokenIssuer,
} from "../../src/index.js";
import { manifestWith, openDispatcher } from "../helpers.js";

describe("dispatcher pipeline", () => {
  it("answers invalid_token, not permission_denied, for a call that is both unauthenticated and ungranted", async () => {
    const { dispatcher } = await openDispatcher({});
    const out = await dispatcher.call("not-a-token", "storage", "set", { key: "k", value: 1 });
    expect(out).toMatchObject({ ok: false, error: { code: "invalid_token" } });
    const none = await dispatcher.call(undefined, "storage", "set", { key: "k", value: 1 });
    expect(none).toMatchObject({ ok: false, error: { code: "invalid_token" } });
  });

  it("denies an ungranted method before validating its arguments", async () => {
    const { dispatcher, token } = await openDispatcher({ storage: ["get"] });
    // Bad args (no key) AND ungranted: the ACL answers first.
    const out = await dispatcher.call(token, "storage", "set", {});
    expect(out).toMatchObject({
      ok: false,
      error: { code: "permission_denied", details: { ns: "storage", method: "set" } },
    });
  });

  it("validates arguments before the handler runs", async () => {
    const { dispatcher, token } = await openDispatcher({});
    const out = await dispatcher.call(token, "window", "set_title", { title: 42 });
    expect(out).toMatchObject({ ok: false, error: { code: "invalid_arg" } });
    if (out.ok) throw new Error("unreachable");
    expect(out.error.details?.issues).toEqual([{ path: "title", message: expect.any(String) }]);
    expect(await dispatcher.call(token, "window", "set_title", ["x"])).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", message: "args must be an object" },
    });
  });

  it("rejects a token whose window is not the envelope's window_uuid", async () => {
    const { dispatcher, token } = await openDispatcher({});
    const other = await dispatcher.openWindow("panel");
    const out = await dispatcher.call(
      token,
      "window",
      "heartbeat",
      {},
      {
        windowUuid: other.window.window_uuid as string,
      },
    );
    expect(out).toMatchObject({ ok: false, error: { code: "invalid_token" } });
  });

  it("rejects a token signed by another dispatcher and one minted for another app", async () => {
    const { dispatcher, wid } = await openDispatcher({});
    const foreign = await new WindowTokenIssuer().mint({
      windowUuid: wid,
      userId: dispatcher.userId,
      appId: "app-1",
      versionId: "dev",
    });
    expect(await dispatcher.call(foreign, "window", "heartbeat")).toMatchObject({
      ok: false,
      error: { code: "invalid_token" },
    });
    const secret = new Uint8Array(32).fill(7);
    const a = createDispatcher({ manifest: manifestWith({}), appId: "a", tokenSecret: secret });
    const b = createDispatcher({ manifest: manifestWith({}), appId: "b", tokenSecret: secret });
    const opened = await a.openWindow();
    expect(await b.call(opened.token, "window", "heartbeat")).toMatchObject({
      ok: false,
      error: { code: "invalid_token", message: "the token belongs to another app" },
    });
  });

  it("lets hello, ready and report_error through with an empty host_api, like every window.* method", async () => {
    const { dispatcher, token, wid } = await openDispatcher({});
    const hello = await dispatcher.call(token, "window", "hello", { client_info: { sdk: "t" } });
    expect(hello).toMatchObject({
      ok: true,
      result: { window_uuid: wid, app_id: "app-1", view: "main" },
    });
    expect(await dispatcher.call(token, "window", "ready")).toEqual({ ok: true, result: {} });
    expect(await dispatcher.call(token, "window", "report_error", { message: "boom" })).toEqual({
      ok: true,
      result: {},
    });
    expect(await dispatcher.call(token, "window", "heartbeat")).toEqual({ ok: true, result: {} });
  });

  it.each([
    ["read", ["get", "list"], ["set", "delete"]],
    ["write", ["set", "delete"], ["get", "list"]],
    ["*", ["get", "list", "set", "delete"], []],
    ["get", ["get"], ["list", "set", "delete"]],
  ])("storage grant %s opens exactly %j (A1)", async (grant, allowed, denied) => {
    const { dispatcher, token } = await openDispatcher({ storage: [grant] });
    for (const name of allowed) {
      const out = await dispatcher.call(token, "storage", name, { key: "k", value: 1 });
      expect(out.ok ? "ok" : out.error.code, name).not.toBe("permission_denied");
    }
    for (const name of denied) {
      const out = await dispatcher.call(token, "storage", name, { key: "k", value: 1 });
      expect(out).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    }
  });

  it("routes the camelCase spelling of a granted method (web.imageSearch → image_search)", async () => {
    const { dispatcher, token } = await openDispatcher({ web: ["image_search"] });
    // Granted: reaches the handler (this dispatcher has no web service: not_implemented).
    expect(await dispatcher.call(token, "web", "imageSearch", { query: "x" })).toMatchObject({
      ok: false,
      error: { code: "not_implemented" },
    });
    expect(await dispatcher.call(token, "web", "search", { query: "x" })).toMatchObject({
      ok: false,
      error: { code: "permission_denied" },
    });
  });

  it("answers method_not_found for a method no namespace has", async () => {
    const { dispatcher, token } = await openDispatcher({ storage: ["*"] });
    expect(await dispatcher.call(token, "storage", "explode")).toMatchObject({
      ok: false,
      error: { code: "method_not_found" },
    });
    expect(await dispatcher.call(token, "nope", "x")).toMatchObject({
      ok: false,
      error: { code: "method_not_found" },
    });
  });

  it("answers not_implemented for the reserved stubs once granted", async () => {
    const { dispatcher, token } = await openDispatcher({
      prefs: ["read"],
      fs: ["*"],
      chat: ["read_history"],
    });
    for (const [ns, m] of [
      ["prefs", "get"],
      ["fs", "read"],
      ["chat", "read_history"],
    ] as const) {
      expect(await dispatcher.call(token, ns, m)).toMatchObject({
        ok: false,
        error: { code: "not_implemented" },
      });
    }
  });

  it("registers a handler for every method of the app-schema table", async () => {
    const everything = Object.fromEntries(
      Object.keys(HOST_API_METHODS).map((ns) => [
        ns,
        ns === "agent"
          ? { session: { auto: true } }
          : ns === "tools"
            ? ["required:*"]
            : ns === "credentials"
              ? ["google"]
              : ["*"],
      ]),
    );
    const { dispatcher, token } = await openDispatcher(everything);
    for (const [ns, methods] of Object.entries(HOST_API_METHODS)) {
      for (const m of methods) {
        const out = await dispatcher.call(token, ns, m, {});
        expect(out.ok ? "ok" : out.error.code, `${ns}.${m}`).not.toMatch(
          /^(method_not_found|permission_denied|internal_error)$/,
        );
      }
    }
  });

  it("answers not_found on a closed window and keeps other windows working", async () => {
    const { dispatcher, token } = await openDispatcher({});
    const other = await dispatcher.openWindow("panel");
    expect(await dispatcher.call(token, "window", "close", { reason: "done" })).toEqual({
      ok: true,
      result: {},
    });
    expect(await dispatcher.call(token, "window", "heartbeat")).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(await dispatcher.call(other.token, "window", "heartbeat")).toEqual({
      ok: true,
      result: {},
    });
  });

  it("turns a handler crash into internal_error without leaking its message", async () => {
    const { dispatcher, token } = await openDispatcher(
      { storage: ["*"] },
      {
        storage: "aps",
        services: {
          storage: {
            get: () => Promise.reject(new Error("db password is hunter2")),
            set: () => Promise.reject(new Error("x")),
            delete: () => Promise.reject(new Error("x")),
            list: () => Promise.reject(new Error("x")),
          },
        },
      },
    );
    const out = await dispatcher.call(token, "storage", "get", { key: "k" });
    expect(out).toMatchObject({ ok: false, error: { code: "internal_error" } });
    expect(JSON.stringify(out)).not.toContain("hunter2");
  });
});

describe("the namespace gate is app-schema's hostApiAllows", () => {
  it("agrees with hostApiAllows for every Host API method under several grants", () => {
    const grants: UiHostApi[] = [
      {},
      { tools: [] },
      { tools: ["required:*"], storage: ["read"] },
      { agent: { session: { auto: true } }, credentials: ["google"] },
      { agent: { session: { auto: false } }, credentials: [], llm: ["*"] },
    ];
    for (const hostApi of grants) {
      const acl = createHostApiAcl(hostApi);
      for (const [ns, methods] of Object.entries(HOST_API_METHODS)) {
        for (const method of methods) {
          const decision = acl.check(ns, method);
          const expected = isAclBypass(ns, method) || hostApiAllows(hostApi, ns, method);
          expect(decision.allowed, `${JSON.stringify(hostApi)} ${ns}.${method}`).toBe(expected);
        }
      }
    }
  });
});
