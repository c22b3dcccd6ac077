// The NATS event bus between two "nodes" (two buses, two connections) on a real nats-server:
// delivery across nodes exactly once, the app/window filters, one NATS subscription per user
// and none after the last listener, users kept apart whatever their ids hold, the payload cap,
// malformed messages, and a server restart.
import { makeEvent } from "@anna-ai/app-core";
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { connect } from "@nats-io/transport-node";
import { describe, expect, it, onTestFinished } from "vitest";
import { userSubject } from "../../src/bus/event-bus-subject.js";
import { parseEventBusUrl } from "../../src/bus/event-bus-url.js";
import {
  createNatsEventBus,
  EventBusConnectError,
  type EventBusHandle,
} from "../../src/bus/nats-event-bus.js";
import { jsonLogger, type Logger } from "../../src/core/logger.js";
import { freePort } from "../helpers/postgres.js";
import { NATS_MISSING, type NatsServer, startNats } from "../helpers/nats.js";

const NOW = Date.UTC(2026, 0, 1);
const WAIT_MS = 5_000;

function titled(wid: string, appId = "app-1", title = wid): AnnaAppEvent {
  return makeEvent(
    "title_changed",
    { windowUuid: wid, appId, versionId: "v1", conversationSessionUuid: null },
    { title },
    NOW,
  );
}

/** A logger whose lines a test can await (the bus reports its connection by logging). */
function watchedLogger(): Logger & { lines: string[]; next(msg: string): Promise<void> } {
  const lines: string[] = [];
  const waiters: { msg: string; resolve: () => void }[] = [];
  const inner = jsonLogger((l) => lines.push(l), { now: () => 0 }, "debug");
  return {
    lines,
    log(level, msg, fields) {
      inner.log(level, msg, fields);
      for (const w of waiters.filter((w) => w.msg === msg)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    next: (msg) =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`no '${msg}' log within ${WAIT_MS} ms`)),
          WAIT_MS,
        );
        waiters.push({ msg, resolve: () => (clearTimeout(t), resolve()) });
      }),
  };
}

async function node(
  nats: NatsServer,
  name: string,
  logger: Logger = watchedLogger(),
): Promise<EventBusHandle> {
  const handle = await createNatsEventBus({
    target: parseEventBusUrl(nats.url),
    logger,
    name,
    reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
  });
  onTestFinished(() => handle.close());
  return handle;
}

/** Every event `from` published before this has reached `to` (or was never going to). */
async function settle(from: EventBusHandle, to: EventBusHandle): Promise<void> {
  await from.flush();
  await to.flush();
}

interface Connz {
  connections: {
    name?: string;
    out_msgs: number;
    subscriptions_list?: string[];
  }[];
}

async function connection(nats: NatsServer, name: string) {
  const connz = await nats.monitor<Connz>("/connz?subs=1");
  const c = connz.connections.find((x) => x.name === name);
  if (c === undefined) throw new Error(`no connection named ${name} in ${JSON.stringify(connz)}`);
  return { outMsgs: c.out_msgs, subjects: c.subscriptions_list ?? [] };
}

