import { createHash } from "node:crypto";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/storage/canonical-json.js";
import { createMemoryStorageService } from "../../../src/services/offline/storage-memory.js";
import type { MemoryStorageOptions } from "../../../src/services/offline/storage-memory.js";
import { T0_MS, expectRpcError, manualClock, storageCtx } from "./helpers.js";

const E = STORAGE_ERRORS;
const KiB = 1024;

function setup(options: MemoryStorageOptions = {}) {
  const clock = manualClock();
  const storage = createMemoryStorageService({ clock: clock.now, ...options });
  const ctx = storageCtx();
  return { storage, ctx, clock };
}

function sha32(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32);
}

describe("createMemoryStorageService: get/set", () => {
  it("answers a miss with {value:null, exists:false, etag:null}", async () => {
    const { storage, ctx } = setup();
    expect(await storage.get({ key: "nope", scope: "tool" }, ctx)).toEqual({
      value: null,
      exists: false,
      etag: null,
    });
  });

  it("sets and reads back a value with etag = sha256(canonical payload)[:32]", async () => {
    const { storage, ctx } = setup();
    const value = { b: [1, "two", null], a: { z: true, y: 1.5 } };
    const written = await storage.set({ key: "doc", value, scope: "tool" }, ctx);
    const canonical = '{"a":{"y":1.5,"z":true},"b":[1,"two",null]}';
    expect(canonicalJson(value)).toBe(canonical);
    expect(written).toEqual({
      etag: sha32(canonical),
      generation: 1,
      size_bytes: Buffer.byteLength(canonical),
    });
    expect(await storage.get({ key: "doc", scope: "tool" }, ctx)).toEqual({
      value,
      exists: true,
      etag: sha32(canonical),
      generation: 1,
    });
  });

  it("gives the same etag for the same value in any key order, and counts every write", async () => {
    const { storage, ctx } = setup();
    const first = await storage.set({ key: "k", value: { a: 1, b: 2 }, scope: "tool" }, ctx);
    const second = await storage.set({ key: "k", value: { b: 2, a: 1 }, scope: "tool" }, ctx);
    expect(second.etag).toBe(first.etag);
    expect([first.generation, second.generation]).toEqual([1, 2]);
    const third = await storage.set({ key: "k", value: { a: 1 }, scope: "tool" }, ctx);
    expect(third.etag).not.toBe(first.etag);
    expect(third.generation).toBe(3);
  });

  it("stores falsy values as real values: null, 0, '', false, []", async () => {
    const { storage, ctx } = setup();
    for (const value of [null, 0, "", false, []]) {
      await storage.set({ key: "falsy", value, scope: "tool" }, ctx);
      expect(await storage.get({ key: "falsy", scope: "tool" }, ctx)).toMatchObject({
        value,
        exists: true,
      });
    }
  });

  it("returns a copy: mutating what get returned does not change the stored value", async () => {
    const { storage, ctx } = setup();
    await storage.set({ key: "k", value: { list: [1] }, scope: "tool" }, ctx);
    const read = await storage.get({ key: "k", scope: "tool" }, ctx);
    (read.value as { list: number[] }).list.push(2);
    expect((await storage.get({ key: "k", scope: "tool" }, ctx)).value).toEqual({ list: [1] });
  });

  it("requires a value (-32028) but accepts null", async () => {
    const { storage, ctx } = setup();
    await expectRpcError(
      storage.set({ key: "k", scope: "tool" } as never, ctx),
      -32028,
      E.INVALID_REQUEST.errorCode,
      /'value' is required/,
    );
    await expect(storage.set({ key: "k", value: null, scope: "tool" }, ctx)).resolves.toMatchObject(
      { generation: 1 },
    );
  });

  it("caps values at 256 KiB of canonical UTF-8 JSON with -32025", async () => {
    const { storage, ctx } = setup();
    // A JSON string costs its length + 2 quotes.
    const fits = "x".repeat(256 * KiB - 2);
    await expect(
      storage.set({ key: "big", value: fits, scope: "tool" }, ctx),
    ).resolves.toMatchObject({ size_bytes: 256 * KiB });
    const over = "é".repeat(128 * KiB); // 2 bytes each in UTF-8: 256 KiB + 2 quotes
    const error = await expectRpcError(
      storage.set({ key: "big", value: over, scope: "tool" }, ctx),
      -32025,
      E.VALUE_TOO_LARGE.errorCode,
      /262146 bytes/,
    );
    expect(error.data).toMatchObject({ sizeBytes: 256 * KiB + 2, maxBytes: 256 * KiB });
    expect((await storage.get({ key: "big", scope: "tool" }, ctx)).value).toBe(fits);
  });

  it("honours a lower value cap from limits", async () => {
    const { storage, ctx } = setup({ limits: { kvValueMaxBytes: 64 * KiB } });
    await expectRpcError(
      storage.set({ key: "k", value: "x".repeat(64 * KiB), scope: "tool" }, ctx),
      -32025,
      E.VALUE_TOO_LARGE.errorCode,
    );
  });
});

