// The SQL event log (migration 0020) on a real SQLite file and a real PostgreSQL database: two
// nodes appending for one user at once get dense, distinct numbers whose reads come back in
// order; users are apart; the count trim and the age sweep keep it bounded; and a resumed
// stream's reads see what each node appended.
import { makeEvent } from "@anna-ai/app-core";
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { nullLogger } from "../../src/core/logger.js";
import { sqlEventLog } from "../../src/runtime/sql-event-log.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";

useDialectCleanup();

const ping = (node: string, n: number): AnnaAppEvent =>
  makeEvent("ping", { appId: "app-1" }, { node, n }, 1_000);

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(`the SQL event log on ${dialect.name}`, () => {
    it("numbers two nodes' concurrent appends for one user densely, each node's in its order", async () => {
      // Two handles on PostgreSQL (two nodes' pools); SQLite is one node's, whose driver would
      // block this process on a second handle's lock.
      const [dbA, dbB] =
        dialect.name === "sqlite"
          ? await dialect.open().then((h) => [h, h] as const)
          : await dialect.openShared();
      const clock = manualClock();
      const a = sqlEventLog(dbA.db, { clock, logger: nullLogger });
      const b = sqlEventLog(dbB.db, { clock, logger: nullLogger });
      // Each node appends one batch at a time for a user (sequencedEventBus); the nodes race.
      const node = async (log: typeof a, name: string, size: number) => {
        const out: number[] = [];
        for (let n = 0; n < 40; n++) {
          const batch = Array.from({ length: size }, (_, i) => ping(name, n + i / size));
          out.push(...(await log.append("alice", batch)));
        }
        return out;
      };
      const numbers = (await Promise.all([node(a, "a", 2), node(b, "b", 1)])).flat();
      expect(numbers.sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      // A batch's numbers are consecutive: its events stay together and in order.
      const read = await b.read("alice", 0, 500);
      expect(read.head).toBe(120);
      expect(read.events.map((e) => e.seq)).toEqual(numbers.sort((x, y) => x - y));
      const fromA = read.events
        .map((e) => e.event.payload as { node: string; n: number })
        .filter((p) => p.node === "a")
        .map((p) => p.n);
      expect(fromA).toEqual([...fromA].sort((x, y) => x - y));
      expect(await a.read("bob", 0, 10)).toEqual({ events: [], head: 0 });
      await expect(Promise.resolve(b.append("bob", [ping("b", 1)]))).resolves.toEqual([1]);
    });

    it("reads after a cursor, at most limit, oldest first", async () => {
      const log = sqlEventLog((await dialect.open()).db, {
        clock: manualClock(),
        logger: nullLogger,
      });
      for (let n = 1; n <= 5; n++) await log.append("u", [ping("a", n)]);
      const read = await log.read("u", 2, 2);
      expect(read.events.map((e) => [e.seq, (e.event.payload as { n: number }).n])).toEqual([
        [3, 3],
        [4, 4],
      ]);
      expect(read.head).toBe(5);
    });

    it("keeps at most perUserMax events of a user and sweeps what is older than the retention", async () => {
      const clock = manualClock();
      const log = sqlEventLog((await dialect.open()).db, {
        clock,
        logger: nullLogger,
        perUserMax: 10,
        retentionMs: 1_000,
      });
      // 300 appends cross the trim mark (every 256th number) once.
      for (let n = 1; n <= 300; n++) await log.append("u", [ping("a", n)]);
      const kept = await log.read("u", 0, 1_000);
      expect(kept.events[0]!.seq).toBeGreaterThan(256 - 10);
      expect(kept.events.at(-1)!.seq).toBe(300);
      clock.advance(1_001);
      // Too old to replay at once, and gone once swept.
      expect((await log.read("u", 0, 1_000)).events).toEqual([]);
      expect(await log.sweep()).toBe(kept.events.length);
      await log.append("u", [ping("a", 301)]);
      expect((await log.read("u", 0, 1_000)).events.map((e) => e.seq)).toEqual([301]);
    });
  });
}
