// The pure pieces the dispatcher and mountBundle reuse: argument normaliser, request encoder,
// message decoder, token timing, tool-result unwrapping and the anna-tool-ids helper.
import { describe, expect, it } from "vitest";
import {
  decodeHostMessage,
  decodeRpcRequest,
  encodeRequest,
  HostApiError,
  hostApiErrorFromWire,
  normaliseArgs,
  readLaunchParams,
  readRefreshedToken,
  refreshDelayMs,
  resolveHostOrigin,
  resolveToolId,
  tokenExpiresAtMs,
  toolIds,
  unwrapToolResult,
} from "../src/index.js";
import { jwtExpiringAt } from "./helpers/fake-host.js";

describe("normaliseArgs", () => {
  it("takes the object form with options", () => {
    expect(normaliseArgs("storage", "get", [{ key: "k" }, { timeoutMs: 5 }])).toEqual({
      args: { key: "k" },
      opts: { timeoutMs: 5 },
    });
  });

  it("fills positional parameters and reads the value after them as options", () => {
    expect(normaliseArgs("storage", "set", ["k", { nested: true }, { timeoutMs: 9 }])).toEqual({
      args: { key: "k", value: { nested: true } },
      opts: { timeoutMs: 9 },
    });
    expect(normaliseArgs("storage", "set", ["k", [1, 2]])).toEqual({
      args: { key: "k", value: [1, 2] },
      opts: {},
    });
  });

  it("leaves out positional values that are undefined", () => {
    expect(normaliseArgs("window", "open_view", ["settings"])).toEqual({
      args: { view: "settings" },
      opts: {},
    });
  });

  it("gives {} for no arguments, undefined or null", () => {
    expect(normaliseArgs("tools", "list", [])).toEqual({ args: {}, opts: {} });
    expect(normaliseArgs("tools", "list", [undefined, { timeoutMs: 1 }])).toEqual({
      args: {},
      opts: { timeoutMs: 1 },
    });
    expect(normaliseArgs("tools", "list", [null])).toEqual({ args: {}, opts: {} });
  });

  it("maps the apps.* positional forms to the dispatcher's argument names", () => {
    expect(
      normaliseArgs("apps", "launch", ["@me/notes", "editor", { id: 7 }, { timeoutMs: 3 }]),
    ).toEqual({
      args: { app_ref: "@me/notes", view: "editor", payload: { id: 7 } },
      opts: { timeoutMs: 3 },
    });
    expect(normaliseArgs("apps", "get", [42]).args).toEqual({ app_ref: 42 });
    expect(normaliseArgs("apps", "search", ["note"]).args).toEqual({ query: "note" });
    expect(normaliseArgs("apps", "deck.add", ["notes", 0]).args).toEqual({
      app_ref: "notes",
      position: 0,
    });
    expect(normaliseArgs("apps", "deck.remove", ["notes"]).args).toEqual({ app_ref: "notes" });
    expect(normaliseArgs("apps", "deck.reorder", [["b", "a"]]).args).toEqual({
      app_ids: ["b", "a"],
    });
  });

  it("gives the SDK aliases their method's positional forms", () => {
    expect(normaliseArgs("web", "imageSearch", ["tides"])).toEqual(
      normaliseArgs("web", "image_search", ["tides"]),
    );
    expect(normaliseArgs("web", "imageFetch", ["https://a.example/x.png"]).args).toEqual({
      url: "https://a.example/x.png",
    });
  });

  it("throws invalid_arg for a positional call without a positional form", () => {
    expect(() => normaliseArgs("files", "upload_init", ["a"])).toThrow(HostApiError);
  });
});

describe("request encoding and message decoding", () => {
  it("encodes the spec's envelope with our type tag", () => {
    expect(
      encodeRequest({
        id: "1",
        window_uuid: "w",
        token: "t",
        ns: "storage",
        method: "get",
        args: { key: "k" },
        timeout_ms: 10,
      }),
    ).toEqual({
      type: "anna-app/rpc",
      id: "1",
      window_uuid: "w",
      token: "t",
      ns: "storage",
      method: "get",
      args: { key: "k" },
      timeout_ms: 10,
    });
  });

  it("decodes tagged and bare responses, events and page-local events; ignores the rest", () => {
    expect(
      decodeHostMessage({ type: "anna-app/rpc-result", id: "1", ok: true, result: 2 }),
    ).toEqual({ kind: "response", id: "1", ok: true, result: 2 });
    expect(decodeHostMessage({ id: 7, ok: false, error: { code: "x" } })).toEqual({
      kind: "response",
      id: "7",
      ok: false,
      error: { code: "x" },
    });
    expect(decodeHostMessage({ type: "anna-app/event", event: { kind: "ping" } })).toEqual({
      kind: "event",
      event: { kind: "ping" },
    });
    expect(
      decodeHostMessage({ type: "data_model/AnnaAppEvent", kind: "ping", payload: {} }),
    ).toMatchObject({ kind: "event" });
    expect(
      decodeHostMessage({ type: "anna-app/event", name: "auth.refresh", payload: { token: "t" } }),
    ).toEqual({
      kind: "named-event",
      name: "auth.refresh",
      payload: { token: "t" },
    });
    for (const junk of [
      undefined,
      null,
      1,
      "s",
      [],
      {},
      { type: "other" },
      { ok: "yes", id: "1" },
      { ok: true },
    ]) {
      expect(decodeHostMessage(junk)).toEqual({ kind: "ignored" });
    }
  });

  it("decodes a request on the page's side, rejecting anything malformed", () => {
    const request = encodeRequest({
      id: "1",
      window_uuid: "w",
      token: "t",
      ns: "storage",
      method: "get",
      args: {},
      timeout_ms: 10,
    });
    expect(decodeRpcRequest(request)).toEqual(request);
    expect(decodeRpcRequest({ ...request, timeout_ms: "soon" })).toEqual({
      ...request,
      timeout_ms: 30_000,
    });
    for (const bad of [
      { ...request, type: "other" },
      { ...request, id: 1 },
      { ...request, id: "" },
      { ...request, token: undefined },
      { ...request, ns: "" },
      { ...request, args: null },
      { ...request, args: [] },
      null,
      "x",
    ]) {
      expect(decodeRpcRequest(bad)).toBeUndefined();
    }
  });

  it("reads wire errors liberally", () => {
    expect(hostApiErrorFromWire({ code: "invalid_arg", message: "key required" })).toMatchObject({
      code: "invalid_arg",
      message: "key required",
    });
    expect(
      hostApiErrorFromWire({ code: -32601, message: "Method not found", data: { m: 1 } }),
    ).toMatchObject({ code: "-32601", details: { m: 1 } });
    expect(hostApiErrorFromWire("boom")).toMatchObject({ code: "boom" });
    expect(hostApiErrorFromWire(undefined)).toMatchObject({ code: "internal_error" });
  });
});