describe("createMemoryStorageService: keys", () => {
  it("rejects empty, non-string and over-1024-character keys with -32028", async () => {
    const { storage, ctx } = setup();
    for (const key of ["", 42, undefined]) {
      await expectRpcError(
        storage.get({ key: key as string, scope: "tool" }, ctx),
        -32028,
        E.INVALID_REQUEST.errorCode,
      );
    }
    const long = Array.from({ length: 9 }, () => "k".repeat(113)).join("/"); // 1025 chars
    expect(long.length).toBe(1025);
    await expectRpcError(
      storage.set({ key: long, value: 1, scope: "tool" }, ctx),
      -32028,
      E.INVALID_REQUEST.errorCode,
      /1025 characters/,
    );
    await expect(
      storage.set({ key: long.slice(1), value: 1, scope: "tool" }, ctx),
    ).resolves.toBeDefined();
  });

  it("counts key length in code points, like the server", async () => {
    const { storage, ctx } = setup();
    const astral = Array.from({ length: 8 }, () => "😀".repeat(128)).join("/"); // 1031 code points
    await expectRpcError(
      storage.set({ key: astral, value: 1, scope: "tool" }, ctx),
      -32028,
      E.INVALID_REQUEST.errorCode,
    );
    const fits = Array.from({ length: 8 }, () => "😀".repeat(127)).join("/"); // 1023
    await expect(storage.set({ key: fits, value: 1, scope: "tool" }, ctx)).resolves.toBeDefined();
  });

  it("refuses the zero-width characters the app Host API refuses (one set of rules)", async () => {
    const { storage, ctx } = setup();
    for (const key of ["a\u2061b", "a\u2064b"]) {
      await expectRpcError(
        storage.set({ key, value: 1, scope: "tool" }, ctx),
        -32027,
        E.INVALID_PATH.errorCode,
      );
    }
  });

  it("rejects illegal key shapes with -32027 (R131)", async () => {
    const { storage, ctx } = setup();
    const bad = [
      "/abs",
      "a//b",
      "a/",
      "a/./b",
      "../up",
      "tab\there",
      "back\\slash",
      "zero\u200bwidth",
      "bidi\u202emark",
      " lead",
      "trail /x",
      "s".repeat(129),
      "lone\ud83dsurrogate",
    ];
    for (const key of bad) {
      await expectRpcError(
        storage.set({ key, value: 1, scope: "tool" }, ctx),
        -32027,
        E.INVALID_PATH.errorCode,
      );
    }
    for (const key of ["a.b/c..d", "notes/2026-01-01", "s".repeat(128), "ü/日本"]) {
      await expect(storage.set({ key, value: 1, scope: "tool" }, ctx)).resolves.toBeDefined();
    }
  });
});

