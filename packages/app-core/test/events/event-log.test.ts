// The numbered event log, the bus that numbers events in it, and the feed that turns numbered
// live events plus log reads into one gap-free, duplicate-free sequence per stream.
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { NULL_LOGGER } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import {
  createEventBus,
  createMemoryEventLog,
  EventFeed,
  type EventFeedGap,
  type EventLog,
  EVENT_LOG_READ_MAX,
  makeEvent,
  sequencedEventBus,
} from "../../src/index.js";

const ping = (n: number, appId = "app-1"): AnnaAppEvent =>
  makeEvent("ping", { appId }, { n }, 1_000);
const nOf = (event: AnnaAppEvent): number => (event.payload as { n: number }).n;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A log whose appends answer later, in order, as a database's would. */
function slowLog(inner: EventLog, fail?: () => boolean): EventLog & { appends: number[] } {
  const appends: number[] = [];
  return {
    appends,
    async append(userId, events) {
      appends.push(events.length);
      await tick();
      if (fail?.()) throw new Error("database is down");
      return inner.append(userId, events);
    },
    read: (userId, after, limit) => inner.read(userId, after, limit),
  };
}

describe("createMemoryEventLog", () => {
  it("numbers each user's events densely from 1 and reads them back after a cursor", async () => {
    const log = createMemoryEventLog();
    expect(log.append("u1", [ping(1), ping(2)])).toEqual([1, 2]);
    expect(log.append("u2", [ping(9)])).toEqual([1]);
    expect(log.append("u1", [ping(3)])).toEqual([3]);
    const read = await log.read("u1", 1, 10);
    expect(read.head).toBe(3);
    expect(read.events.map((e) => [e.seq, nOf(e.event)])).toEqual([
      [2, 2],
      [3, 3],
    ]);
    expect((await log.read("u1", 0, 1)).events.map((e) => e.seq)).toEqual([1]);
    expect(await log.read("nobody", 0, 10)).toEqual({ events: [], head: 0 });
  });

  it("keeps at most perUserMax events per user and none older than the retention", async () => {
    let now = 0;
    const log = createMemoryEventLog({ perUserMax: 3, retentionMs: 100, now: () => now });
    for (let n = 1; n <= 5; n++) log.append("u", [ping(n)]);
    expect((await log.read("u", 0, 10)).events.map((e) => e.seq)).toEqual([3, 4, 5]);
    now = 150;
    log.append("u", [ping(6)]);
    const read = await log.read("u", 0, 10);
    expect(read.events.map((e) => e.seq)).toEqual([6]);
    expect(read.head).toBe(6);
  });
});

