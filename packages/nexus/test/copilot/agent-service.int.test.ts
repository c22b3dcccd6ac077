// The server's AgentService (plugins' `agent/session.*`, `agent/complete`) on SQLite and
// PostgreSQL, its model a fake OpenAI-compatible provider over HTTP and, once, the offline model:
// the session lifecycle with the dev tools' codes, frames in order, history replayed and paged,
// cancel mid-run, the frame cap, the in-flight and token limits, usage per (user, app, tool),
// and isolation between users and between executas.
import type { AgentGrant, ServiceContext } from "@anna-ai/executa-host";
import type { LlmGateway } from "@anna-ai/agent";
import { parseLlmConfig } from "@anna-ai/agent";
import { RpcError } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import { AgentRuns } from "../../src/copilot/agent-runs.js";
import { copilotAgentService } from "../../src/copilot/agent-service.js";
import { openCopilot } from "../../src/copilot/copilot-services.js";
import { resolveConfig } from "../../src/core/config.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { type CopilotHttp, copilotHttp, MODEL } from "./copilot-harness.js";

useDialectCleanup();

type Ctx = ServiceContext<AgentGrant>;

const NOTES_TOOL = "tool-notes-00000001";
const OTHER_TOOL = "tool-other-00000002";

function pluginCtx(userId: number, toolId = NOTES_TOOL, over: Partial<Ctx> = {}): Ctx {
  return {
    userId: String(userId),
    toolId,
    invokeId: "inv_1",
    pluginName: "Notes",
    tool: "ask",
    deadlineMs: Number.POSITIVE_INFINITY,
    signal: new AbortController().signal,
    grant: {},
    app: { appId: "notes-app", appScopeGranted: false },
    ...over,
  };
}

/** The wire error a call rejected with: its code, errorCode and message. */
async function rpcError(
  call: Promise<unknown>,
): Promise<{ code: number; errorCode: unknown; message: string }> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RpcError)) throw new Error(`expected an RpcError, got ${String(err)}`);
  return {
    code: err.code,
    errorCode: (err.data as Record<string, unknown> | undefined)?.["errorCode"],
    message: err.message,
  };
}

/** The real gateway, with a promise that resolves once a run's first text delta came back. */
function observed(gateway: LlmGateway): { gateway: LlmGateway; firstDelta: Promise<void> } {
  let seen!: () => void;
  const firstDelta = new Promise<void>((r) => (seen = r));
  return {
    firstDelta,
    gateway: {
      modelFor: (p) => gateway.modelFor(p),
      complete: (r, o) => gateway.complete(r, o),
      embed: (r, o) => gateway.embed(r, o),
      generateImage: (r, o) => gateway.generateImage(r, o),
      editImage: (r, o) => gateway.editImage(r, o),
      async *streamChat(request, options) {
        for await (const event of gateway.streamChat(request, options)) {
          yield event;
          if (event.type === "text-delta") seen();
        }
      },
    },
  };
}

function service(
  t: CopilotHttp,
  over: Partial<Parameters<typeof copilotAgentService>[0]> = {},
  maxFramesPerRun?: number,
) {
  return copilotAgentService(
    { ...t.copilot, clock: () => t.h.clock.now(), ...over },
    { origin: "sampling", ...(maxFramesPerRun ? { maxFramesPerRun } : {}) },
  );
}

const events = (frames: readonly { event: string }[]) => frames.map((f) => f.event);

