import { createMemoryStorageService } from "@anna-ai/executa-host";
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { MAX_RUNTIME_STATE_BYTES, type CallResult } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

function ok(out: CallResult): Record<string, unknown> {
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.result as Record<string, unknown>;
}

describe("storage.* on the legacy runtime_state backend", () => {
  it("round-trips set/get/list/delete inside the window's runtime_state", async () => {
    const { dispatcher, token, wid } = await openDispatcher({ storage: ["*"] });
    const seen: AnnaAppEvent[] = [];
    dispatcher.events.subscribe({ userId: dispatcher.userId }, (e) => seen.push(e));
    const set = ok(
      await dispatcher.call(token, "storage", "set", { key: "notes/a", value: { n: 1 } }),
    );
    expect(set).toMatchObject({ ok: true, etag: expect.stringMatching(/^W\/"1-[0-9a-f]{16}"$/) });
    ok(await dispatcher.call(token, "storage", "set", { key: "notes/b", value: null }));
    ok(await dispatcher.call(token, "storage", "set", { key: "other", value: 3 }));
    expect(ok(await dispatcher.call(token, "storage", "get", { key: "notes/a" }))).toEqual({
      value: { n: 1 },
      etag: set.etag,
      generation: 1,
      exists: true,
    });
    expect(ok(await dispatcher.call(token, "storage", "get", { key: "notes/b" }))).toMatchObject({
      value: null,
      exists: true,
    });
    expect(ok(await dispatcher.call(token, "storage", "get", { key: "missing" }))).toEqual({
      value: null,
      exists: false,
    });
    const page = ok(
      await dispatcher.call(token, "storage", "list", { prefix: "notes/", limit: 1 }),
    );
    expect(page).toMatchObject({
      items: [{ key: "notes/a", metadata: null, tags: null, updated_at: null }],
      next_cursor: "notes/a",
    });
    const rest = ok(
      await dispatcher.call(token, "storage", "list", { prefix: "notes/", cursor: "notes/a" }),
    );
    expect(rest).toMatchObject({ items: [{ key: "notes/b" }], next_cursor: null });
    expect(ok(await dispatcher.call(token, "storage", "delete", { key: "notes/a" }))).toMatchObject(
      {
        deleted: true,
      },
    );
    expect(ok(await dispatcher.call(token, "storage", "delete", { key: "notes/a" }))).toMatchObject(
      {
        deleted: true,
      },
    );
    expect((await dispatcher.getWindow(wid))?.runtime_state).toEqual({ "notes/b": null, other: 3 });
    // Every write broadcast the whole state (R129).
    expect(seen.filter((e) => e.kind === "runtime_state_synced")).toHaveLength(4);
  });

  it("checks keys by the rules the plugin host uses: code points, and the same forbidden characters", async () => {
    const { dispatcher, token } = await openDispatcher({ storage: ["*"] });
    // 600 emoji are 1200 UTF-16 units but 600 characters: under the 1024 limit.
    const emoji = Array.from({ length: 5 }, () => "\u{1f4c8}".repeat(120)).join("/");
    expect(await dispatcher.call(token, "storage", "set", { key: emoji, value: 1 })).toMatchObject({
      ok: true,
    });
    for (const key of ["arabic\u061cmark", "invisible\u2061times"]) {
      expect(await dispatcher.call(token, "storage", "get", { key }), key).toMatchObject({
        ok: false,
        error: { code: "invalid_path", message: expect.stringContaining("BiDi") },
      });
    }
  });

  it("answers state_too_large past 256 KiB, invalid_arg for a missing key, invalid_path for a bad one", async () => {
    const { dispatcher, token } = await openDispatcher({ storage: ["*"] });
    const big = "x".repeat(MAX_RUNTIME_STATE_BYTES);
    expect(
      await dispatcher.call(token, "storage", "set", { key: "big", value: big }),
    ).toMatchObject({
      ok: false,
      error: { code: "state_too_large" },
    });
    expect(await dispatcher.call(token, "storage", "get", {})).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", message: "key required" },
    });
    for (const key of ["/abs", "a//b", "a/../b", "tab\there", " pad"]) {
      expect(await dispatcher.call(token, "storage", "get", { key }), key).toMatchObject({
        ok: false,
        error: { code: "invalid_path" },
      });
    }
    expect(await dispatcher.call(token, "storage", "list", { limit: 0 })).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
  });

  it("keeps each window's legacy storage apart", async () => {
    const { dispatcher, token } = await openDispatcher({ storage: ["*"] });
    const other = await dispatcher.openWindow("panel");
    ok(await dispatcher.call(token, "storage", "set", { key: "k", value: 1 }));
    expect(ok(await dispatcher.call(other.token, "storage", "get", { key: "k" }))).toMatchObject({
      exists: false,
    });
  });
});

