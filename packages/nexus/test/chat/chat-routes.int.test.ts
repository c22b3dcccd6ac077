// Chat turns over real HTTP on SQLite and PostgreSQL, the model a fake OpenAI-compatible server:
// create a conversation, run a turn whose text streams as SSE frames, a tool call with a test
// AgentTool, a dropped stream resumed with Last-Event-ID (no frame lost, none twice), cancel
// mid-stream, one running turn per conversation (409), another user's things are 404, and a
// turn left running by a stopped server ends `failed` at stop or at the next start.
import type { AgentTool } from "@anna-ai/agent";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/chat-service.js";
import { manualClock } from "../../src/core/clock.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { chatHarness, gate, readEvents, type SseFrame } from "../helpers/chat.js";
import { ORIGIN } from "../helpers/harness.js";

useDialectCleanup();

type Body = Record<string, unknown>;
const code = (body: unknown) => (body as { detail: { code: string } }).detail.code;

function lookupTool(execute: AgentTool["execute"]): AgentTool {
  return {
    name: "lookup",
    description: "Looks a word up",
    parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    source: { kind: "platform", family: "test" },
    execute,
  };
}

const types = (frames: SseFrame[]) => frames.map((f) => f.event);
const ids = (frames: SseFrame[]) => frames.map((f) => f.id);