describe.each(DIALECTS)("the server's agent service on $name", (d) => {
  it.skipIf(d.skip)(
    "create, run, history, list and delete: frames in order, history replayed, usage per user, app and tool",
    async () => {
      const t = await copilotHttp(await d.open());
      const agent = t.copilot.agent;
      const alice = await t.person();
      const ctx = pluginCtx(alice.userId);
      const created = await agent.sessionCreate(
        { agent_submode: "auto", system_prompt: "Be brief." },
        ctx,
      );
      expect(created).toMatchObject({
        agent_submode: "auto",
        granted_tools: ["*"],
        expires_in: 600,
        label: "Notes",
      });
      expect(created.app_session_uuid).toMatch(/^aps_[0-9a-f]{32}$/);
      expect(created.thread_id).toBe(created.app_session_uuid);
      const uuid = created.app_session_uuid;

      t.fake.enqueue({ text: ["Hello ", "there"], usage: { inputTokens: 9, outputTokens: 2 } });
      const run = await agent.sessionRun(
        { app_session_uuid: uuid, content: "Greet me", run_id: "run_mine" },
        ctx,
      );
      expect(run.run_id).toBe("run_mine");
      expect(events(run.frames)).toEqual(["run_meta", "delta", "delta", "final", "complete"]);
      expect(run.frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4]);
      const streamId = (run as { stream_id?: string }).stream_id;
      expect(streamId).toMatch(/^strm_/);
      expect(run.frames.every((f) => f.stream_id === streamId)).toBe(true);
      expect(run.frames[0]).toMatchObject({
        run_id: "run_mine",
        thread_id: uuid,
        model: MODEL,
        recursion_limit: 8,
      });
      expect(run.frames[3]).toMatchObject({
        text: "Hello there",
        usage: { inputTokens: 9, outputTokens: 2 },
      });
      expect(run.final).toBe("Hello there");
      expect(t.fake.requests.at(-1)?.body).toMatchObject({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Greet me" },
        ],
      });

      // The next run replays the conversation; a per-run `system` replaces the session's.
      t.fake.enqueue({ text: "Again" });
      const second = await agent.sessionRun(
        { app_session_uuid: uuid, content: "Once more", system: "Shout." },
        ctx,
      );
      expect(second.run_id).toMatch(/^run_[0-9a-f]{16}$/);
      expect(t.fake.requests.at(-1)?.body).toMatchObject({
        messages: [
          { role: "system", content: "Shout." },
          { role: "user", content: "Greet me" },
          { role: "assistant", content: "Hello there" },
          { role: "user", content: "Once more" },
        ],
      });

      const page1 = await agent.sessionHistory({ app_session_uuid: uuid, limit: 3 }, ctx);
      expect(page1.messages.map((m) => [m.role, (m.content as { text: string }).text])).toEqual([
        ["user", "Greet me"],
        ["assistant", "Hello there"],
        ["user", "Once more"],
      ]);
      expect(page1.next_cursor).toEqual(expect.any(String));
      const page2 = await agent.sessionHistory(
        { app_session_uuid: uuid, limit: 3, cursor: page1.next_cursor },
        ctx,
      );
      expect(page2.messages.map((m) => (m.content as { text: string }).text)).toEqual(["Again"]);
      expect(page2.next_cursor).toBeNull();
      expect(
        await rpcError(agent.sessionHistory({ app_session_uuid: uuid, limit: 201 }, ctx)),
      ).toMatchObject({
        code: -32043,
        errorCode: "AGENT_INVALID_REQUEST",
      });
      expect(
        await rpcError(agent.sessionHistory({ app_session_uuid: uuid, cursor: "not-ours" }, ctx)),
      ).toMatchObject({
        code: -32043,
        message: expect.stringMatching(/pass next_cursor verbatim/),
      });

      const listed = await agent.sessionList({}, ctx);
      expect(listed.sessions).toHaveLength(1);
      expect(listed.sessions[0]).toMatchObject({
        app_session_uuid: uuid,
        submode: "auto",
        label: "Notes",
        expired: false,
      });

      const usage = await t.copilot.db
        .selectFrom("llm_usage")
        .select(["user_id", "app_id", "tool_id", "purpose", "model", "input_tokens"])
        .orderBy("id")
        .execute();
      expect(usage).toEqual([
        {
          user_id: String(alice.userId),
          app_id: "notes-app",
          tool_id: NOTES_TOOL,
          purpose: "agent",
          model: MODEL,
          input_tokens: 9,
        },
        expect.objectContaining({
          user_id: String(alice.userId),
          app_id: "notes-app",
          tool_id: NOTES_TOOL,
          purpose: "agent",
        }),
      ]);

      // Delete drops the session and its history, and is idempotent.
      expect(await agent.sessionDelete({ app_session_uuid: uuid }, ctx)).toEqual({ deleted: true });
      expect(await agent.sessionDelete({ app_session_uuid: uuid }, ctx)).toEqual({ deleted: true });
      expect(await agent.sessionDelete({ app_session_uuid: "aps_never" }, ctx)).toEqual({
        deleted: true,
      });
      expect(
        await rpcError(agent.sessionRun({ app_session_uuid: uuid, content: "hi" }, ctx)),
      ).toMatchObject({
        code: -32042,
        errorCode: "AGENT_SESSION_NOT_FOUND",
        message: expect.stringMatching(/create a new one with agent\/session.create/),
      });
      expect((await agent.sessionList({ include_expired: true }, ctx)).sessions).toEqual([]);
      expect(await t.copilot.db.selectFrom("copilot_messages").selectAll().execute()).toEqual([]);
    },
  );

  it.skipIf(d.skip)(
    "refuses with the dev tools' codes: bad params, unknown sessions, fixed clients not granted, a complete session",
    async () => {
      const t = await copilotHttp(await d.open());
      const agent = t.copilot.agent;
      const alice = await t.person();
      const ctx = pluginCtx(alice.userId);
      expect(
        await rpcError(
          agent.sessionCreate({ agent_submode: "fixed", fixed_client_id: "desktop" }, ctx),
        ),
      ).toMatchObject({
        code: -32041,
        errorCode: "AGENT_NOT_GRANTED",
        message: expect.stringMatching(
          /fixed_client_id 'desktop' is not in the user's allowed fixed clients/,
        ),
      });
      const fixed = await agent.sessionCreate(
        { agent_submode: "fixed", fixed_client_id: "desktop" },
        { ...ctx, grant: { allowedFixedClientIds: ["desktop"] } },
      );
      expect(fixed).toMatchObject({ agent_submode: "fixed", fixed_client_id: "desktop" });
      expect(
        await rpcError(agent.sessionCreate({ kind: "fixed", agent_submode: "auto" }, ctx)),
      ).toMatchObject({ code: -32044 });
      expect(await rpcError(agent.sessionCreate({ ttl_seconds: 7201 }, ctx))).toMatchObject({
        code: -32046,
        message: expect.stringMatching(/ttl_seconds.*7200/),
      });
      expect(await rpcError(agent.sessionCreate({ label: "x".repeat(121) }, ctx))).toMatchObject({
        code: -32046,
      });

      const s = await agent.sessionCreate({}, ctx);
      const uuid = s.app_session_uuid;
      expect(
        await rpcError(agent.sessionRun({ app_session_uuid: uuid, content: "   " }, ctx)),
      ).toMatchObject({ code: -32043 });
      expect(
        await rpcError(
          agent.sessionRun({ app_session_uuid: uuid, content: "x".repeat(32_001) }, ctx),
        ),
      ).toMatchObject({
        code: -32043,
        message: expect.stringMatching(/at most 32000/),
      });
      expect(
        await rpcError(
          agent.sessionRun({ app_session_uuid: uuid, content: "hi", recursion_limit: 33 }, ctx),
        ),
      ).toMatchObject({
        code: -32046,
      });
      for (const call of [
        () => agent.sessionRun({ app_session_uuid: "aps_0123", content: "hi" }, ctx),
        () => agent.sessionCancel({ app_session_uuid: "aps_0123", run_id: "r" }, ctx),
        () => agent.sessionHistory({ app_session_uuid: "aps_0123" }, ctx),
        () => agent.sessionRefresh({ app_session_uuid: "aps_0123" }, ctx),
      ]) {
        expect(await rpcError(call())).toMatchObject({
          code: -32042,
          errorCode: "AGENT_SESSION_NOT_FOUND",
        });
      }
      // A finished run cannot be cancelled; an unknown one is said to be unknown.
      t.fake.enqueue({ text: "done" });
      const run = await agent.sessionRun({ app_session_uuid: uuid, content: "hi" }, ctx);
      expect(
        await agent.sessionCancel({ app_session_uuid: uuid, run_id: run.run_id }, ctx),
      ).toEqual({
        cancelled: false,
        run_id: run.run_id,
        status: "finished",
      });
      expect(
        await agent.sessionCancel({ app_session_uuid: uuid, run_id: "run_none" }, ctx),
      ).toMatchObject({
        cancelled: false,
        status: "unknown_run",
      });

      const complete = await agent.sessionCreate({ kind: "complete" }, ctx);
      expect(
        await rpcError(
          agent.sessionRun({ app_session_uuid: complete.app_session_uuid, content: "hi" }, ctx),
        ),
      ).toMatchObject({
        code: -32043,
        message: expect.stringMatching(/'complete' session/),
      });

      // Expiry: past its ttl a session is gone for run, refresh and history; refresh slides it.
      const short = await agent.sessionCreate({ ttl_seconds: 60 }, ctx);
      t.h.clock.advance(30_000);
      const refreshed = await agent.sessionRefresh(
        { app_session_uuid: short.app_session_uuid, ttl_seconds: 120 },
        ctx,
      );
      expect(refreshed).toMatchObject({ expires_in: 120, idle_ttl_seconds: 120 });
      t.h.clock.advance(121_000);
      expect(
        await rpcError(agent.sessionRefresh({ app_session_uuid: short.app_session_uuid }, ctx)),
      ).toMatchObject({ code: -32042 });
      const expired = await agent.sessionList({ include_expired: true }, ctx);
      expect(
        expired.sessions.find((x) => x.app_session_uuid === short.app_session_uuid),
      ).toMatchObject({ expired: true });
    },
  );

  it.skipIf(d.skip)(
    "agent/complete answers the MCP completion shape on the user's quota",
    async () => {
      const t = await copilotHttp(await d.open(), {
        config: { llmQuota: { tokensPerUser: 30, imagesPerUser: undefined, windowMs: 3_600_000 } },
      });
      const alice = await t.person();
      const ctx = pluginCtx(alice.userId);
      t.fake.enqueue({ text: "Short answer", usage: { inputTokens: 20, outputTokens: 12 } });
      const reply = await t.copilot.agent.complete(
        {
          messages: [{ role: "user", content: { type: "text", text: "Summarise" } }],
          maxTokens: 50,
        },
        ctx,
      );
      expect(reply).toMatchObject({
        role: "assistant",
        content: { type: "text", text: "Short answer" },
        model: MODEL,
      });
      expect(await rpcError(t.copilot.agent.complete({ messages: [] }, ctx))).toMatchObject({
        code: -32043,
      });
      // Over the user's tokens, the agent family's quota code (not sampling's).
      const over = await rpcError(
        t.copilot.agent.complete(
          { messages: [{ role: "user", content: { type: "text", text: "more" } }] },
          ctx,
        ),
      );
      expect(over).toMatchObject({ code: -32045, errorCode: "AGENT_QUOTA_EXCEEDED" });
      const s = await t.copilot.agent.sessionCreate({}, ctx);
      expect(
        await rpcError(
          t.copilot.agent.sessionRun({ app_session_uuid: s.app_session_uuid, content: "hi" }, ctx),
        ),
      ).toMatchObject({
        code: -32045,
        message: expect.stringMatching(/of 30 tokens/),
      });
    },
  );

  it.skipIf(d.skip)(
    "cancel mid-run ends it aborted, keeps nothing of it, and a second run over the per-user limit is refused",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const ctx = pluginCtx(alice.userId);
      const watch = observed(t.copilot.gateway);
      const agent = service(t, { gateway: watch.gateway, runs: new AgentRuns({ maxPerUser: 1 }) });
      const s = await agent.sessionCreate({}, ctx);
      const uuid = s.app_session_uuid;
      t.fake.enqueue({ text: ["partial "], stall: true });
      const running = agent.sessionRun(
        { app_session_uuid: uuid, content: "Write an essay", run_id: "run_long" },
        ctx,
      );
      await watch.firstDelta;
      expect(
        await rpcError(agent.sessionRun({ app_session_uuid: uuid, content: "and another" }, ctx)),
      ).toMatchObject({
        code: -32045,
        message: expect.stringMatching(/at most 1 agent runs per user/),
      });
      // Another user naming the same run cannot reach it.
      const bob = await t.person();
      const bobs = await agent.sessionCreate({}, pluginCtx(bob.userId));
      expect(
        await agent.sessionCancel(
          { app_session_uuid: bobs.app_session_uuid, run_id: "run_long" },
          pluginCtx(bob.userId),
        ),
      ).toMatchObject({ cancelled: false });
      expect(
        await agent.sessionCancel({ app_session_uuid: uuid, run_id: "run_long" }, ctx),
      ).toMatchObject({
        cancelled: true,
        run_id: "run_long",
      });
      const run = await running;
      expect(events(run.frames)).toEqual(["run_meta", "delta", "complete"]);
      expect(run.frames.at(-1)).toMatchObject({ aborted: true, text: "partial " });
      expect(run.final).toBeNull();
      await t.fake.waitForStalledDisconnect(5_000);
      expect(await agent.sessionHistory({ app_session_uuid: uuid }, ctx)).toEqual({
        messages: [],
        next_cursor: null,
      });
    },
  );

  it.skipIf(d.skip)("the plugin going away aborts its run", async () => {
    const t = await copilotHttp(await d.open());
    const alice = await t.person();
    const invoke = new AbortController();
    const ctx = pluginCtx(alice.userId, NOTES_TOOL, { signal: invoke.signal });
    const watch = observed(t.copilot.gateway);
    const agent = service(t, { gateway: watch.gateway });
    const s = await agent.sessionCreate({}, ctx);
    t.fake.enqueue({ text: ["half "], stall: true });
    const running = agent.sessionRun({ app_session_uuid: s.app_session_uuid, content: "go" }, ctx);
    await watch.firstDelta;
    invoke.abort(new Error("the plugin exited"));
    const run = await running;
    expect(run.frames.at(-1)).toMatchObject({ event: "complete", aborted: true });
    await t.fake.waitForStalledDisconnect(5_000);
  });

  it.skipIf(d.skip)(
    "a run past the frame cap is stopped with -32047 and nothing of it is kept",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const ctx = pluginCtx(alice.userId);
      const agent = service(t, {}, 8);
      const s = await agent.sessionCreate({}, ctx);
      t.fake.enqueue({ text: Array.from({ length: 20 }, (_, i) => `w${i} `) });
      const err = await rpcError(
        agent.sessionRun({ app_session_uuid: s.app_session_uuid, content: "Count" }, ctx),
      );
      expect(err).toMatchObject({ code: -32047, errorCode: "AGENT_RUN_TOO_LARGE" });
      expect(err.message).toMatch(/more than 8 frames/);
      expect(
        await agent.sessionHistory({ app_session_uuid: s.app_session_uuid }, ctx),
      ).toMatchObject({ messages: [] });
      // Exactly at the cap is fine: run_meta, 5 deltas, final, complete.
      t.fake.enqueue({ text: ["a", "b", "c", "d", "e"] });
      const fits = await agent.sessionRun(
        { app_session_uuid: s.app_session_uuid, content: "Five" },
        ctx,
      );
      expect(fits.frames).toHaveLength(8);
      expect(fits.final).toBe("abcde");
    },
  );

  it.skipIf(d.skip)("the default cap is the spec's 4096 frames", async () => {
    const t = await copilotHttp(await d.open());
    const alice = await t.person();
    const ctx = pluginCtx(alice.userId);
    const s = await t.copilot.agent.sessionCreate({}, ctx);
    t.fake.enqueue({ text: Array.from({ length: 4095 }, () => "x") });
    expect(
      await rpcError(
        t.copilot.agent.sessionRun({ app_session_uuid: s.app_session_uuid, content: "Many" }, ctx),
      ),
    ).toMatchObject({ code: -32047, message: expect.stringMatching(/more than 4096 frames/) });
  });

  it.skipIf(d.skip)("one user's or one executa's sessions are invisible to another", async () => {
    const t = await copilotHttp(await d.open());
    const agent = t.copilot.agent;
    const alice = await t.person();
    const bob = await t.person();
    const mine = pluginCtx(alice.userId);
    const s = await agent.sessionCreate({ label: "alice's" }, mine);
    const uuid = s.app_session_uuid;
    for (const other of [pluginCtx(bob.userId), pluginCtx(alice.userId, OTHER_TOOL)]) {
      expect((await agent.sessionList({ include_expired: true }, other)).sessions).toEqual([]);
      for (const call of [
        () => agent.sessionRun({ app_session_uuid: uuid, content: "hi" }, other),
        () => agent.sessionHistory({ app_session_uuid: uuid }, other),
        () => agent.sessionRefresh({ app_session_uuid: uuid }, other),
        () => agent.sessionCancel({ app_session_uuid: uuid, run_id: "r" }, other),
      ]) {
        expect(await rpcError(call())).toMatchObject({ code: -32042 });
      }
      // Their delete answers deleted (idempotent) and leaves the owner's session alone.
      expect(await agent.sessionDelete({ app_session_uuid: uuid }, other)).toEqual({
        deleted: true,
      });
    }
    expect((await agent.sessionList({}, mine)).sessions.map((x) => x.app_session_uuid)).toEqual([
      uuid,
    ]);
    expect(t.fake.requests).toEqual([]);
  });

  it.skipIf(d.skip)(
    "runs on the offline model with no provider configured, labelled as such",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const copilot = await openCopilot({
        db: t.copilot.db,
        llm: parseLlmConfig({ provider: "offline" }),
        quota: resolveConfig({}).llmQuota,
        clock: () => t.h.clock.now(),
      });
      const ctx = pluginCtx(alice.userId);
      const s = await copilot.agent.sessionCreate({}, ctx);
      const run = await copilot.agent.sessionRun(
        { app_session_uuid: s.app_session_uuid, content: "Hello?" },
        ctx,
      );
      expect(run.frames[0]).toMatchObject({
        event: "run_meta",
        provider: "offline",
        model: "offline",
      });
      expect(events(run.frames).at(-1)).toBe("complete");
      expect(run.final).toMatch(/No language model is configured on this server/);
      expect(
        (await copilot.agent.sessionHistory({ app_session_uuid: s.app_session_uuid }, ctx))
          .messages,
      ).toHaveLength(2);
      expect(t.fake.requests).toEqual([]);
    },
  );
});