describe("sequencedEventBus", () => {
  it("delivers at once with its number when the log answers at once", () => {
    const bus = sequencedEventBus(createEventBus(), createMemoryEventLog());
    const seen: [number, number | undefined][] = [];
    bus.subscribe({ userId: "u" }, (event, seq) => seen.push([nOf(event), seq]));
    bus.publish("u", ping(1));
    bus.publish("u", ping(2));
    expect(seen).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it("keeps publish order over a slow log, batching the events that wait behind an append", async () => {
    const log = slowLog(createMemoryEventLog());
    const bus = sequencedEventBus(createEventBus(), log);
    const seen: [number, number | undefined][] = [];
    bus.subscribe({ userId: "u" }, (event, seq) => seen.push([nOf(event), seq]));
    for (let n = 1; n <= 5; n++) bus.publish("u", ping(n));
    expect(seen).toEqual([]);
    await bus.settled();
    expect(seen).toEqual([1, 2, 3, 4, 5].map((n) => [n, n]));
    // The first went alone; the four published while it was in flight went as one append.
    expect(log.appends).toEqual([1, 4]);
  });

  it("still delivers, without a number, the events a failing log cannot take", async () => {
    let down = true;
    const errors: string[] = [];
    const bus = sequencedEventBus(
      createEventBus(),
      slowLog(createMemoryEventLog(), () => down),
      { logger: { ...NULL_LOGGER, error: (msg) => errors.push(msg) } },
    );
    const seen: [number, number | undefined][] = [];
    bus.subscribe({ userId: "u" }, (event, seq) => seen.push([nOf(event), seq]));
    bus.publish("u", ping(1));
    await bus.settled();
    down = false;
    bus.publish("u", ping(2));
    await bus.settled();
    expect(seen).toEqual([
      [1, undefined],
      [2, 1],
    ]);
    expect(errors).toEqual([expect.stringContaining("event log append failed")]);
  });

  it("settles a user once what was published for them is logged, not waiting for later events or other users", async () => {
    const gates: (() => void)[] = [];
    const inner = createMemoryEventLog();
    const gated: EventLog = {
      async append(userId, events) {
        await new Promise<void>((resolve) => gates.push(resolve));
        return inner.append(userId, events);
      },
      read: (userId, after, limit) => inner.read(userId, after, limit),
    };
    const bus = sequencedEventBus(createEventBus(), gated);
    let settled = false;
    await bus.settledFor("u"); // nothing published: at once
    bus.publish("u", ping(1));
    bus.publish("u", ping(2));
    const waiting = bus.settledFor("u").then(() => (settled = true));
    // Another user's events and this user's later ones are not what it waits for.
    bus.publish("v", ping(9));
    await tick();
    expect(settled).toBe(false);
    gates.shift()!(); // event 1 of u
    await tick();
    expect(settled).toBe(false);
    bus.publish("u", ping(3)); // queued behind the append of 2
    gates.shift()!(); // event 9 of v
    gates.shift()!(); // event 2 of u: what the wait was for
    await waiting;
    expect((await inner.read("u", 0, 10)).events.map((e) => nOf(e.event))).toEqual([1, 2]);
    const third = bus.settledFor("u");
    gates.shift()!(); // event 3
    await third;
    expect((await inner.read("u", 0, 10)).head).toBe(3);
  });
});

describe("EventFeed", () => {
  function feedOf(
    log: EventLog,
    cursor: number | undefined,
    matches: (e: AnnaAppEvent) => boolean = () => true,
  ) {
    const out: [number, number | undefined][] = [];
    const gaps: EventFeedGap[] = [];
    const feed = new EventFeed(
      cursor,
      log,
      "u",
      matches,
      { event: (event, seq) => out.push([nOf(event), seq]), gap: (gap) => gaps.push(gap) },
      NULL_LOGGER,
    );
    feed.start();
    return { feed, out, gaps };
  }

  it("replays the events after its cursor, then goes live without a duplicate", async () => {
    const log = createMemoryEventLog();
    for (let n = 1; n <= 4; n++) log.append("u", [ping(n)]);
    const { feed, out } = feedOf(log, 2);
    // Published after the subscription but before the replay read answered: kept in order.
    feed.live(ping(4), 4);
    const [seq] = log.append("u", [ping(5)]) as number[];
    feed.live(ping(5), seq);
    await tick();
    expect(out).toEqual([
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
  });

  it("reads back a number the bus skipped (another node's event overtook it) before the later one", async () => {
    const log = createMemoryEventLog();
    const { feed, out } = feedOf(log, undefined);
    await tick();
    log.append("u", [ping(1), ping(2)]);
    feed.live(ping(2), 2);
    await tick();
    feed.live(ping(1), 1);
    expect(out).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it("catches up after the bus was down, when no later event arrives to show the gap", async () => {
    const log = createMemoryEventLog();
    const { feed, out } = feedOf(log, undefined);
    await tick();
    log.append("u", [ping(1), ping(2)]);
    feed.catchUp();
    await tick();
    expect(out).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it("reads a long gap in pages, and filters without mistaking a filtered event for a gap", async () => {
    const log = createMemoryEventLog({ perUserMax: 10_000 });
    const total = EVENT_LOG_READ_MAX * 2 + 3;
    for (let n = 1; n <= total; n++) log.append("u", [ping(n, n % 2 === 0 ? "app-1" : "app-2")]);
    const { out } = feedOf(log, 0, (e) => String(e.app_id) === "app-1");
    await tick();
    await tick();
    expect(out.length).toBe(Math.floor(total / 2));
    expect(out.every(([n, seq]) => n === seq && n % 2 === 0)).toBe(true);
  });

  it("tells its client when the events after its cursor are gone, and resumes from the oldest kept", async () => {
    const log = createMemoryEventLog({ perUserMax: 2 });
    for (let n = 1; n <= 5; n++) log.append("u", [ping(n)]);
    const { out, gaps } = feedOf(log, 1);
    await tick();
    expect(gaps).toEqual([{ reason: "expired", after: 1, resumedAt: 4 }]);
    expect(out).toEqual([
      [4, 4],
      [5, 5],
    ]);
  });

  it("tells its client when every event after its cursor is gone, and goes on from the head", async () => {
    let now = 0;
    const log = createMemoryEventLog({ retentionMs: 1000, now: () => now });
    for (let n = 1; n <= 3; n++) log.append("u", [ping(n)]);
    now = 5000;
    const { feed, out, gaps } = feedOf(log, 1);
    await tick();
    expect(gaps).toEqual([{ reason: "expired", after: 1, resumedAt: 4 }]);
    const [seq] = log.append("u", [ping(4)]) as number[];
    feed.live(ping(4), seq);
    expect(out).toEqual([[4, 4]]);
  });

  it("treats a cursor past the head (another server's, a reset log) as unknown and starts at the head", async () => {
    const log = createMemoryEventLog();
    log.append("u", [ping(1)]);
    const { feed, out, gaps } = feedOf(log, 40);
    await tick();
    expect(gaps).toEqual([{ reason: "unknown_cursor", after: 40, resumedAt: 1 }]);
    const [seq] = log.append("u", [ping(2)]) as number[];
    feed.live(ping(2), seq);
    expect(out).toEqual([[2, 2]]);
  });

  it("passes a fresh stream's stragglers (older than its start, arriving after) without an id", async () => {
    const log = createMemoryEventLog();
    log.append("u", [ping(1)]);
    const { feed, out } = feedOf(log, undefined);
    await tick();
    feed.live(ping(1), 1);
    expect(out).toEqual([[1, undefined]]);
    // An unnumbered event (its log append failed) passes through as it is.
    feed.live(ping(7), undefined);
    expect(out.at(-1)).toEqual([7, undefined]);
  });
});