describe("storage.* on the APS backend (the executa-host storage service)", () => {
  it("round-trips with etags and if_match, shared by the app's windows, isolated per user", async () => {
    const storage = createMemoryStorageService();
    const { dispatcher, token } = await openDispatcher(
      { storage: ["read", "write"] },
      { storage: "aps", services: { storage } },
    );
    const set = ok(
      await dispatcher.call(token, "storage", "set", { key: "prefs/theme", value: "dark" }),
    );
    expect(set).toMatchObject({ etag: expect.any(String), generation: expect.any(Number) });
    const sibling = await dispatcher.openWindow("panel");
    expect(
      ok(await dispatcher.call(sibling.token, "storage", "get", { key: "prefs/theme" })),
    ).toMatchObject({
      value: "dark",
      exists: true,
      etag: set.etag,
    });
    expect(
      await dispatcher.call(token, "storage", "set", {
        key: "prefs/theme",
        value: "x",
        if_match: 'W/"stale"',
      }),
    ).toMatchObject({ ok: false, error: { code: "precondition_failed" } });
    ok(
      await dispatcher.call(token, "storage", "set", {
        key: "prefs/theme",
        value: "light",
        if_match: set.etag,
      }),
    );
    const listed = ok(await dispatcher.call(token, "storage", "list", { prefix: "prefs/" }));
    expect((listed.items as { key: string }[]).map((i) => i.key)).toEqual(["prefs/theme"]);
    expect(ok(await dispatcher.call(token, "storage", "delete", { key: "prefs/theme" }))).toEqual({
      deleted: true,
    });
    expect(await dispatcher.call(token, "storage", "delete", { key: "prefs/theme" })).toMatchObject(
      {
        ok: false,
        error: { code: "not_found" },
      },
    );
    const bob = await dispatcher.openWindow("main", { userId: "bob" });
    ok(await dispatcher.call(token, "storage", "set", { key: "mine", value: 1 }));
    expect(ok(await dispatcher.call(bob.token, "storage", "get", { key: "mine" }))).toMatchObject({
      exists: false,
    });
  });

  it("gates other scopes: user needs a host capability, tool and other owners are not implemented", async () => {
    const { dispatcher, token } = await openDispatcher(
      { storage: ["*"] },
      { storage: "aps", services: { storage: createMemoryStorageService() } },
    );
    expect(
      await dispatcher.call(token, "storage", "get", { key: "k", scope: "user" }),
    ).toMatchObject({
      ok: false,
      error: { code: "permission_denied" },
    });
    expect(
      await dispatcher.call(token, "storage", "get", { key: "k", scope: "tool" }),
    ).toMatchObject({
      ok: false,
      error: { code: "not_implemented" },
    });
    expect(
      await dispatcher.call(token, "storage", "get", { key: "k", owner: "another-app" }),
    ).toMatchObject({ ok: false, error: { code: "not_implemented" } });
    expect(
      await dispatcher.call(token, "storage", "get", { key: "k", scope: "bogus" }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
  });

  it("answers not_implemented when the host has no storage service", async () => {
    const { dispatcher, token } = await openDispatcher({ storage: ["*"] }, { storage: "aps" });
    expect(await dispatcher.call(token, "storage", "get", { key: "k" })).toMatchObject({
      ok: false,
      error: { code: "not_implemented" },
    });
  });
});