describe("createMemoryStorageService: if_match", () => {
  it("writes when if_match equals the current etag and refuses a stale one with -32023, unchanged", async () => {
    const { storage, ctx } = setup();
    const v1 = await storage.set({ key: "k", value: 1, scope: "tool" }, ctx);
    const v2 = await storage.set({ key: "k", value: 2, scope: "tool", if_match: v1.etag }, ctx);
    expect(v2.generation).toBe(2);
    const error = await expectRpcError(
      storage.set({ key: "k", value: 3, scope: "tool", if_match: v1.etag }, ctx),
      -32023,
      E.PRECONDITION_FAILED.errorCode,
      /re-read and retry/,
    );
    expect(error.data).toMatchObject({ currentEtag: v2.etag });
    expect(await storage.get({ key: "k", scope: "tool" }, ctx)).toMatchObject({
      value: 2,
      generation: 2,
    });
    // Nothing was charged for the refused write either.
    expect(storage.quota.usage("user-1").usedBytes).toBe(1);
  });

  it("treats null if_match as unconditional and if_match on a missing key as a mismatch", async () => {
    const { storage, ctx } = setup();
    await expectRpcError(
      storage.set({ key: "new", value: 1, scope: "tool", if_match: "0".repeat(32) }, ctx),
      -32023,
      E.PRECONDITION_FAILED.errorCode,
      /does not exist/,
    );
    await storage.set({ key: "new", value: 1, scope: "tool", if_match: null }, ctx);
    await expect(
      storage.set({ key: "new", value: 2, scope: "tool", if_match: null }, ctx),
    ).resolves.toMatchObject({ generation: 2 });
  });

  it("checks if_match on delete and leaves the row untouched on a mismatch", async () => {
    const { storage, ctx } = setup();
    const v1 = await storage.set({ key: "k", value: "a", scope: "tool" }, ctx);
    await storage.set({ key: "k", value: "b", scope: "tool" }, ctx);
    await expectRpcError(
      storage.delete({ key: "k", scope: "tool", if_match: v1.etag }, ctx),
      -32023,
      E.PRECONDITION_FAILED.errorCode,
    );
    const current = await storage.get({ key: "k", scope: "tool" }, ctx);
    expect(current.value).toBe("b");
    await expect(
      storage.delete({ key: "k", scope: "tool", if_match: current.etag }, ctx),
    ).resolves.toEqual({ deleted: true });
  });

  it("lets exactly one of two racing read-modify-writes win; re-read-and-retry loses nothing", async () => {
    const { storage, ctx } = setup();
    await storage.set({ key: "counter", value: 0, scope: "tool" }, ctx);
    const a = await storage.get({ key: "counter", scope: "tool" }, ctx);
    const b = await storage.get({ key: "counter", scope: "tool" }, ctx);
    const results = await Promise.allSettled([
      storage.set({ key: "counter", value: 1, scope: "tool", if_match: a.etag }, ctx),
      storage.set({ key: "counter", value: 1, scope: "tool", if_match: b.etag }, ctx),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);

    // 20 writers each add one, retrying on -32023 like py-studio's note_add.
    const increment = async () => {
      for (;;) {
        const cur = await storage.get({ key: "counter", scope: "tool" }, ctx);
        try {
          await storage.set(
            { key: "counter", value: (cur.value as number) + 1, scope: "tool", if_match: cur.etag },
            ctx,
          );
          return;
        } catch (error) {
          if ((error as { code?: number }).code !== -32023) throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, increment));
    expect((await storage.get({ key: "counter", scope: "tool" }, ctx)).value).toBe(21);
  });
});

describe("createMemoryStorageService: TTL", () => {
  it("expires a row at now + ttl_seconds: get misses, list skips it, its bytes come back", async () => {
    const { storage, ctx, clock } = setup();
    await storage.set({ key: "cache/a", value: "abc", scope: "tool", ttl_seconds: 10 }, ctx);
    const listed = await storage.list({ scope: "tool" }, ctx);
    expect(listed.items[0]).toMatchObject({
      key: "cache/a",
      expires_at: new Date(T0_MS + 10_000).toISOString(),
      updated_at: new Date(T0_MS).toISOString(),
    });
    clock.advance(9_999);
    expect((await storage.get({ key: "cache/a", scope: "tool" }, ctx)).exists).toBe(true);
    clock.advance(1);
    expect(await storage.get({ key: "cache/a", scope: "tool" }, ctx)).toEqual({
      value: null,
      exists: false,
      etag: null,
    });
    expect((await storage.list({ scope: "tool" }, ctx)).items).toEqual([]);
    expect(storage.quota.usage("user-1").usedBytes).toBe(0);
    await expectRpcError(
      storage.delete({ key: "cache/a", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
  });

  it("replaces the expiry on every write: sliding TTL, and a write without ttl clears it", async () => {
    const { storage, ctx, clock } = setup();
    await storage.set({ key: "k", value: 1, scope: "tool", ttl_seconds: 10 }, ctx);
    clock.advance(8_000);
    await storage.set({ key: "k", value: 2, scope: "tool", ttl_seconds: 10 }, ctx);
    clock.advance(8_000);
    expect((await storage.get({ key: "k", scope: "tool" }, ctx)).value).toBe(2);
    await storage.set({ key: "k", value: 3, scope: "tool" }, ctx);
    clock.advance(365 * 24 * 3600 * 1000);
    expect((await storage.get({ key: "k", scope: "tool" }, ctx)).value).toBe(3);
    expect((await storage.list({ scope: "tool" }, ctx)).items[0]).not.toHaveProperty("expires_at");
  });

  it("treats an expired row as missing for if_match and keeps counting generations", async () => {
    const { storage, ctx, clock } = setup();
    const first = await storage.set({ key: "k", value: 1, scope: "tool", ttl_seconds: 1 }, ctx);
    clock.advance(1_000);
    await expectRpcError(
      storage.set({ key: "k", value: 1, scope: "tool", if_match: first.etag }, ctx),
      -32023,
      E.PRECONDITION_FAILED.errorCode,
    );
    await expect(storage.set({ key: "k", value: 1, scope: "tool" }, ctx)).resolves.toMatchObject({
      generation: 2,
    });
  });

  it("accepts ttl_seconds 1..31,536,000 only (-32028)", async () => {
    const { storage, ctx } = setup();
    for (const ttl of [0, -1, 1.5, 31_536_001, "60"]) {
      await expectRpcError(
        storage.set({ key: "k", value: 1, scope: "tool", ttl_seconds: ttl as number }, ctx),
        -32028,
        E.INVALID_REQUEST.errorCode,
      );
    }
    for (const ttl of [1, 31_536_000, null]) {
      await expect(
        storage.set({ key: "k", value: 1, scope: "tool", ttl_seconds: ttl }, ctx),
      ).resolves.toBeDefined();
    }
  });
});

describe("createMemoryStorageService: metadata and tags", () => {
  it("stores metadata and tags in the list heads; a write without them clears them", async () => {
    const { storage, ctx } = setup();
    await storage.set(
      { key: "k", value: 1, scope: "tool", metadata: { source: "ocr" }, tags: ["a", "b"] },
      ctx,
    );
    expect((await storage.list({ scope: "tool" }, ctx)).items[0]).toMatchObject({
      metadata: { source: "ocr" },
      tags: ["a", "b"],
    });
    await storage.set({ key: "k", value: 2, scope: "tool" }, ctx);
    const head = (await storage.list({ scope: "tool" }, ctx)).items[0];
    expect(head).not.toHaveProperty("metadata");
    expect(head).not.toHaveProperty("tags");
  });

  it("drops the correlation keys (executa_invoke_id, invoke_id, tool) from stored metadata", async () => {
    const { storage, ctx } = setup();
    await storage.set(
      {
        key: "k",
        value: 1,
        scope: "tool",
        metadata: { executa_invoke_id: "inv-1", invoke_id: "inv-1", tool: "t", mine: "yes" },
      },
      ctx,
    );
    await storage.set(
      { key: "only-ids", value: 1, scope: "tool", metadata: { executa_invoke_id: "inv-1" } },
      ctx,
    );
    const [k, onlyIds] = (await storage.list({ scope: "tool" }, ctx)).items;
    expect(k).toMatchObject({ key: "k", metadata: { mine: "yes" } });
    expect(onlyIds).toMatchObject({ key: "only-ids" });
    expect(onlyIds).not.toHaveProperty("metadata");
  });

  it("rejects more than 32 tags, non-string tags and non-object metadata with -32028", async () => {
    const { storage, ctx } = setup();
    const cases = [
      { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) },
      { tags: [1] },
      { tags: "a" },
      { metadata: [1] },
      { metadata: "x" },
    ];
    for (const extra of cases) {
      await expectRpcError(
        storage.set({ key: "k", value: 1, scope: "tool", ...extra } as never, ctx),
        -32028,
        E.INVALID_REQUEST.errorCode,
      );
    }
    await expect(
      storage.set(
        { key: "k", value: 1, scope: "tool", tags: Array.from({ length: 32 }, String) },
        ctx,
      ),
    ).resolves.toBeDefined();
  });
});

describe("createMemoryStorageService: delete", () => {
  it("deletes, then reads as missing; a missing key is -32022; generations continue on re-create", async () => {
    const { storage, ctx } = setup();
    await storage.set({ key: "k", value: 1, scope: "tool" }, ctx);
    await storage.set({ key: "k", value: 2, scope: "tool" }, ctx);
    expect(await storage.delete({ key: "k", scope: "tool" }, ctx)).toEqual({ deleted: true });
    expect((await storage.get({ key: "k", scope: "tool" }, ctx)).exists).toBe(false);
    await expectRpcError(
      storage.delete({ key: "k", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
      /does not exist/,
    );
    expect((await storage.set({ key: "k", value: 3, scope: "tool" }, ctx)).generation).toBe(3);
  });
});

describe("createMemoryStorageService: scopes", () => {
  it("keeps tool rows per (user, tool), user rows per user, app rows per (user, app)", async () => {
    const { storage } = setup();
    const a = storageCtx({ toolId: "tool-a" });
    const b = storageCtx({ toolId: "tool-b" });
    const otherUser = storageCtx({ userId: "user-2" });
    await storage.set({ key: "k", value: "tool-a", scope: "tool" }, a);
    await storage.set({ key: "k", value: "shared", scope: "user" }, a);
    expect((await storage.get({ key: "k", scope: "tool" }, b)).exists).toBe(false);
    expect((await storage.get({ key: "k", scope: "user" }, b)).value).toBe("shared");
    expect((await storage.get({ key: "k", scope: "user" }, otherUser)).exists).toBe(false);
    expect((await storage.get({ key: "k", scope: "tool" }, a)).value).toBe("tool-a");

    const app1 = storageCtx({ app: { appId: "app-1", appScopeGranted: true } });
    const app2 = storageCtx({ app: { appId: "app-2", appScopeGranted: true } });
    await storage.set({ key: "k", value: "app-1", scope: "app" }, app1);
    expect((await storage.get({ key: "k", scope: "app" }, app2)).exists).toBe(false);
    expect((await storage.get({ key: "k", scope: "app" }, app1)).value).toBe("app-1");
  });

  it("defaults an omitted scope to tool and refuses scope app outside an app (-32021)", async () => {
    const { storage, ctx } = setup();
    await expectRpcError(
      storage.get({ key: "k", scope: "global" } as never, ctx),
      -32028,
      E.INVALID_REQUEST.errorCode,
      /'scope' must be/,
    );
    await storage.set({ key: "k", value: 1 } as never, ctx);
    expect((await storage.get({ key: "k", scope: "tool" }, ctx)).value).toBe(1);
    await expectRpcError(
      storage.get({ key: "k", scope: "app" }, ctx),
      -32021,
      E.NOT_GRANTED.errorCode,
    );
  });
});

describe("createMemoryStorageService: list", () => {
  async function seeded(count: number) {
    const s = setup();
    for (let i = 0; i < count; i++) {
      await s.storage.set(
        { key: `item/${String(i).padStart(5, "0")}`, value: i, scope: "tool" },
        s.ctx,
      );
    }
    return s;
  }

  it("pages through 2,500 keys in order with opaque cursors and ends with next_cursor null", async () => {
    const { storage, ctx } = await seeded(2_500);
    await storage.set({ key: "other/x", value: 0, scope: "tool" }, ctx);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof storage.list>> = await storage.list(
        { scope: "tool", prefix: "item/", cursor, limit: 1000 },
        ctx,
      );
      pages += 1;
      seen.push(...page.items.map((item) => item.key));
      if (page.next_cursor !== null) {
        expect(page.next_cursor).not.toContain("item/");
      }
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(2_500);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(2_500);
  });

  it("defaults to 100 items and silently clamps limit into 1..1000", async () => {
    const { storage, ctx } = await seeded(1_100);
    expect((await storage.list({ scope: "tool" }, ctx)).items).toHaveLength(100);
    expect((await storage.list({ scope: "tool", limit: 5_000 }, ctx)).items).toHaveLength(1000);
    expect((await storage.list({ scope: "tool", limit: 0 }, ctx)).items).toHaveLength(1);
    expect((await storage.list({ scope: "tool", limit: -7 }, ctx)).items).toHaveLength(1);
  });

  it("returns metadata heads without values and next_cursor null on the last page", async () => {
    const { storage, ctx } = await seeded(2);
    const page = await storage.list({ scope: "tool", limit: 2 }, ctx);
    expect(page.next_cursor).toBeNull();
    expect(page.items[0]).toEqual({
      key: "item/00000",
      etag: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
      size_bytes: 1,
      updated_at: new Date(T0_MS).toISOString(),
    });
  });

  it("orders byte-wise (code points), not by UTF-16 units", async () => {
    const { storage, ctx } = setup();
    for (const key of ["b", "a", "\uffee", "😀", "B"]) {
      await storage.set({ key, value: 1, scope: "tool" }, ctx);
    }
    const keys = (await storage.list({ scope: "tool" }, ctx)).items.map((i) => i.key);
    expect(keys).toEqual(["B", "a", "b", "\uffee", "😀"]);
  });

  it("continues after a cursor whose key was deleted in between", async () => {
    const { storage, ctx } = await seeded(5);
    const first = await storage.list({ scope: "tool", limit: 2 }, ctx);
    await storage.delete({ key: "item/00001", scope: "tool" }, ctx);
    const next = await storage.list({ scope: "tool", limit: 2, cursor: first.next_cursor }, ctx);
    expect(next.items.map((i) => i.key)).toEqual(["item/00002", "item/00003"]);
  });

  it("validates prefixes (-32027) and cursors (-32028)", async () => {
    const { storage, ctx } = await seeded(1);
    for (const prefix of ["/item", "item/../x", "a/./", "x".repeat(1025)]) {
      await expectRpcError(
        storage.list({ scope: "tool", prefix }, ctx),
        -32027,
        E.INVALID_PATH.errorCode,
      );
    }
    expect((await storage.list({ scope: "tool", prefix: "item/" }, ctx)).items).toHaveLength(1);
    expect((await storage.list({ scope: "tool", prefix: "ite" }, ctx)).items).toHaveLength(1);
    await expectRpcError(
      storage.list({ scope: "tool", cursor: "item/00000" }, ctx),
      -32028,
      E.INVALID_REQUEST.errorCode,
      /next_cursor/,
    );
  });
});

describe("createMemoryStorageService: quota", () => {
  function quotaSetup(limit: number) {
    return setup({ limits: { quotaBytes: limit } });
  }

  it("charges canonical bytes per user across scopes and refuses a write over the quota (-32024)", async () => {
    const { storage, ctx } = quotaSetup(20);
    await storage.set({ key: "a", value: "12345678", scope: "tool" }, ctx); // 10 bytes
    await storage.set({ key: "b", value: "12345678", scope: "user" }, ctx); // 10 bytes
    expect(storage.quota.usage("user-1")).toEqual({ usedBytes: 20, reservedBytes: 0 });
    const error = await expectRpcError(
      storage.set({ key: "c", value: 1, scope: "tool" }, ctx),
      -32024,
      E.QUOTA_EXCEEDED.errorCode,
      /20 bytes used/,
    );
    expect(error.data).toMatchObject({ usedBytes: 20, limitBytes: 20, requestedBytes: 1 });
    expect((await storage.get({ key: "c", scope: "tool" }, ctx)).exists).toBe(false);
    // Another user has their own quota.
    await expect(
      storage.set({ key: "c", value: 1, scope: "tool" }, storageCtx({ userId: "user-2" })),
    ).resolves.toBeDefined();
  });

  it("charges only the growth of an overwrite and refunds on shrink and delete", async () => {
    const { storage, ctx } = quotaSetup(10);
    await storage.set({ key: "a", value: "123456", scope: "tool" }, ctx); // 8
    await storage.set({ key: "a", value: "12345678", scope: "tool" }, ctx); // 10: +2 fits
    await storage.set({ key: "a", value: 1, scope: "tool" }, ctx); // 1
    expect(storage.quota.usage("user-1").usedBytes).toBe(1);
    await storage.delete({ key: "a", scope: "tool" }, ctx);
    expect(storage.quota.usage("user-1").usedBytes).toBe(0);
  });

  it("applies a lower quotaBytes from the grant", async () => {
    const { storage } = quotaSetup(1_000);
    const ctx = storageCtx({ grant: { quotaBytes: 5 } });
    await expectRpcError(
      storage.set({ key: "a", value: "123456", scope: "tool" }, ctx),
      -32024,
      E.QUOTA_EXCEEDED.errorCode,
    );
  });

  it("reclaims expired rows before refusing a write for quota", async () => {
    const { storage, ctx, clock } = quotaSetup(10);
    await storage.set({ key: "a", value: "12345678", scope: "user", ttl_seconds: 5 }, ctx);
    clock.advance(5_000);
    await expect(
      storage.set({ key: "b", value: "12345678", scope: "tool" }, ctx),
    ).resolves.toBeDefined();
    expect(storage.quota.usage("user-1").usedBytes).toBe(10);
  });

  it("uses the 5 GiB default", () => {
    const { storage } = setup();
    expect(storage.quota.limitBytes).toBe(5 * 1024 ** 3);
  });
});

describe("createMemoryStorageService: determinism", () => {
  it("gives byte-identical results for the same calls on the same clock", async () => {
    const run = async () => {
      const { storage, ctx, clock } = setup();
      const out: unknown[] = [];
      out.push(
        await storage.set({ key: "a", value: { x: 1 }, scope: "tool", ttl_seconds: 60 }, ctx),
      );
      clock.advance(1_234);
      out.push(await storage.set({ key: "b", value: [1, 2], scope: "user" }, ctx));
      out.push(await storage.list({ scope: "tool", limit: 1 }, ctx));
      out.push(await storage.get({ key: "b", scope: "user" }, ctx));
      return JSON.stringify(out);
    };
    expect(await run()).toBe(await run());
  });
});