describe.each(DIALECTS)("chat turns on $name", (d) => {
  const setup = async (opts: Parameters<typeof chatHarness>[1] = {}) => {
    const handle = await d.open();
    const ch = await chatHarness(handle, opts);
    const user = await ch.http.developer(null, ["aps:dev"]);
    const as = (pat: string) => ({
      create: async (body?: unknown) =>
        ch.http.call(pat, "POST", "/api/v1/chat/conversations", { body: body ?? {} }),
      turn: (id: string, text: unknown) =>
        ch.http.call(pat, "POST", `/api/v1/chat/conversations/${id}/turns`, { body: { text } }),
      get: (path: string) => ch.http.call(pat, "GET", path),
      cancel: (turnId: string) => ch.http.call(pat, "POST", `/api/v1/chat/turns/${turnId}/cancel`),
      events: (turnId: string, opts: Parameters<typeof readEvents>[2] = {}) =>
        readEvents(`${ch.http.url}/api/v1/chat/turns/${turnId}/events`, pat, opts),
    });
    return { ...ch, handle, user, me: as(user.pat), as };
  };

  it.skipIf(d.skip)(
    "creates a conversation, streams a turn's text as numbered frames and stores the messages",
    async () => {
      const { fake, me, chat } = await setup();
      fake.enqueue({ text: ["Hel", "lo ", "there"], usage: { inputTokens: 9, outputTokens: 3 } });
      const created = await me.create();
      expect(created.status).toBe(201);
      const id = (created.body as Body).id as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);

      const started = await me.turn(id, "Say hello");
      expect(started.status).toBe(202);
      const turnId = (started.body as Body).turn_id as string;
      const read = await me.events(turnId);
      expect(read.status).toBe(200);
      expect(read.ended).toBe(true);
      expect(types(read.frames)).toEqual([
        "turn.started",
        "step.started",
        "text.delta",
        "text.delta",
        "text.delta",
        "step.finished",
        "turn.finished",
      ]);
      expect(ids(read.frames)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(
        read.frames
          .filter((f) => f.event === "text.delta")
          .map((f) => f.data.text)
          .join(""),
      ).toBe("Hello there");
      expect(read.frames[0]?.data).toEqual({
        type: "turn.started",
        turnId,
        conversationId: id,
        activatedApps: [],
      });
      expect(read.frames.at(-1)?.data).toEqual({
        type: "turn.finished",
        status: "completed",
        usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 },
      });
      expect(read.comments).toContain("connected");
      await chat.service.idle();

      // What was sent to the model: the default system prompt and the user's message.
      const sent = JSON.stringify(fake.requests[0]?.body);
      expect(sent).toContain("You are Anna");
      expect(sent).toContain("Say hello");

      const turn = await me.get(`/api/v1/chat/turns/${turnId}`);
      expect(turn.body).toMatchObject({
        status: "completed",
        error: null,
        steps: 1,
        usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 },
      });
      const conv = await me.get(`/api/v1/chat/conversations/${id}`);
      expect(conv.status).toBe(200);
      expect(conv.body).toMatchObject({
        id,
        title: "Say hello",
        running_turn_id: null,
        next_after: null,
        messages: [
          { seq: 1, turn_id: turnId, role: "user", text: "Say hello" },
          { seq: 2, turn_id: turnId, role: "assistant", text: "Hello there", tool_calls: [] },
        ],
        turns: [{ turn_id: turnId, status: "completed", error: null }],
      });

      // A second turn sees the first one's messages.
      fake.enqueue({ text: "again" });
      const second = await me.turn(id, "And again");
      await me.events((second.body as Body).turn_id as string);
      const history = (fake.requests[1]?.body as { messages: { role: string; content: unknown }[] })
        .messages;
      expect(history.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    },
  );

  it.skipIf(d.skip)("runs a tool the model calls and sends its result back", async () => {
    const calls: unknown[] = [];
    const { fake, me, user } = await setup({
      toolsFor: (u, conversation) => [
        lookupTool((input, ctx) => {
          calls.push({
            input,
            user: ctx.userId,
            conversation: ctx.conversationId,
            owner: u.id,
            conv: conversation.id,
          });
          return Promise.resolve({ output: { meaning: "a greeting" } });
        }),
      ],
    });
    fake.enqueue(
      { toolCalls: [{ id: "call_1", name: "lookup", args: { word: "hello" } }] },
      { text: "It means a greeting." },
    );
    const id = ((await me.create()).body as Body).id as string;
    const turnId = ((await me.turn(id, "What does hello mean?")).body as Body).turn_id as string;
    const read = await me.events(turnId);
    expect(types(read.frames)).toEqual([
      "turn.started",
      "step.started",
      "step.finished",
      "tool.call",
      "tool.result",
      "step.started",
      "text.delta",
      "step.finished",
      "turn.finished",
    ]);
    expect(read.frames[3]?.data).toMatchObject({
      callId: "call_1",
      name: "lookup",
      input: { word: "hello" },
    });
    expect(read.frames[4]?.data).toMatchObject({
      callId: "call_1",
      output: { meaning: "a greeting" },
      isError: false,
    });
    expect(calls).toEqual([
      {
        input: { word: "hello" },
        user: String(user.userId),
        conversation: id,
        owner: user.userId,
        conv: id,
      },
    ]);
    const declared = (fake.requests[0]?.body as { tools: { function: { name: string } }[] }).tools;
    expect(declared.map((t) => t.function.name)).toEqual(["lookup"]);
    const conv = (await me.get(`/api/v1/chat/conversations/${id}`)).body as { messages: Body[] };
    expect(conv.messages).toMatchObject([
      { role: "user" },
      {
        role: "assistant",
        text: "",
        tool_calls: [{ id: "call_1", name: "lookup", input: { word: "hello" } }],
      },
      {
        role: "tool",
        tool_call_id: "call_1",
        tool_name: "lookup",
        output: { meaning: "a greeting" },
        is_error: false,
      },
      { role: "assistant", text: "It means a greeting." },
    ]);
  });

  it.skipIf(d.skip)(
    "resumes a dropped stream with Last-Event-ID (or ?after=) losing no frame and repeating none",
    async () => {
      const release = gate<{ output: unknown }>();
      const { fake, me } = await setup({ toolsFor: () => [lookupTool(() => release.promise)] });
      fake.enqueue(
        {
          text: ["Let me ", "look."],
          toolCalls: [{ id: "call_r", name: "lookup", args: { word: "x" } }],
        },
        { text: ["Found ", "it", "."] },
      );
      const id = ((await me.create()).body as Body).id as string;
      const turnId = ((await me.turn(id, "look it up")).body as Body).turn_id as string;

      // The client hangs up once the tool is called; the turn keeps running without it.
      const first = await me.events(turnId, { stopAfter: (f) => f.event === "tool.call" });
      expect(first.ended).toBe(false);
      expect(first.frames.at(-1)?.event).toBe("tool.call");
      release.open({ output: "the answer" });
      const last = String(first.frames.at(-1)?.id);
      const resumed = await me.events(turnId, { lastEventId: last });
      expect(resumed.ended).toBe(true);
      const all = [...first.frames, ...resumed.frames];
      expect(ids(all)).toEqual(all.map((_, i) => i + 1));
      expect(resumed.frames[0]?.event).toBe("tool.result");
      expect(all.at(-1)?.data).toMatchObject({ type: "turn.finished", status: "completed" });

      // A full replay is the same frames; ?after= resumes the same way as the header.
      const replay = await me.events(turnId);
      expect(replay.frames).toEqual(all);
      const viaQuery = await me.events(turnId, { after: last });
      expect(viaQuery.frames).toEqual(resumed.frames);
      const bad = await me.events(turnId, { lastEventId: "soon" });
      expect(bad.status).toBe(400);
    },
  );

  it.skipIf(d.skip)(
    "cancels a turn mid-stream: the model's stream closes and the turn ends cancelled",
    async () => {
      const { fake, me, chat } = await setup();
      fake.enqueue({ text: ["Once upon "], stall: true });
      const id = ((await me.create()).body as Body).id as string;
      const turnId = ((await me.turn(id, "tell a long story")).body as Body).turn_id as string;
      const seen = await me.events(turnId, { stopAfter: (f) => f.event === "text.delta" });
      expect(seen.frames.at(-1)?.data).toEqual({ type: "text.delta", text: "Once upon " });

      // An idle stream gets heartbeats (comment lines), not frames.
      const idle = await me.events(turnId, {
        after: String(seen.frames.at(-1)?.id),
        untilComment: "keepalive",
      });
      expect(idle.comments).toContain("keepalive");
      expect(idle.frames).toEqual([]);

      // A second turn while this one runs is refused.
      const busy = await me.turn(id, "hurry");
      expect(busy.status).toBe(409);
      expect(busy.body).toMatchObject({ detail: { code: "turn_running", turn_id: turnId } });

      const cancelled = await me.cancel(turnId);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ turn_id: turnId, status: "cancelled", error: null });
      await fake.waitForStalledDisconnect();
      const rest = await me.events(turnId, { lastEventId: String(seen.frames.at(-1)?.id) });
      expect(types(rest.frames)).toEqual(["turn.finished"]);
      expect(rest.frames[0]?.data).toMatchObject({ status: "cancelled" });
      // Cancelling again answers the same, and the partial text is kept.
      expect((await me.cancel(turnId)).body).toMatchObject({ status: "cancelled" });
      const conv = (await me.get(`/api/v1/chat/conversations/${id}`)).body as {
        messages: Body[];
        turns: Body[];
      };
      expect(conv.messages.map((m) => [m.role, m.text])).toEqual([
        ["user", "tell a long story"],
        ["assistant", "Once upon "],
      ]);
      // The partial answer looks like a finished one; the turn's status beside it says not.
      expect(conv.turns).toEqual([{ turn_id: turnId, status: "cancelled", error: null }]);
      await chat.service.idle();
      // The conversation takes a new turn once the old one ended.
      fake.enqueue({ text: "ok" });
      expect((await me.turn(id, "short then")).status).toBe(202);
    },
  );

  it.skipIf(d.skip)(
    "answers 404 for another user's conversation and turn, 401 without sign-in, 400 for bad input",
    async () => {
      const { fake, me, as, http } = await setup();
      fake.enqueue({ text: "mine" });
      const id = ((await me.create({ title: "private" })).body as Body).id as string;
      const turnId = ((await me.turn(id, "secret")).body as Body).turn_id as string;
      await me.events(turnId);
      const mallory = as((await http.developer(null, ["aps:dev"])).pat);
      expect((await mallory.get(`/api/v1/chat/conversations/${id}`)).status).toBe(404);
      expect((await mallory.turn(id, "hi")).status).toBe(404);
      expect((await mallory.get(`/api/v1/chat/turns/${turnId}`)).status).toBe(404);
      expect((await mallory.cancel(turnId)).status).toBe(404);
      expect((await mallory.events(turnId)).status).toBe(404);
      expect(((await mallory.get("/api/v1/chat/conversations")).body as Body).items).toEqual([]);

      const anon = await fetch(`${http.url}/api/v1/chat/conversations`);
      expect(anon.status).toBe(401);
      const empty = await me.turn(id, "   ");
      expect(empty.status).toBe(400);
      expect(code(empty.body)).toBe("validation_failed");
      expect((await me.turn(id, 42)).status).toBe(400);
      expect((await me.turn(id, "x".repeat(32_001))).status).toBe(400);
      const noScope = as((await http.developer(null, ["executas:publish"])).pat);
      expect(code((await noScope.create()).body)).toBe("missing_scope");
    },
  );

  it.skipIf(d.skip)("stops a turn that streams more frames than one turn may store", async () => {
    const { fake, me, chat } = await setup({ maxFramesPerTurn: 5 });
    fake.enqueue({ text: Array.from({ length: 50 }, (_, i) => `w${i} `) });
    const id = ((await me.create()).body as Body).id as string;
    const turnId = ((await me.turn(id, "talk a lot")).body as Body).turn_id as string;
    const read = await me.events(turnId);
    expect(ids(read.frames)).toEqual([1, 2, 3, 4, 5]);
    expect(read.frames.at(-1)?.data).toMatchObject({
      type: "turn.finished",
      status: "failed",
      error: { code: "frame_limit", message: expect.stringContaining("5 events") },
    });
    await chat.service.idle();
    expect((await me.get(`/api/v1/chat/turns/${turnId}`)).body).toMatchObject({ status: "failed" });
  });

  it.skipIf(d.skip)(
    "limits the turns one user runs at once (429) and takes cookie writes from its own origin only",
    async () => {
      const { fake, me, h } = await setup({ maxRunningTurnsPerUser: 1 });
      fake.enqueue({ text: ["slow "], stall: true });
      const a = ((await me.create()).body as Body).id as string;
      const b = ((await me.create()).body as Body).id as string;
      const running = ((await me.turn(a, "first")).body as Body).turn_id as string;
      const refused = await me.turn(b, "second");
      expect(refused.status).toBe(429);
      expect(code(refused.body)).toBe("rate_limited");
      await me.cancel(running);
      fake.enqueue({ text: "now" });
      expect((await me.turn(b, "second")).status).toBe(202);

      const cookie = await h.signup("browser@example.com");
      const evil = await h.req("POST", "/api/v1/chat/conversations", {
        cookie,
        body: {},
        headers: { origin: "https://evil.example" },
      });
      expect(evil.status).toBe(403);
      const own = await h.req("POST", "/api/v1/chat/conversations", {
        cookie,
        body: {},
        headers: { origin: ORIGIN },
      });
      expect(own.status).toBe(201);
    },
  );

  it.skipIf(d.skip)("pages conversations newest first with a cursor", async () => {
    const { me, h } = await setup();
    const made: string[] = [];
    for (const title of ["one", "two", "three"]) {
      made.push(((await me.create({ title })).body as Body).id as string);
      h.clock.advance(1_000);
    }
    const first = (await me.get("/api/v1/chat/conversations?limit=2")).body as {
      items: Body[];
      next_cursor: string;
    };
    expect(first.items.map((c) => c.title)).toEqual(["three", "two"]);
    const second = (await me.get(`/api/v1/chat/conversations?limit=2&cursor=${first.next_cursor}`))
      .body as Body;
    expect(second).toMatchObject({ items: [{ id: made[0], title: "one" }], next_cursor: null });
    expect((await me.get("/api/v1/chat/conversations?cursor=nope")).status).toBe(400);
    expect((await me.get("/api/v1/chat/conversations?limit=0")).status).toBe(400);
  });

  it.skipIf(d.skip)(
    "ends running turns failed when the server stops, and recovers left-over ones at start",
    async () => {
      const { fake, me, chat, handle, gateway, user } = await setup();
      fake.enqueue({ text: ["Thinking "], stall: true });
      const id = ((await me.create()).body as Body).id as string;
      const turnId = ((await me.turn(id, "think")).body as Body).turn_id as string;
      await me.events(turnId, { stopAfter: (f) => f.event === "text.delta" });
      await chat.close();
      const stopped = (await me.get(`/api/v1/chat/turns/${turnId}`)).body;
      expect(stopped).toMatchObject({ status: "failed", error: { code: "server_stopped" } });

      // A turn a crashed server left `running` (no runner holds it) is failed at the next start.
      const other = ((await me.create()).body as Body).id as string;
      const svc = new ChatService({
        db: handle.db,
        gateway,
        clock: manualClock(),
        logger: { log: () => {} },
      });
      const conversation = await svc.store.conversation(user.userId, other);
      if (!conversation) throw new Error(`conversation ${other} is not stored`);
      expect(
        await svc.store.startTurn({
          conversation,
          turnId: "00000000-0000-4000-8000-000000000001",
          text: "orphan",
          now: 1,
        }),
      ).toBe("started");
      expect(await svc.recoverInterrupted()).toBe(1);
      const orphan = await me.get("/api/v1/chat/turns/00000000-0000-4000-8000-000000000001");
      expect(orphan.body).toMatchObject({
        status: "failed",
        error: {
          code: "server_stopped",
          message: expect.stringContaining("send your message again"),
        },
      });
      const frames = await me.events("00000000-0000-4000-8000-000000000001");
      expect(frames.frames.map((f) => f.data)).toEqual([
        expect.objectContaining({ type: "turn.finished", status: "failed" }),
      ]);
    },
  );
});
