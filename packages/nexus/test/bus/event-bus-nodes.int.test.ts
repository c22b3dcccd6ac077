// Two Nexus nodes on one database and one nats-server, each with its own NATS event bus: a
// window event produced through node A (a window.set_title over A's rpc route) reaches an app
// event stream (SSE) a browser holds on node B, once, and another user's events never do. A
// stream that drops resumes on the other node from its Last-Event-ID, and a stream whose node
// lost the bus for a while gets the events of the outage once the bus is back (D-nexus-170).
import { describe, expect, it, onTestFinished } from "vitest";
import { parseEventBusUrl } from "../../src/bus/event-bus-url.js";
import { createNatsEventBus, type EventBusHandle } from "../../src/bus/nats-event-bus.js";
import { nullLogger } from "../../src/core/logger.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { NATS_MISSING, type NatsServer, startNats } from "../helpers/nats.js";
import { runtimeServer, type RuntimeServer } from "../helpers/runtime.js";

useDialectCleanup();

const WINDOWS = "/api/v1/anna-apps/runtime/windows";
const READ_TIMEOUT_MS = 5_000;

async function bus(nats: NatsServer): Promise<EventBusHandle> {
  const handle = await createNatsEventBus({
    target: parseEventBusUrl(nats.url),
    logger: nullLogger,
  });
  onTestFinished(() => handle.close());
  return handle;
}

