// Chat turns when several nodes share one database (D-nexus-167), on SQLite and PostgreSQL: a
// second ChatService on the same database stands for another node. A node's start leaves the
// turns a live node runs alone and fails its own left-overs at once; a node that stops beating
// has its turns failed by the others once they are stale; a cancel that reaches another node is
// carried out by the turn's node on its next heartbeat.
import { describe, expect, it } from "vitest";
import { ChatService, CHAT_TURN_STALE_MS } from "../../src/chat/chat-service.js";
import type { User } from "../../src/stores/types.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { chatHarness, readEvents } from "../helpers/chat.js";

useDialectCleanup();

type Body = Record<string, unknown>;

describe.each(DIALECTS)("chat turns across nodes on $name", (d) => {
  const setup = async () => {
    const handle = await d.open();
    const ch = await chatHarness(handle);
    const user = await ch.http.developer(null, ["aps:dev"]);
    const node = (id: string) => {
      const svc = new ChatService({
        db: handle.db,
        gateway: ch.gateway,
        clock: ch.h.clock,
        logger: { log: () => {} },
        node: id,
      });
      return svc;
    };
    const call = (method: string, path: string, body?: unknown) =>
      ch.http.call(user.pat, method, path, body === undefined ? {} : { body });
    // A turn of the harness's node (`a`) that streams a little, then waits on the model.
    const stalledTurn = async () => {
      ch.fake.enqueue({ text: ["Thinking "], stall: true });
      const id = ((await call("POST", "/api/v1/chat/conversations", {})).body as Body).id as string;
      const turn = await call("POST", `/api/v1/chat/conversations/${id}/turns`, { text: "hm" });
      const turnId = (turn.body as Body).turn_id as string;
      await readEvents(`${ch.http.url}/api/v1/chat/turns/${turnId}/events`, user.pat, {
        stopAfter: (f) => f.event === "text.delta",
      });
      return { conversation: id, turnId };
    };
    const status = async (turnId: string) =>
      ((await call("GET", `/api/v1/chat/turns/${turnId}`)).body as Body).status;
    const me = { id: user.userId } as User;
    return { ...ch, handle, user, me, node, call, stalledTurn, status, a: ch.chat.service };
  };

  it.skipIf(d.skip)(
    "another node's start and heartbeat leave a live node's turn running",
    async () => {
      const { node, stalledTurn, status, a, h } = await setup();
      const { turnId } = await stalledTurn();
      const b = node("b");
      expect(await b.recoverInterrupted()).toBe(0);
      h.clock.advance(CHAT_TURN_STALE_MS - 1_000);
      expect(await a.heartbeat()).toBe(0);
      h.clock.advance(CHAT_TURN_STALE_MS - 1_000);
      // Older than the stale age since it started, but `a` has beaten since.
      expect(await b.heartbeat()).toBe(0);
      expect(await status(turnId)).toBe("running");
      await b.close();
    },
  );

  it.skipIf(d.skip)(
    "fails a silent node's turn once it is stale, with a turn.finished frame, once",
    async () => {
      const { node, handle, user, status, h, call } = await setup();
      const gone = node("gone");
      const id = ((await call("POST", "/api/v1/chat/conversations", {})).body as Body).id as string;
      const conversation = await gone.store.conversation(user.userId, id);
      if (!conversation) throw new Error(`conversation ${id} is not stored`);
      const turnId = "00000000-0000-4000-8000-0000000000aa";
      await gone.store.startTurn({
        conversation,
        turnId,
        text: "lost",
        runner: "gone",
        now: h.clock.now(),
      });
      const b = node("b");
      const c = node("c");
      expect(await b.recoverInterrupted()).toBe(0);
      h.clock.advance(CHAT_TURN_STALE_MS + 1);
      const [byB, byC] = await Promise.all([b.heartbeat(), c.heartbeat()]);
      expect(byB + byC).toBe(1);
      expect(await status(turnId)).toBe("failed");
      const frames = await handle.db
        .selectFrom("chat_turn_events")
        .select(["seq", "frame"])
        .where("turn_id", "=", turnId)
        .execute();
      expect(frames).toHaveLength(1);
      expect(JSON.parse(frames[0]!.frame)).toMatchObject({
        type: "turn.finished",
        status: "failed",
        error: { code: "server_stopped" },
      });
      await Promise.all([b.close(), c.close(), gone.close()]);
    },
  );

  it.skipIf(d.skip)("a restarted node fails the turns it left running at once", async () => {
    const { node, user, status, h, call } = await setup();
    const first = node("n2");
    const id = ((await call("POST", "/api/v1/chat/conversations", {})).body as Body).id as string;
    const conversation = await first.store.conversation(user.userId, id);
    if (!conversation) throw new Error(`conversation ${id} is not stored`);
    const turnId = "00000000-0000-4000-8000-0000000000bb";
    await first.store.startTurn({
      conversation,
      turnId,
      text: "x",
      runner: "n2",
      now: h.clock.now(),
    });
    // Another node leaves it alone (fresh heartbeat); n2's next life does not.
    expect(await node("n1").recoverInterrupted()).toBe(0);
    expect(await status(turnId)).toBe("running");
    expect(await node("n2").recoverInterrupted()).toBe(1);
    expect(await status(turnId)).toBe("failed");
  });

  it.skipIf(d.skip)(
    "a cancel on another node is carried out by the turn's node on its heartbeat",
    async () => {
      const { node, stalledTurn, status, a, me, fake } = await setup();
      const { turnId } = await stalledTurn();
      const b = node("b");
      const cancelling = b.cancel(me, turnId);
      // b asked; the turn runs until a's heartbeat.
      await new Promise((r) => setTimeout(r, 150));
      expect(await status(turnId)).toBe("running");
      await a.heartbeat();
      expect((await cancelling).status).toBe("cancelled");
      await fake.waitForStalledDisconnect();
      await b.close();
    },
  );
});