describe.skipIf(NATS_MISSING !== undefined)(
  `NATS event bus${NATS_MISSING ? ` (skipped: ${NATS_MISSING})` : ""}`,
  () => {
    it("delivers an event published on node A once to each matching listener on A and B", async () => {
      const nats = await startNats();
      const a = await node(nats, "node-a");
      const b = await node(nats, "node-b");
      const onA: AnnaAppEvent[] = [];
      const all: AnnaAppEvent[] = [];
      const w1: AnnaAppEvent[] = [];
      const app2: AnnaAppEvent[] = [];
      a.bus.subscribe({ userId: "alice" }, (e) => onA.push(e));
      b.bus.subscribe({ userId: "alice" }, (e) => all.push(e));
      b.bus.subscribe({ userId: "alice", appId: "app-1", windowUuid: "w1" }, (e) => w1.push(e));
      b.bus.subscribe({ userId: "alice", appId: "app-2" }, (e) => app2.push(e));
      await b.flush();

      a.bus.publish("alice", titled("w1"));
      a.bus.publish("alice", titled("w2"));
      a.bus.publish("alice", makeEvent("anna_app_tools_changed", { appId: "app-1" }, {}, NOW));
      a.bus.publish("alice", titled("w9", "app-2"));
      await settle(a, b);

      const kinds = (es: AnnaAppEvent[]) => es.map((e) => `${e.kind}:${e.window_uuid ?? "-"}`);
      const everything = [
        "title_changed:w1",
        "title_changed:w2",
        "anna_app_tools_changed:-",
        "title_changed:w9",
      ];
      // noEcho: A's listener got its own events in process, and not a second time from NATS.
      expect(kinds(onA)).toEqual(everything);
      expect(kinds(all)).toEqual(everything);
      expect(kinds(w1)).toEqual(["title_changed:w1", "anna_app_tools_changed:-"]);
      expect(kinds(app2)).toEqual(["title_changed:w9"]);
      expect(all[0]).toEqual(titled("w1"));
      expect(a.stats()).toMatchObject({ published: 4, received: 0 });
      expect(b.stats()).toMatchObject({ published: 0, received: 4, subscriptions: 1 });
    });

    it("never hands a user's events to another user, whatever the ids hold", async () => {
      const nats = await startNats();
      const a = await node(nats, "node-a");
      const b = await node(nats, "node-b");
      // Ids that would be wildcards or extra tokens in a raw subject.
      const ids = ["42", "4.2", "*", ">", "a b", ""];
      const got = new Map<string, string[]>(ids.map((id) => [id, []]));
      for (const id of ids) {
        b.bus.subscribe({ userId: id }, (e) =>
          got.get(id)!.push((e.payload as { title: string }).title),
        );
      }
      await b.flush();
      for (const id of ids) a.bus.publish(id, titled("w", "app-1", `for ${JSON.stringify(id)}`));
      await settle(a, b);
      for (const id of ids) expect(got.get(id)).toEqual([`for ${JSON.stringify(id)}`]);
      const { subjects } = await connection(nats, "node-b");
      expect(subjects.sort()).toEqual(ids.map((id) => userSubject("anna.events", id)).sort());
    });

    it("holds one NATS subscription per user and drops it with the last listener", async () => {
      const nats = await startNats();
      const a = await node(nats, "node-a");
      const b = await node(nats, "node-b");
      const seen: AnnaAppEvent[] = [];
      const first = b.bus.subscribe({ userId: "alice", appId: "app-1" }, (e) => seen.push(e));
      const second = b.bus.subscribe({ userId: "alice", windowUuid: "w1" }, (e) => seen.push(e));
      await b.flush();
      expect(b.stats().subscriptions).toBe(1);
      expect((await connection(nats, "node-b")).subjects).toEqual([
        userSubject("anna.events", "alice"),
      ]);

      first();
      first(); // a second call changes nothing
      await b.flush();
      expect((await connection(nats, "node-b")).subjects).toHaveLength(1);
      a.bus.publish("alice", titled("w1"));
      await settle(a, b);
      expect(seen).toHaveLength(1);

      second();
      await b.flush();
      expect(b.stats().subscriptions).toBe(0);
      const before = await connection(nats, "node-b");
      expect(before.subjects).toEqual([]);
      a.bus.publish("alice", titled("w1"));
      await settle(a, b);
      // The server sent B nothing: no subscription, no traffic.
      expect((await connection(nats, "node-b")).outMsgs).toBe(before.outMsgs);
      expect(seen).toHaveLength(1);
      expect(b.stats().received).toBe(1);
    });

    it("streams another node's events and lets go of the subscription when aborted", async () => {
      const nats = await startNats();
      const a = await node(nats, "node-a");
      const b = await node(nats, "node-b");
      const abort = new AbortController();
      const iterator = b.bus
        .stream({ userId: "alice", windowUuid: "w1" }, { signal: abort.signal })
        [Symbol.asyncIterator]();
      await b.flush();
      a.bus.publish("alice", titled("w2"));
      a.bus.publish("alice", titled("w1"));
      const first = await iterator.next();
      expect(first.value).toMatchObject({ kind: "title_changed", window_uuid: "w1" });
      abort.abort();
      expect(await iterator.next()).toEqual({ value: undefined, done: true });
      await b.flush();
      expect(b.stats().subscriptions).toBe(0);
    });

    it("keeps events over max_payload on their node, logs the sizes, and never throws", async () => {
      const nats = await startNats({ maxPayloadBytes: 4096 });
      const logger = watchedLogger();
      const a = await node(nats, "node-a", logger);
      const b = await node(nats, "node-b");
      const onA: AnnaAppEvent[] = [];
      const onB: AnnaAppEvent[] = [];
      a.bus.subscribe({ userId: "alice" }, (e) => onA.push(e));
      b.bus.subscribe({ userId: "alice" }, (e) => onB.push(e));
      await b.flush();
      expect(() => a.bus.publish("alice", titled("big", "app-1", "x".repeat(5000)))).not.toThrow();
      a.bus.publish("alice", titled("small"));
      await settle(a, b);
      expect(onA.map((e) => e.window_uuid)).toEqual(["big", "small"]);
      expect(onB.map((e) => e.window_uuid)).toEqual(["small"]);
      expect(a.stats().dropped.too_large).toBe(1);
      const line = logger.lines.find((l) => l.includes("larger than the event bus takes"));
      expect(JSON.parse(line!)).toMatchObject({
        level: "error",
        kind: "title_changed",
        max_payload_bytes: 4096,
      });
      expect((JSON.parse(line!) as { bytes: number }).bytes).toBeGreaterThan(5000);
    });

    it("drops a message that is not an event, logs it, and delivers the next one", async () => {
      const nats = await startNats();
      const logger = watchedLogger();
      const b = await node(nats, "node-b", logger);
      const seen: AnnaAppEvent[] = [];
      b.bus.subscribe({ userId: "alice" }, (e) => seen.push(e));
      await b.flush();
      const raw = await connect({ servers: nats.url.replace("nats://", "") });
      onTestFinished(() => raw.close());
      const subject = userSubject("anna.events", "alice");
      raw.publish(subject, "not json");
      raw.publish(subject, JSON.stringify({ kind: "title_changed", payload: {} }));
      raw.publish(subject, JSON.stringify(titled("w1")));
      await raw.flush();
      await b.flush();
      expect(seen.map((e) => e.window_uuid)).toEqual(["w1"]);
      expect(b.stats().malformed).toBe(2);
      expect(logger.lines.filter((l) => l.includes("dropped"))).toHaveLength(2);
    });

    it("reconnects after nats-server restarts; events published while it was down stay local", async () => {
      const nats = await startNats();
      const logA = watchedLogger();
      const logB = watchedLogger();
      const a = await node(nats, "node-a", logA);
      const b = await node(nats, "node-b", logB);
      const onA: AnnaAppEvent[] = [];
      const onB: AnnaAppEvent[] = [];
      a.bus.subscribe({ userId: "alice" }, (e) => onA.push(e));
      b.bus.subscribe({ userId: "alice" }, (e) => onB.push(e));
      await b.flush();
      a.bus.publish("alice", titled("before"));
      await settle(a, b);

      const downA = logA.next("event bus disconnected; reconnecting");
      const downB = logB.next("event bus disconnected; reconnecting");
      await nats.kill();
      await Promise.all([downA, downB]);
      expect(a.state()).toBe("reconnecting");
      expect(() => a.bus.publish("alice", titled("during"))).not.toThrow();

      const upA = logA.next("event bus reconnected");
      const upB = logB.next("event bus reconnected");
      await nats.restart();
      await Promise.all([upA, upB]);
      expect([a.state(), b.state()]).toEqual(["ok", "ok"]);
      // B's subscription was sent again on reconnect; the round trip makes sure it is in place.
      await b.flush();
      a.bus.publish("alice", titled("after"));
      await settle(a, b);

      expect(onA.map((e) => e.window_uuid)).toEqual(["before", "during", "after"]);
      expect(onB.map((e) => e.window_uuid)).toEqual(["before", "after"]);
      expect(a.stats().dropped.disconnected).toBe(1);
      const up = logA.lines.find((l) => l.includes("event bus reconnected"));
      expect(JSON.parse(up!)).toMatchObject({ events_not_sent: 1 });
    });

    it("fails to start with a message naming the servers when nothing listens there", async () => {
      const port = await freePort();
      const err = await createNatsEventBus({
        target: parseEventBusUrl(`nats://127.0.0.1:${port}`),
        logger: watchedLogger(),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EventBusConnectError);
      expect((err as Error).message).toContain(`cannot connect to nats://127.0.0.1:${port}`);
    });
  },
);