describe("launch parameters and host origin", () => {
  it("reads wid and t from the iframe URL", () => {
    expect(readLaunchParams("https://h.test/anna-apps/a/dev/index.html?wid=w1&t=tok")).toEqual({
      windowUuid: "w1",
      token: "tok",
    });
    expect(readLaunchParams("https://h.test/?wid=w1")).toBeUndefined();
    expect(readLaunchParams("not a url")).toBeUndefined();
  });

  it("prefers the explicit origin, then ancestorOrigins, the referrer, and the URL's own origin", () => {
    const env = {
      href: "https://bundle.test/x?wid=a&t=b",
      referrer: "https://ref.test/page",
      ancestorOrigins: ["https://anc.test"],
    };
    expect(resolveHostOrigin(env, "https://explicit.test/path")).toBe("https://explicit.test");
    expect(resolveHostOrigin(env, "*")).toBe("*");
    expect(resolveHostOrigin(env)).toBe("https://anc.test");
    expect(resolveHostOrigin({ ...env, ancestorOrigins: [] })).toBe("https://ref.test");
    expect(resolveHostOrigin({ href: env.href, referrer: "" })).toBe("https://bundle.test");
    expect(resolveHostOrigin({ href: "about:srcdoc" })).toBeUndefined();
  });
});

describe("window token timing", () => {
  it("reads the JWT exp claim, else assumes 120 s", () => {
    expect(tokenExpiresAtMs(jwtExpiringAt(2_000), 0)).toBe(2_000_000);
    expect(tokenExpiresAtMs("opaque", 1_000)).toBe(121_000);
    expect(tokenExpiresAtMs("a.!!!.c", 0)).toBe(120_000);
  });

  it("refreshes 30 s before expiry, never sooner than 5 s from now", () => {
    expect(refreshDelayMs(120_000, 0)).toBe(90_000);
    expect(refreshDelayMs(10_000, 0)).toBe(5_000);
  });

  it("reads a refreshed token with expires_in, expires_at or neither", () => {
    expect(readRefreshedToken({ token: "a", expires_in: 60 }, 1_000)).toEqual({
      token: "a",
      expiresAtMs: 61_000,
    });
    expect(readRefreshedToken({ token: "a", expires_at: 100 }, 0)).toEqual({
      token: "a",
      expiresAtMs: 100_000,
    });
    expect(readRefreshedToken({ token: "a", expires_at: "1970-01-01T00:01:40Z" }, 0)).toEqual({
      token: "a",
      expiresAtMs: 100_000,
    });
    expect(readRefreshedToken({ token: "a" }, 0)).toEqual({ token: "a", expiresAtMs: 120_000 });
    expect(readRefreshedToken({}, 0)).toBeUndefined();
    expect(readRefreshedToken("a", 0)).toBeUndefined();
  });
});

describe("unwrapToolResult (A4)", () => {
  it("unwraps at most two envelope layers", () => {
    expect(
      unwrapToolResult({
        success: true,
        data: { success: true, data: { success: true, data: 1 } },
      }),
    ).toEqual({
      success: true,
      data: 1,
    });
    expect(unwrapToolResult({ success: true })).toBeUndefined();
    expect(unwrapToolResult([1])).toEqual([1]);
  });

  it("throws tool_failed with a string error as the message", () => {
    expect(() => unwrapToolResult({ success: false, error: "nope" })).toThrow(
      expect.objectContaining({ code: "tool_failed", message: "nope" }) as Error,
    );
  });
});

describe("anna-tool-ids helper", () => {
  const scope = { __ANNA_TOOL_IDS__: { "focus-session": "tool-dev-focus-1", broken: 5 } };

  it("reads the map, keeping string ids only", () => {
    expect(toolIds(scope)).toEqual({ "focus-session": "tool-dev-focus-1" });
    expect(toolIds({})).toEqual({});
    expect(toolIds({ __ANNA_TOOL_IDS__: "nope" })).toEqual({});
  });

  it("resolves a handle in every manifest ref form", () => {
    for (const ref of [
      "focus-session",
      "bundled:focus-session",
      "required:bundled:focus-session",
      "optional:bundled:focus-session",
    ]) {
      expect(resolveToolId(ref, scope)).toBe("tool-dev-focus-1");
    }
    expect(resolveToolId("missing", scope)).toBeUndefined();
    expect(resolveToolId("toString", scope)).toBeUndefined();
  });
});