async function open(
  s: Pick<RuntimeServer, "http" | "appId">,
  cookie: string,
): Promise<{ window: { window_uuid: string }; token: string }> {
  const res = await s.http("POST", `${WINDOWS}?app_id=${s.appId}`, {
    cookie,
    body: { view: "main" },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { window: { window_uuid: string }; token: string };
}

/** Reads an SSE response frame by frame: `until` returns every event up to the first match. */
function sseEvents(res: Response) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  onTestFinished(() => reader.cancel());
  const ids: number[] = [];
  return {
    /** The `id:` of every event read so far. */
    ids,
    async until(match: (e: Record<string, unknown>) => boolean) {
      const seen: Record<string, unknown>[] = [];
      const deadline = Date.now() + READ_TIMEOUT_MS;
      for (;;) {
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split("\n").find((l) => l.startsWith("data: "));
          if (data === undefined) continue;
          const id = frame.split("\n").find((l) => l.startsWith("id: "));
          if (id !== undefined) ids.push(Number(id.slice(4)));
          const event = JSON.parse(data.slice(6)) as Record<string, unknown>;
          seen.push(event);
          if (match(event)) return seen;
        }
        const chunk = await Promise.race([
          reader.read(),
          new Promise<"timeout">((r) => setTimeout(() => r("timeout"), deadline - Date.now())),
        ]);
        if (chunk === "timeout" || chunk.done) {
          throw new Error(
            `no matching event within ${READ_TIMEOUT_MS} ms; saw ${JSON.stringify(seen)}`,
          );
        }
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

const titleOf = (e: Record<string, unknown>) =>
  e.kind === "title_changed" ? (e.payload as { title: string }).title : undefined;

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip || NATS_MISSING !== undefined)(
    `two Nexus nodes on ${dialect.name} and NATS${NATS_MISSING ? ` (skipped: ${NATS_MISSING})` : ""}`,
    () => {
      it("streams on node B the window events produced through node A, once each", async () => {
        const nats = await startNats();
        const [dbA, dbB] = await dialect.openShared();
        const busA = await bus(nats);
        const busB = await bus(nats);
        const a = await runtimeServer(dbA, { events: busA.bus });
        const b = await a.secondServer({ db: dbB, events: busB.bus });
        const alice = await a.user("alice@example.com");
        const bob = await a.user("bob@example.com");
        await a.install(alice.id);
        await a.install(bob.id);
        const mine = await open(a, alice.cookie);
        const his = await open(a, bob.cookie);

        const res = await b.http(
          "GET",
          `/api/v1/anna-apps/runtime/events/stream?app_id=${a.appId}`,
          {
            cookie: alice.cookie,
          },
        );
        expect(res.status).toBe(200);
        const stream = sseEvents(res);
        // B's subscription for alice is on the server before A publishes.
        await busB.flush();
        expect(busB.stats().subscriptions).toBe(1);

        const wid = mine.window.window_uuid;
        for (const [token, w, title] of [
          [his.token, his.window.window_uuid, "bob's"],
          [mine.token, wid, "first"],
          [mine.token, wid, "second"],
        ] as const) {
          const r = await a.rpc(token, w, "window", "set_title", { title });
          expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
        }
        const seen = await stream.until((e) => titleOf(e) === "second");
        expect(seen.map(titleOf).filter((t) => t !== undefined)).toEqual(["first", "second"]);
        expect(seen.every((e) => e.window_uuid === wid)).toBe(true);

        // A marker after both: had either arrived twice, the copy would come before it.
        await a.rpc(mine.token, wid, "window", "set_title", { title: "marker" });
        const rest = await stream.until((e) => titleOf(e) === "marker");
        expect(rest.map(titleOf).filter((t) => t !== undefined)).toEqual(["marker"]);
        expect(busA.stats().published).toBeGreaterThanOrEqual(4);
        expect(busB.stats().received).toBeGreaterThanOrEqual(3);
      });

      it("resumes a dropped stream on the other node from Last-Event-ID, missing nothing", async () => {
        const nats = await startNats();
        const [dbA, dbB] = await dialect.openShared();
        const busA = await bus(nats);
        const busB = await bus(nats);
        const a = await runtimeServer(dbA, { events: busA.bus });
        const b = await a.secondServer({ db: dbB, events: busB.bus });
        const alice = await a.user("alice@example.com");
        await a.install(alice.id);
        const mine = await open(a, alice.cookie);
        const wid = mine.window.window_uuid;
        const path = `/api/v1/anna-apps/runtime/events/stream?app_id=${a.appId}`;
        const title = async (t: string) =>
          expect(await a.rpc(mine.token, wid, "window", "set_title", { title: t })).toMatchObject({
            ok: true,
          });

        const onB = sseEvents(await b.http("GET", path, { cookie: alice.cookie }));
        await busB.flush();
        await title("one");
        await onB.until((e) => titleOf(e) === "one");
        const cursor = onB.ids.at(-1)!;
        expect(cursor).toBeGreaterThan(0);
        // The client drops; meanwhile the window changes twice on A.
        await title("two");
        await title("three");
        const res = await a.http("GET", path, {
          cookie: alice.cookie,
          headers: { "last-event-id": String(cursor) },
        });
        expect(res.status).toBe(200);
        const onA = sseEvents(res);
        const replay = await onA.until((e) => titleOf(e) === "three");
        expect(replay.map(titleOf)).toEqual(["two", "three"]);
        expect(onA.ids).toEqual([cursor + 1, cursor + 2]);
      });

      it("hands a stream the events published while its node was cut off from NATS", async () => {
        const nats = await startNats();
        const [dbA, dbB] = await dialect.openShared();
        const busA = await bus(nats);
        const busB = await bus(nats);
        const a = await runtimeServer(dbA, { events: busA.bus });
        const b = await a.secondServer({ db: dbB, events: busB.bus });
        const alice = await a.user("alice@example.com");
        await a.install(alice.id);
        const mine = await open(a, alice.cookie);
        const wid = mine.window.window_uuid;
        const onB = sseEvents(
          await b.http("GET", `/api/v1/anna-apps/runtime/events/stream?app_id=${a.appId}`, {
            cookie: alice.cookie,
          }),
        );
        await busB.flush();

        await nats.kill();
        await waitFor(() => busA.state() === "reconnecting" && busB.state() === "reconnecting");
        for (const t of ["during-1", "during-2"]) {
          expect(await a.rpc(mine.token, wid, "window", "set_title", { title: t })).toMatchObject({
            ok: true,
          });
        }
        await nats.restart();
        // No later event shows B the gap: the reconnect alone makes its stream read it back.
        const seen = await onB.until((e) => titleOf(e) === "during-2");
        expect(seen.map(titleOf).filter((t) => t !== undefined)).toEqual(["during-1", "during-2"]);
        expect(new Set(onB.ids).size).toBe(onB.ids.length);
      });
    },
  );
}

async function waitFor(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + READ_TIMEOUT_MS;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not so within ${READ_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
