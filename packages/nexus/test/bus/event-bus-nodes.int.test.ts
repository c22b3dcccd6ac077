// Two Nexus nodes on one database and one nats-server, each with its own NATS event bus: a
// window event produced through node A (a window.set_title over A's rpc route) reaches an app
// event stream (SSE) a browser holds on node B, once, and another user's events never do.
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
  return {
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
    },
  );
}
