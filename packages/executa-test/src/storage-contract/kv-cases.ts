// The `storage/*` semantics every KV store must share (R42–R45, R132–R135, T23, S8). Each case
// names one behaviour and builds its own store, so a failure points at one rule.
import { createHash } from "node:crypto";
import type { StorageListResult } from "@anna-ai/app-schema";
import type { StorageService } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { E, caller, expectStorageError, freshStore } from "./contract-context.js";
import type { MakeStorage } from "./subject.js";

const ME = caller();

function etagOf(canonicalJson: string): string {
  return createHash("sha256").update(canonicalJson, "utf8").digest("hex").slice(0, 32);
}

/** More pages than any case needs: a store that never ends its listing fails, not hangs. */
const MAX_PAGES = 100;

/**
 * Every key of the tool scope, `limit` at a time. `between(round)` starts after a page and runs
 * while the next one is read; the listing ends when `next_cursor` is null.
 */
async function listAllPages(
  storage: StorageService,
  limit: number,
  between?: (round: number) => Promise<unknown>,
): Promise<{ keys: string[]; pages: number }> {
  const keys: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let writes: Promise<unknown> = Promise.resolve();
  do {
    const listed: Promise<StorageListResult> = storage.list({ scope: "tool", limit, cursor }, ME);
    const [page] = await Promise.all([listed, writes]);
    keys.push(...page.items.map((i) => i.key));
    cursor = page.next_cursor;
    writes = between?.(pages) ?? Promise.resolve();
    pages += 1;
  } while (cursor !== null && pages < MAX_PAGES);
  await writes;
  expect(cursor, `still a next_cursor after ${MAX_PAGES} pages`).toBeNull();
  return { keys, pages };
}

