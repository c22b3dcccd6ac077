// Paging is a partition of the sorted key set: whatever the keys, prefix and page size, walking
// next_cursor visits every matching key exactly once, in UTF-8 byte order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, payloadEtag } from "../../../src/storage/canonical-json.js";
import { createMemoryStorageService } from "../../../src/services/offline/storage-memory.js";
import { storageCtx } from "./helpers.js";

const CHARS = ["a", "B", "z", "0", "9", ".", "-", "_", "~", "é", "😀", "\uffee"];
const segment = fc
  .array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 6 })
  .map((chars) => chars.join(""))
  .filter((s) => s !== "." && s !== "..");
const key = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/"));

function utf8Order(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

describe("storage/list paging (property)", () => {
  it("visits every matching key once, in byte order, for any page size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(key, { maxLength: 60 }),
        fc.integer({ min: 1, max: 25 }),
        fc.constantFrom("", "a", "é", "😀", "0/"),
        async (keys, limit, prefix) => {
          const storage = createMemoryStorageService({ clock: () => 0 });
          const ctx = storageCtx();
          for (const k of keys) await storage.set({ key: k, value: k, scope: "tool" }, ctx);
          const seen: string[] = [];
          let cursor: string | null = null;
          for (let pages = 0; pages <= keys.length + 1; pages++) {
            const page: Awaited<ReturnType<typeof storage.list>> = await storage.list(
              { scope: "tool", prefix, cursor, limit },
              ctx,
            );
            expect(page.items.length).toBeLessThanOrEqual(limit);
            seen.push(...page.items.map((i) => i.key));
            cursor = page.next_cursor;
            if (cursor === null) break;
          }
          expect(cursor).toBeNull();
          const expected = keys.filter((k) => k.startsWith(prefix)).sort(utf8Order);
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("gives equal etags exactly to equal values, whatever the key order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(
          JSON.stringify(value, (_k, v: unknown) =>
            v !== null && typeof v === "object" && !Array.isArray(v)
              ? Object.fromEntries(Object.entries(v).reverse())
              : v,
          ),
        ) as unknown;
        expect(payloadEtag(canonicalJson(reordered))).toBe(payloadEtag(canonicalJson(value)));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });
});
