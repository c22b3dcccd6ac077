// The SQL KV and files stores on a real SQLite file and a real PostgreSQL: the behaviour the
// contract suite does not reach (atomicity under concurrency, soft deletes, quota races).
import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { ctxFor, sqlStorage } from "../helpers/storage.js";

useDialectCleanup();

const rpcCode = (err: unknown) => (err as { code?: number }).code;

describe.each(DIALECTS)("SQL storage on $name", (d) => {
  it.skipIf(d.skip)(
    "keeps the generation of a soft-deleted key and hides it from get and list",
    async () => {
      const clock = manualClock();
      const { kv } = await sqlStorage(await d.open(), clock);
      const a = ctxFor("1");
      expect(await kv.set({ scope: "tool", key: "k", value: { n: 1 } }, a)).toMatchObject({
        generation: 1,
      });
      await kv.delete({ scope: "tool", key: "k" }, a);
      expect(await kv.get({ scope: "tool", key: "k" }, a)).toEqual({
        value: null,
        exists: false,
        etag: null,
      });
      expect((await kv.list({ scope: "tool" }, a)).items).toEqual([]);
      expect(await kv.set({ scope: "tool", key: "k", value: { n: 2 } }, a)).toMatchObject({
        generation: 2,
      });
      await expect(kv.delete({ scope: "tool", key: "nope" }, a)).rejects.toMatchObject({
        code: -32022,
      });
    },
  );

  it.skipIf(d.skip)("lists in code-point order across pages, by literal prefix", async () => {
    const { kv } = await sqlStorage(await d.open(), manualClock());
    const a = ctxFor("1");
    const keys = ["b/2", "a/1", "b/10", "b/Z", "b/é", "b/_x", "b/%y", "c"];
    for (const key of keys) await kv.set({ scope: "user", key, value: key }, a);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await kv.list(
        { scope: "user", prefix: "b/", limit: 2, ...(cursor ? { cursor } : {}) },
        a,
      );
      seen.push(...page.items.map((i) => i.key));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(["b/%y", "b/10", "b/2", "b/Z", "b/_x", "b/é"]);
    expect((await kv.list({ scope: "user", prefix: "b/_" }, a)).items.map((i) => i.key)).toEqual([
      "b/_x",
    ]);
  });

  it.skipIf(d.skip)(
    "expires a TTL row at its instant and reclaims its bytes before refusing for quota",
    async () => {
      const clock = manualClock();
      const { kv } = await sqlStorage(await d.open(), clock, { limits: { quotaBytes: 100 } });
      const a = ctxFor("1");
      await kv.set({ scope: "tool", key: "t", value: "x".repeat(60), ttl_seconds: 10 }, a);
      await expect(
        kv.set({ scope: "tool", key: "u", value: "y".repeat(60) }, a),
      ).rejects.toMatchObject({
        code: -32024,
      });
      clock.advance(10_000);
      expect((await kv.get({ scope: "tool", key: "t" }, a)).exists).toBe(false);
      await kv.set({ scope: "tool", key: "u", value: "y".repeat(60) }, a);
    },
  );

  it.skipIf(d.skip)(
    "16 concurrent if_match writers on one key lose no update",
    async () => {
      const { kv } = await sqlStorage(await d.open(), manualClock());
      const a = ctxFor("1");
      await kv.set({ scope: "tool", key: "counter", value: 0 }, a);
      const WRITERS = 16;
      const INCREMENTS = 10;
      let conflicts = 0;
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          for (let done = 0; done < INCREMENTS;) {
            const cur = await kv.get({ scope: "tool", key: "counter" }, a);
            try {
              await kv.set(
                {
                  scope: "tool",
                  key: "counter",
                  value: (cur.value as number) + 1,
                  if_match: cur.etag,
                },
                a,
              );
              done += 1;
            } catch (err) {
              if (rpcCode(err) !== -32023) throw err;
              conflicts += 1;
            }
          }
        }),
      );
      const final = await kv.get({ scope: "tool", key: "counter" }, a);
      expect(final.value).toBe(WRITERS * INCREMENTS);
      expect((final as { generation?: number }).generation).toBe(WRITERS * INCREMENTS + 1);
      // The writers really raced: some compare-and-set lost and retried.
      expect(conflicts).toBeGreaterThan(0);
    },
    60_000,
  );

  it.skipIf(d.skip)(
    "parallel upload begins cannot reserve past the quota",
    async () => {
      const { files } = await sqlStorage(await d.open(), manualClock(), {
        limits: { quotaBytes: 1000 },
      });
      const a = ctxFor("1");
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          files.uploadBegin(
            {
              scope: "tool",
              path: `f${i}.bin`,
              size_bytes: 300,
              content_type: "application/octet-stream",
            },
            a,
          ),
        ),
      );
      const ok = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r) => r.status === "rejected");
      expect(ok).toHaveLength(3);
      expect(refused.every((r) => rpcCode((r as PromiseRejectedResult).reason) === -32024)).toBe(
        true,
      );
    },
    30_000,
  );

  it.skipIf(d.skip)("scopes and users never see each other's rows", async () => {
    const { kv } = await sqlStorage(await d.open(), manualClock());
    const a = ctxFor("1", "tool-a");
    const b = ctxFor("2", "tool-a");
    const aOther = ctxFor("1", "tool-b");
    await kv.set({ scope: "tool", key: "k", value: "a-tool" }, a);
    await kv.set({ scope: "user", key: "k", value: "a-user" }, a);
    expect((await kv.get({ scope: "tool", key: "k" }, b)).exists).toBe(false);
    expect((await kv.get({ scope: "user", key: "k" }, b)).exists).toBe(false);
    expect((await kv.get({ scope: "tool", key: "k" }, aOther)).exists).toBe(false);
    expect((await kv.get({ scope: "user", key: "k" }, aOther)).value).toBe("a-user");
    await expect(kv.delete({ scope: "tool", key: "k" }, b)).rejects.toMatchObject({ code: -32022 });
    expect((await kv.list({ scope: "user" }, b)).items).toEqual([]);
  });
});