export function describeKvContract(make: MakeStorage): void {
  describe("storage: values and etags", () => {
    it("answers a miss with {value: null, exists: false, etag: null}", async () => {
      const { storage } = await freshStore(make);
      const miss = await storage.get({ key: "nope", scope: "tool" }, ME);
      expect(miss).toMatchObject({ value: null, exists: false, etag: null });
    });

    it("stores canonical JSON: etag = sha256(payload)[:32] in any key order, size in bytes", async () => {
      const { storage } = await freshStore(make);
      const canonical = '{"a":{"y":1.5,"z":"é"},"b":[1,null]}';
      const first = await storage.set(
        { key: "doc", value: { b: [1, null], a: { z: "é", y: 1.5 } }, scope: "tool" },
        ME,
      );
      expect(first).toMatchObject({
        etag: etagOf(canonical),
        size_bytes: Buffer.byteLength(canonical, "utf8"),
      });
      const read = await storage.get({ key: "doc", scope: "tool" }, ME);
      expect(read).toMatchObject({ exists: true, etag: etagOf(canonical) });
      expect(read.value).toEqual({ a: { y: 1.5, z: "é" }, b: [1, null] });
      const again = await storage.set(
        { key: "doc", value: { a: { y: 1.5, z: "é" }, b: [1, null] }, scope: "tool" },
        ME,
      );
      expect(again.etag).toBe(first.etag);
    });

    it("refuses a value over the size cap with VALUE_TOO_LARGE and keeps the old one", async () => {
      const { storage } = await freshStore(make, { kvValueMaxBytes: 64 });
      await storage.set({ key: "k", value: "small", scope: "tool" }, ME);
      await expectStorageError(
        storage.set({ key: "k", value: "x".repeat(80), scope: "tool" }, ME),
        E.VALUE_TOO_LARGE,
      );
      expect((await storage.get({ key: "k", scope: "tool" }, ME)).value).toBe("small");
    });

    it("refuses bad keys: empty is INVALID_REQUEST, an illegal shape is INVALID_PATH", async () => {
      const { storage } = await freshStore(make);
      await expectStorageError(
        storage.set({ key: "", value: 1, scope: "tool" }, ME),
        E.INVALID_REQUEST,
      );
      await expectStorageError(
        storage.set({ key: "/abs", value: 1, scope: "tool" }, ME),
        E.INVALID_PATH,
      );
      await expectStorageError(storage.get({ key: "a//b", scope: "tool" }, ME), E.INVALID_PATH);
    });

    it("round-trips metadata and tags into list heads, without the correlation keys", async () => {
      const { storage } = await freshStore(make);
      await storage.set(
        {
          key: "tagged",
          value: 1,
          scope: "tool",
          metadata: { b: { c: 2 }, a: "x", executa_invoke_id: "inv-1", tool: "t" },
          tags: ["red", "blue"],
        },
        ME,
      );
      const { items } = await storage.list({ scope: "tool" }, ME);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        key: "tagged",
        metadata: { a: "x", b: { c: 2 } },
        tags: ["red", "blue"],
      });
      expect((items[0] as { metadata?: object }).metadata).not.toHaveProperty("executa_invoke_id");
    });
  });

  describe("storage: if_match", () => {
    it("writes when if_match is the current etag, and answers the new one", async () => {
      const { storage } = await freshStore(make);
      const v1 = await storage.set({ key: "k", value: 1, scope: "tool" }, ME);
      const v2 = await storage.set({ key: "k", value: 2, scope: "tool", if_match: v1.etag }, ME);
      expect(v2.etag).not.toBe(v1.etag);
      expect(await storage.get({ key: "k", scope: "tool" }, ME)).toMatchObject({
        value: 2,
        etag: v2.etag,
      });
    });

    it("refuses a stale etag with PRECONDITION_FAILED and changes nothing", async () => {
      const { storage } = await freshStore(make);
      const v1 = await storage.set({ key: "k", value: 1, scope: "tool" }, ME);
      await storage.set({ key: "k", value: 2, scope: "tool" }, ME);
      await expectStorageError(
        storage.set({ key: "k", value: 3, scope: "tool", if_match: v1.etag }, ME),
        E.PRECONDITION_FAILED,
      );
      await expectStorageError(
        storage.delete({ key: "k", scope: "tool", if_match: v1.etag }, ME),
        E.PRECONDITION_FAILED,
      );
      expect((await storage.get({ key: "k", scope: "tool" }, ME)).value).toBe(2);
    });

    it("refuses if_match on a missing key with PRECONDITION_FAILED (not a create)", async () => {
      const { storage } = await freshStore(make);
      await expectStorageError(
        storage.set({ key: "k", value: 1, scope: "tool", if_match: "0".repeat(32) }, ME),
        E.PRECONDITION_FAILED,
      );
      expect((await storage.get({ key: "k", scope: "tool" }, ME)).exists).toBe(false);
    });

    it("treats if_match: null as unconditional, and deletes with the right etag", async () => {
      const { storage } = await freshStore(make);
      await storage.set({ key: "k", value: 1, scope: "tool", if_match: null }, ME);
      const v2 = await storage.set({ key: "k", value: 2, scope: "tool", if_match: null }, ME);
      expect(await storage.delete({ key: "k", scope: "tool", if_match: v2.etag }, ME)).toEqual({
        deleted: true,
      });
      expect((await storage.get({ key: "k", scope: "tool" }, ME)).exists).toBe(false);
    });

    it("answers NOT_FOUND for deleting a missing key", async () => {
      const { storage } = await freshStore(make);
      await expectStorageError(storage.delete({ key: "never", scope: "tool" }, ME), E.NOT_FOUND);
    });
  });

  describe("storage: generation", () => {
    it("counts every write, even of the same value", async () => {
      const { storage } = await freshStore(make);
      const gens = [];
      for (let i = 0; i < 3; i++) {
        gens.push((await storage.set({ key: "k", value: "same", scope: "tool" }, ME)).generation);
      }
      expect(gens).toEqual([1, 2, 3]);
    });

    it("keeps counting up when a key is deleted and re-created", async () => {
      const { storage } = await freshStore(make);
      await storage.set({ key: "k", value: 1, scope: "tool" }, ME);
      await storage.set({ key: "k", value: 2, scope: "tool" }, ME);
      await storage.delete({ key: "k", scope: "tool" }, ME);
      const again = await storage.set({ key: "k", value: 3, scope: "tool" }, ME);
      expect(again.generation).toBe(3);
    });
  });

  describe("storage: TTL", () => {
    it("serves a row until its expiry instant, then behaves as missing for every call", async () => {
      const { storage, clock } = await freshStore(make);
      const written = await storage.set(
        { key: "short", value: "v", scope: "tool", ttl_seconds: 10 },
        ME,
      );
      await storage.set({ key: "long", value: "v", scope: "tool" }, ME);
      const heads = await storage.list({ scope: "tool" }, ME);
      expect(heads.items.find((i) => i.key === "short")?.expires_at).toBe(
        new Date(clock.now() + 10_000).toISOString(),
      );
      clock.advance(9_999);
      expect((await storage.get({ key: "short", scope: "tool" }, ME)).exists).toBe(true);
      clock.advance(1);
      expect(await storage.get({ key: "short", scope: "tool" }, ME)).toMatchObject({
        value: null,
        exists: false,
        etag: null,
      });
      const keys = (await storage.list({ scope: "tool" }, ME)).items.map((i) => i.key);
      expect(keys).toEqual(["long"]);
      await expectStorageError(
        storage.set({ key: "short", value: "w", scope: "tool", if_match: written.etag }, ME),
        E.PRECONDITION_FAILED,
      );
      await expectStorageError(storage.delete({ key: "short", scope: "tool" }, ME), E.NOT_FOUND);
    });

    it("clears the TTL when a row is rewritten without one", async () => {
      const { storage, clock } = await freshStore(make);
      await storage.set({ key: "k", value: 1, scope: "tool", ttl_seconds: 5 }, ME);
      await storage.set({ key: "k", value: 2, scope: "tool" }, ME);
      clock.advance(60_000);
      expect((await storage.get({ key: "k", scope: "tool" }, ME)).value).toBe(2);
    });

    it("refuses a TTL outside 1..31 536 000 seconds with INVALID_REQUEST", async () => {
      const { storage } = await freshStore(make);
      for (const ttl of [0, -1, 1.5, 31_536_001]) {
        await expectStorageError(
          storage.set({ key: "k", value: 1, scope: "tool", ttl_seconds: ttl }, ME),
          E.INVALID_REQUEST,
        );
      }
    });
  });

  describe("storage: list", () => {
    it("lists only keys under the prefix, in code-point order", async () => {
      const { storage } = await freshStore(make);
      for (const key of [
        "notes/b",
        "notes/a",
        "notes/\u{1F600}",
        "notes/\uE000",
        "notes2",
        "other",
      ]) {
        await storage.set({ key, value: 1, scope: "tool" }, ME);
      }
      const { items, next_cursor } = await storage.list({ scope: "tool", prefix: "notes/" }, ME);
      expect(items.map((i) => i.key)).toEqual([
        "notes/a",
        "notes/b",
        "notes/\uE000",
        "notes/\u{1F600}",
      ]);
      expect(next_cursor).toBeNull();
    });

    it("pages with opaque cursors; the last page has next_cursor null", async () => {
      const { storage } = await freshStore(make);
      const keys = Array.from({ length: 11 }, (_, i) => `k${String(i).padStart(2, "0")}`);
      for (const key of keys) await storage.set({ key, value: key, scope: "tool" }, ME);
      const { keys: seen, pages } = await listAllPages(storage, 4);
      expect(seen).toEqual(keys);
      expect(pages).toBe(3);
    });

    it("refuses a cursor it did not mint with INVALID_REQUEST", async () => {
      const { storage } = await freshStore(make);
      await expectStorageError(
        storage.list({ scope: "tool", cursor: "not a cursor!" }, ME),
        E.INVALID_REQUEST,
      );
    });

    it("under concurrent writes, returns every key that existed throughout exactly once", async () => {
      const { storage } = await freshStore(make);
      const stable = Array.from({ length: 30 }, (_, i) => `s${String(i * 2).padStart(3, "0")}`);
      const doomed = Array.from({ length: 10 }, (_, i) => `s${String(i * 6 + 1).padStart(3, "0")}`);
      for (const key of [...stable, ...doomed])
        await storage.set({ key, value: 0, scope: "tool" }, ME);
      // Each round's writes race the read of the next page: inserts before and after the
      // cursor and between stable keys, deletes of doomed keys, rewrites of stable ones.
      const { keys: seen } = await listAllPages(storage, 5, (round) => {
        const writes: Promise<unknown>[] = [
          storage.set(
            { key: `s${String(round * 7 + 3).padStart(3, "0")}x`, value: round, scope: "tool" },
            ME,
          ),
          storage.set({ key: `a-before-${round}`, value: round, scope: "tool" }, ME),
          storage.set({ key: `z-after-${round}`, value: round, scope: "tool" }, ME),
        ];
        const stableKey = stable[(round * 3) % stable.length];
        if (stableKey !== undefined) {
          writes.push(storage.set({ key: stableKey, value: round, scope: "tool" }, ME));
        }
        const doomedKey = doomed[round];
        if (doomedKey !== undefined) {
          writes.push(storage.delete({ key: doomedKey, scope: "tool" }, ME));
        }
        return Promise.all(writes);
      });
      expect(new Set(seen).size, "a key was listed twice").toBe(seen.length);
      for (const key of stable) expect(seen, `stable key ${key} was skipped`).toContain(key);
    });
  });

  describe("storage: quota", () => {
    it("charges canonical bytes per user across scopes and refuses the overflow with QUOTA_EXCEEDED", async () => {
      const { storage } = await freshStore(make, { quotaBytes: 100 });
      const app = caller({ appId: "app-1" });
      await storage.set({ key: "a", value: "x".repeat(38), scope: "tool" }, ME); // 40 bytes
      await storage.set({ key: "b", value: "x".repeat(38), scope: "user" }, ME); // 40 bytes
      await expectStorageError(
        storage.set({ key: "c", value: "x".repeat(28), scope: "app" }, app), // 30 bytes
        E.QUOTA_EXCEEDED,
      );
      expect((await storage.get({ key: "c", scope: "app" }, app)).exists).toBe(false);
      await storage.set({ key: "c", value: "x".repeat(18), scope: "app" }, app); // 20 bytes
    });

    it("charges only the growth of an overwrite, and frees bytes on delete", async () => {
      const { storage } = await freshStore(make, { quotaBytes: 100 });
      await storage.set({ key: "a", value: "x".repeat(78), scope: "tool" }, ME); // 80
      await storage.set({ key: "a", value: "x".repeat(88), scope: "tool" }, ME); // 90: +10
      await expectStorageError(
        storage.set({ key: "b", value: "x".repeat(18), scope: "tool" }, ME),
        E.QUOTA_EXCEEDED,
      );
      await storage.delete({ key: "a", scope: "tool" }, ME);
      await storage.set({ key: "b", value: "x".repeat(88), scope: "tool" }, ME);
    });

    it("frees the bytes of an expired row", async () => {
      const { storage, clock } = await freshStore(make, { quotaBytes: 100 });
      await storage.set({ key: "a", value: "x".repeat(88), scope: "tool", ttl_seconds: 1 }, ME);
      clock.advance(1_000);
      await storage.set({ key: "b", value: "x".repeat(88), scope: "tool" }, ME);
    });

    it("gives every user their own quota", async () => {
      const { storage } = await freshStore(make, { quotaBytes: 100 });
      await storage.set({ key: "a", value: "x".repeat(88), scope: "tool" }, ME);
      await storage.set(
        { key: "a", value: "x".repeat(88), scope: "tool" },
        caller({ userId: "user-2" }),
      );
    });

    it("lowers the quota to the grant's quotaBytes, never raises it", async () => {
      const { storage } = await freshStore(make, { quotaBytes: 100 });
      const tight = caller({ grant: { quotaBytes: 50 } });
      await expectStorageError(
        storage.set({ key: "a", value: "x".repeat(58), scope: "tool" }, tight),
        E.QUOTA_EXCEEDED,
      );
      const loose = caller({ grant: { quotaBytes: 1_000 } });
      await expectStorageError(
        storage.set({ key: "a", value: "x".repeat(108), scope: "tool" }, loose),
        E.QUOTA_EXCEEDED,
      );
    });

    it("counts entries: the key over quotaEntries is refused, overwrites are free, delete frees one", async () => {
      const { storage } = await freshStore(make, { quotaEntries: 3 });
      for (const key of ["a", "b"]) await storage.set({ key, value: 1, scope: "tool" }, ME);
      await storage.set({ key: "c", value: 1, scope: "user" }, ME);
      await expectStorageError(
        storage.set({ key: "d", value: 1, scope: "tool" }, ME),
        E.QUOTA_EXCEEDED,
      );
      await storage.set({ key: "a", value: 2, scope: "tool" }, ME);
      await storage.delete({ key: "b", scope: "tool" }, ME);
      await storage.set({ key: "d", value: 1, scope: "tool" }, ME);
      await storage.set({ key: "d", value: 1, scope: "tool" }, caller({ userId: "user-2" }));
    });
  });

  describe("storage: scopes", () => {
    it("keeps user, tool and app rows of one user apart", async () => {
      const { storage } = await freshStore(make);
      const inApp = caller({ appId: "app-1" });
      await storage.set({ key: "k", value: "user", scope: "user" }, inApp);
      await storage.set({ key: "k", value: "tool", scope: "tool" }, inApp);
      await storage.set({ key: "k", value: "app", scope: "app" }, inApp);
      for (const scope of ["user", "tool", "app"] as const) {
        expect((await storage.get({ key: "k", scope }, inApp)).value).toBe(scope);
        expect((await storage.list({ scope }, inApp)).items).toHaveLength(1);
      }
    });

    it("shares the user scope across a user's tools; tool and app rows are per tool and per app", async () => {
      const { storage } = await freshStore(make);
      await storage.set({ key: "k", value: "a", scope: "user" }, ME);
      await storage.set({ key: "k", value: "a", scope: "tool" }, ME);
      await storage.set({ key: "k", value: "a", scope: "app" }, caller({ appId: "app-1" }));
      const otherTool = caller({ toolId: "tool-b", appId: "app-2" });
      expect((await storage.get({ key: "k", scope: "user" }, otherTool)).value).toBe("a");
      expect((await storage.get({ key: "k", scope: "tool" }, otherTool)).exists).toBe(false);
      expect((await storage.get({ key: "k", scope: "app" }, otherTool)).exists).toBe(false);
    });

    it("shows a second user none of the first user's rows, in any scope", async () => {
      const { storage } = await freshStore(make);
      const first = caller({ appId: "app-1" });
      const second = caller({ userId: "user-2", appId: "app-1" });
      for (const scope of ["user", "tool", "app"] as const) {
        await storage.set({ key: "k", value: 1, scope }, first);
        expect((await storage.get({ key: "k", scope }, second)).exists).toBe(false);
        expect((await storage.list({ scope }, second)).items).toEqual([]);
        await expectStorageError(storage.delete({ key: "k", scope }, second), E.NOT_FOUND);
      }
    });

    it("refuses scope 'app' outside an App invoke", async () => {
      const { storage } = await freshStore(make);
      await expectStorageError(storage.get({ key: "k", scope: "app" }, ME), E.NOT_GRANTED);
    });
  });
}
