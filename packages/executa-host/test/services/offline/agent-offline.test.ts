import { AgentSessionCreateResultSchema, AgentSessionRunResultSchema } from "@anna-ai/app-schema";
import type { AgentSessionRunParams } from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import type { AgentGrant } from "../../../src/services/grants.js";
import type { AgentService } from "../../../src/services/agent-service.js";
import { createOfflineAgentService } from "../../../src/services/offline/agent-offline.js";
import type { OfflineAgentRunResult } from "../../../src/services/offline/agent-offline.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import { T0_MS, ctxWith, expectCatalogError, manualClock } from "./helpers.js";

const ctx = ctxWith<AgentGrant>({});

function newService(fixture?: string, clock = manualClock()) {
  const agent = createOfflineAgentService({
    mode: "mock",
    clock: clock.now,
    ...(fixture !== undefined ? { fixture: MockFixture.parse(fixture, "agent.jsonl") } : {}),
  });
  return { agent, clock };
}

async function createSession(agent: AgentService, c = ctx) {
  return agent.sessionCreate({ kind: "agent", agent_submode: "auto" }, c);
}

async function run(agent: AgentService, params: AgentSessionRunParams, c = ctx) {
  return (await agent.sessionRun(params, c)) as OfflineAgentRunResult;
}

describe("createOfflineAgentService: off", () => {
  it("answers every method with -32041 agent_not_granted", async () => {
    const agent = createOfflineAgentService({ mode: "off" });
    const calls: Promise<unknown>[] = [
      agent.sessionCreate({ kind: "agent" }, ctx),
      agent.sessionRun({ app_session_uuid: "aps_x", content: "hi" }, ctx),
      agent.sessionCancel({ app_session_uuid: "aps_x", run_id: "r" }, ctx),
      agent.sessionHistory({ app_session_uuid: "aps_x" }, ctx),
      agent.sessionList({}, ctx),
      agent.sessionRefresh({ app_session_uuid: "aps_x" }, ctx),
      agent.sessionDelete({ app_session_uuid: "aps_x" }, ctx),
      agent.complete({ messages: [{ role: "user", content: "hi" }] }, ctx),
    ];
    for (const call of calls) {
      const error = await expectCatalogError(call, AGENT_ERRORS.NOT_GRANTED, /disabled/);
      expect(AGENT_ERRORS.NOT_GRANTED.alias).toBe("agent_not_granted");
      expect(error.data).toMatchObject({ reason: "DISABLED" });
    }
  });
});

describe("agent/session.create", () => {
  it("accepts the SDK shape and returns the documented fields", async () => {
    const { agent } = newService();
    const created = await agent.sessionCreate(
      { kind: "agent", agent_submode: "auto", label: "my plan", ttl_seconds: 600 },
      ctx,
    );
    expect(AgentSessionCreateResultSchema.safeParse(created).success).toBe(true);
    expect(created.app_session_uuid).toMatch(/^aps_[0-9a-f]{32}$/);
    expect(created).toMatchObject({
      agent_submode: "auto",
      granted_tools: ["*"],
      expires_in: 600,
      label: "my plan",
      expires_at: new Date(T0_MS + 600_000).toISOString(),
    });
    expect(created.thread_id).toMatch(/^thr_[0-9a-f]{32}$/);
  });

  it("accepts the Reference shape and defaults the label to the plugin name", async () => {
    const { agent } = newService();
    const created = await agent.sessionCreate({ agent_submode: "auto", ttl_seconds: 60 }, ctx);
    expect(created).toMatchObject({ agent_submode: "auto", expires_in: 60, label: "plugin-a" });
    const fallback = await agent.sessionCreate({}, ctx);
    expect(fallback).toMatchObject({ agent_submode: "auto", expires_in: 600 });
  });

  it("mints the same ids for the same calls in a fresh service, different ones otherwise", async () => {
    const a = newService().agent;
    const b = newService().agent;
    const first = await createSession(a);
    expect(await createSession(b)).toEqual(first);
    const second = await createSession(a);
    expect(second.app_session_uuid).not.toBe(first.app_session_uuid);
    const otherUser = await createSession(newService().agent, ctxWith({}, { userId: "user-2" }));
    expect(otherUser.app_session_uuid).not.toBe(first.app_session_uuid);
  });

  it("refuses labels over 120 characters and ttl outside 0 < ttl ≤ 7200 with -32046", async () => {
    const { agent } = newService();
    await expectCatalogError(
      agent.sessionCreate({ kind: "agent", label: "x".repeat(121) }, ctx),
      AGENT_ERRORS.PROVIDER_ERROR,
      /label/,
    );
    expect(await agent.sessionCreate({ label: "é".repeat(120) }, ctx)).toMatchObject({
      label: "é".repeat(120),
    });
    for (const ttl of [0, -5, 7201, 1.5]) {
      await expectCatalogError(
        agent.sessionCreate({ ttl_seconds: ttl }, ctx),
        AGENT_ERRORS.PROVIDER_ERROR,
        /ttl_seconds/,
      );
    }
    expect(await agent.sessionCreate({ ttl_seconds: 7200 }, ctx)).toMatchObject({
      expires_in: 7200,
    });
  });

  it("checks the fixed submode: client id required, granted, and consistent with kind", async () => {
    const { agent } = newService();
    await expectCatalogError(
      agent.sessionCreate({ agent_submode: "fixed" }, ctx),
      AGENT_ERRORS.INVALID_REQUEST,
      /fixed_client_id/,
    );
    await expectCatalogError(
      agent.sessionCreate({ kind: "fixed", fixed_client_id: "desktop" }, ctx),
      AGENT_ERRORS.NOT_GRANTED,
    );
    await expectCatalogError(
      agent.sessionCreate({ kind: "fixed", agent_submode: "auto", fixed_client_id: "d" }, ctx),
      AGENT_ERRORS.SUBMODE_MISMATCH,
    );
    const granted = ctxWith<AgentGrant>({ allowedFixedClientIds: ["desktop"] });
    expect(
      await agent.sessionCreate({ kind: "fixed", fixed_client_id: "desktop" }, granted),
    ).toMatchObject({ agent_submode: "fixed", fixed_client_id: "desktop" });
  });

  it("echoes the effective tool whitelist in granted_tools", async () => {
    const { agent } = newService();
    const restricted = await agent.sessionCreate(
      { quota_caps: { inherit_host_tools: false, allowed_tools: ["search", "mail"] } },
      ctxWith<AgentGrant>({ grantedTools: ["search", "calendar"] }),
    );
    expect(restricted.granted_tools).toEqual(["search"]);
    const narrowed = await run(
      agent,
      { app_session_uuid: restricted.app_session_uuid, content: "x", allowed_tools: ["mail"] },
      ctxWith<AgentGrant>({ grantedTools: ["search", "calendar"] }),
    );
    expect(narrowed.frames[0]).toMatchObject({ event: "run_meta", granted_tools: [] });
    const inherited = await agent.sessionCreate(
      {},
      ctxWith<AgentGrant>({ grantedTools: ["search"] }),
    );
    expect(inherited.granted_tools).toEqual(["search"]);
    const everything = await agent.sessionCreate({}, ctx);
    const wide = await run(agent, {
      app_session_uuid: everything.app_session_uuid,
      content: "x",
      allowed_tools: ["mail"],
    });
    expect(wide.frames[0]).toMatchObject({ granted_tools: ["*"] });
  });
});

describe("agent/session.run", () => {
  it("returns synthetic frames named like real runs, tagged with seq and stream_id", async () => {
    const { agent } = newService();
    const { app_session_uuid } = await createSession(agent);
    const result = await run(agent, { app_session_uuid, content: "plan my week" });
    expect(AgentSessionRunResultSchema.safeParse(result).success).toBe(true);
    expect(result.run_id).toMatch(/^run_[0-9a-f]{16}$/);
    expect(result.stream_id).toMatch(/^strm_[0-9a-f]{24}$/);
    const events = result.frames.map((f) => f.event);
    expect(events[0]).toBe("run_meta");
    expect(events.at(-2)).toBe("final");
    expect(events.at(-1)).toBe("complete");
    expect(events.slice(1, -2).every((e) => e === "delta")).toBe(true);
    expect(result.frames.map((f) => f.seq)).toEqual(result.frames.map((_, i) => i));
    expect(new Set(result.frames.map((f) => f.stream_id))).toEqual(new Set([result.stream_id]));
    const streamed = result.frames
      .filter((f) => f.event === "delta")
      .map((f) => f.text)
      .join("");
    expect(streamed).toBe("Mock agent reply: plan my week");
    expect(result.final).toBe(streamed);
    expect(result.frames.at(-2)).toMatchObject({ usage: { totalTokens: expect.any(Number) } });
  });

  it("echoes at most 200 characters, so long inputs stay far below the frame cap", async () => {
    const { agent } = newService();
    const { app_session_uuid } = await createSession(agent);
    const content = Array.from({ length: 6000 }, (_, i) => `w${i}`).join(" ");
    const result = await run(agent, { app_session_uuid, content });
    expect(result.frames.length).toBeLessThan(100);
    expect(result.final).toBe(`Mock agent reply: ${content.slice(0, 200)}…`);
  });

  it("echoes a caller's run_id and is byte-identical across fresh services", async () => {
    const results: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { agent } = newService();
      const { app_session_uuid } = await createSession(agent);
      const named = await run(agent, { app_session_uuid, content: "hi", run_id: "run_mine" });
      expect(named.run_id).toBe("run_mine");
      results.push(JSON.stringify(await run(agent, { app_session_uuid, content: "again" })));
    }
    expect(results[0]).toBe(results[1]);
  });

  it("refuses blank content with -32043 and bad recursion limits with -32046", async () => {
    const { agent } = newService();
    const { app_session_uuid } = await createSession(agent);
    await expectCatalogError(
      run(agent, { app_session_uuid, content: "  \n " }),
      AGENT_ERRORS.INVALID_REQUEST,
      /content/,
    );
    for (const limit of [0, 33]) {
      await expectCatalogError(
        run(agent, { app_session_uuid, content: "x", recursion_limit: limit }),
        AGENT_ERRORS.PROVIDER_ERROR,
        /recursion_limit/,
      );
    }
    expect(
      (await run(agent, { app_session_uuid, content: "x", recursion_limit: 32 })).frames[0],
    ).toMatchObject({ event: "run_meta", recursion_limit: 32 });
  });

  it("answers unknown, deleted and expired sessions with -32042", async () => {
    const { agent, clock } = newService();
    await expectCatalogError(
      run(agent, { app_session_uuid: "aps_unknown", content: "x" }),
      AGENT_ERRORS.SESSION_NOT_FOUND,
    );
    const gone = await createSession(agent);
    expect(await agent.sessionDelete({ app_session_uuid: gone.app_session_uuid }, ctx)).toEqual({
      deleted: true,
    });
    await expectCatalogError(
      run(agent, { app_session_uuid: gone.app_session_uuid, content: "x" }),
      AGENT_ERRORS.SESSION_NOT_FOUND,
    );
    const short = await agent.sessionCreate({ ttl_seconds: 10 }, ctx);
    clock.advance(9_999);
    await run(agent, { app_session_uuid: short.app_session_uuid, content: "still here" });
    clock.advance(1);
    await expectCatalogError(
      run(agent, { app_session_uuid: short.app_session_uuid, content: "x" }),
      AGENT_ERRORS.SESSION_NOT_FOUND,
    );
  });

  it("keeps sessions to the user and executa that created them", async () => {
    const { agent } = newService();
    const { app_session_uuid } = await createSession(agent);
    const otherTool = ctxWith<AgentGrant>({}, { toolId: "tool-b" });
    const otherUser = ctxWith<AgentGrant>({}, { userId: "user-2" });
    for (const other of [otherTool, otherUser]) {
      await expectCatalogError(
        run(agent, { app_session_uuid, content: "x" }, other),
        AGENT_ERRORS.SESSION_NOT_FOUND,
      );
      await expectCatalogError(
        agent.sessionHistory({ app_session_uuid }, other),
        AGENT_ERRORS.SESSION_NOT_FOUND,
      );
      expect(await agent.sessionList({}, other)).toEqual({ sessions: [] });
      // Deleting someone else's uuid resolves (idempotent) but leaves it alone.
      expect(await agent.sessionDelete({ app_session_uuid }, other)).toEqual({ deleted: true });
    }
    expect((await run(agent, { app_session_uuid, content: "mine" })).final).toContain("mine");
  });

  it("buffers a fixture line's events as frames and answers its errors", async () => {
    const fixture = [
      "# agent answers",
      '{"ns":"agent","method":"session.run","match":{"contentIncludes":"weather"},"events":[{"payload":{"event":"token","text":"sun"}},{"payload":{"event":"token","text":"ny"}}]}',
      '{"ns":"agent","method":"session.run","match":{"contentIncludes":"tools"},"events":[{"payload":{"event":"tool_call","name":"search","args":{"q":"x"},"call_id":"c1"}},{"payload":{"event":"tool_result","call_id":"c1","ok":true,"data":{"n":1}}},{"payload":{"event":"final","text":"done"}}]}',
      '{"ns":"agent","method":"session.run","match":{"contentIncludes":"boom"},"error":{"code":-32045,"message":"quota_exceeded"}}',
    ].join("\n");
    const { agent } = newService(fixture);
    const { app_session_uuid } = await createSession(agent);
    const weather = await run(agent, { app_session_uuid, content: "what's the weather?" });
    expect(weather.frames).toEqual([
      { event: "token", text: "sun", seq: 0, stream_id: weather.stream_id },
      { event: "token", text: "ny", seq: 1, stream_id: weather.stream_id },
    ]);
    expect(weather.final).toBe("sunny");
    const tools = await run(agent, { app_session_uuid, content: "use tools" });
    expect(tools.frames.map((f) => f.event)).toEqual(["tool_call", "tool_result", "final"]);
    expect(tools.final).toBe("done");
    await expectCatalogError(
      run(agent, { app_session_uuid, content: "boom" }),
      AGENT_ERRORS.QUOTA_EXCEEDED,
      "quota_exceeded",
    );
    expect((await run(agent, { app_session_uuid, content: "other" })).frames[0]?.event).toBe(
      "run_meta",
    );
  });

  it("refuses a run over 4096 frames with -32047 agent_run_too_large", async () => {
    const events = (count: number) =>
      JSON.stringify({
        ns: "agent",
        method: "session.run",
        match: { content: `n${count}` },
        events: Array.from({ length: count }, (_, i) => ({
          payload: { event: "delta", text: `${i} ` },
        })),
      });
    const { agent } = newService([events(5000), events(4096)].join("\n"));
    const { app_session_uuid } = await createSession(agent);
    const error = await expectCatalogError(
      run(agent, { app_session_uuid, content: "n5000" }),
      AGENT_ERRORS.RUN_TOO_LARGE,
      /5000 frames/,
    );
    expect(AGENT_ERRORS.RUN_TOO_LARGE.alias).toBe("agent_run_too_large");
    expect(error.data).toMatchObject({ maxFrames: 4096, frames: 5000 });
    expect((await run(agent, { app_session_uuid, content: "n4096" })).frames).toHaveLength(4096);
  });
});

describe("agent/session.history", () => {
  it("returns the stored turns MCP-shaped, page by page", async () => {
    const fixture =
      '{"ns":"agent","method":"session.run","match":{"content":"tools"},"events":[{"payload":{"event":"tool_call","name":"search","args":{"q":"x"},"call_id":"c1"}},{"payload":{"event":"tool_result","call_id":"c1","ok":true,"data":{"n":1}}},{"payload":{"event":"final","text":"done"}}]}';
    const { agent } = newService(fixture);
    const { app_session_uuid } = await createSession(agent);
    expect(await agent.sessionHistory({ app_session_uuid }, ctx)).toEqual({
      messages: [],
      next_cursor: null,
    });
    await run(agent, { app_session_uuid, content: "first" });
    await run(agent, { app_session_uuid, content: "tools" });
    const all = await agent.sessionHistory({ app_session_uuid }, ctx);
    expect(all.messages).toEqual([
      { role: "user", content: { type: "text", text: "first" } },
      { role: "assistant", content: { type: "text", text: "Mock agent reply: first" } },
      { role: "user", content: { type: "text", text: "tools" } },
      {
        role: "assistant",
        content: { type: "tool_use", id: "c1", name: "search", input: { q: "x" } },
      },
      {
        role: "tool",
        content: { type: "tool_result", tool_use_id: "c1", is_error: false, content: { n: 1 } },
      },
      { role: "assistant", content: { type: "text", text: "done" } },
    ]);
    const pages: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = await agent.sessionHistory({ app_session_uuid, limit: 4, cursor }, ctx);
      pages.push(...page.messages);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(pages).toEqual(all.messages);
  });

  it("rejects limits outside 1..200 and cursors it did not mint with -32043", async () => {
    const { agent } = newService();
    const { app_session_uuid } = await createSession(agent);
    for (const limit of [0, 201]) {
      await expectCatalogError(
        agent.sessionHistory({ app_session_uuid, limit }, ctx),
        AGENT_ERRORS.INVALID_REQUEST,
        /limit/,
      );
    }
    await expectCatalogError(
      agent.sessionHistory({ app_session_uuid, cursor: "not a cursor!" }, ctx),
      AGENT_ERRORS.INVALID_REQUEST,
      /cursor/,
    );
    expect(await agent.sessionHistory({ app_session_uuid, limit: 200 }, ctx)).toMatchObject({
      next_cursor: null,
    });
  });
});

describe("agent/session.list, refresh, cancel, delete", () => {
  it("lists the caller's sessions newest first, expired ones on request", async () => {
    const { agent, clock } = newService();
    const old = await agent.sessionCreate({ label: "old", ttl_seconds: 5 }, ctx);
    clock.advance(1000);
    const fresh = await agent.sessionCreate({ label: "fresh" }, ctx);
    const listed = await agent.sessionList({}, ctx);
    expect(listed.sessions.map((s) => s.label)).toEqual(["fresh", "old"]);
    expect(listed.sessions[0]).toMatchObject({
      app_session_uuid: fresh.app_session_uuid,
      submode: "auto",
      created_at: new Date(T0_MS + 1000).toISOString(),
    });
    expect((await agent.sessionList({ limit: 1 }, ctx)).sessions).toHaveLength(1);
    expect((await agent.sessionList({ limit: 0 }, ctx)).sessions).toHaveLength(1);
    clock.advance(5000);
    expect((await agent.sessionList({}, ctx)).sessions.map((s) => s.label)).toEqual(["fresh"]);
    const withExpired = await agent.sessionList({ include_expired: true }, ctx);
    expect(withExpired.sessions.map((s) => s.app_session_uuid)).toEqual([
      fresh.app_session_uuid,
      old.app_session_uuid,
    ]);
  });

  it("refresh slides the expiry, checks ttl, and never passes the maximum lifetime", async () => {
    const { agent, clock } = newService();
    const { app_session_uuid } = await agent.sessionCreate({ ttl_seconds: 60 }, ctx);
    clock.advance(50_000);
    const refreshed = await agent.sessionRefresh({ app_session_uuid, ttl_seconds: 120 }, ctx);
    expect(refreshed).toMatchObject({
      app_session_uuid,
      expires_in: 120,
      expires_at: new Date(T0_MS + 170_000).toISOString(),
    });
    clock.advance(100_000);
    await run(agent, { app_session_uuid, content: "alive" });
    await expectCatalogError(
      agent.sessionRefresh({ app_session_uuid, ttl_seconds: 9000 }, ctx),
      AGENT_ERRORS.PROVIDER_ERROR,
    );
    // Keep it alive with the longest ttl until 30 s before its 24 h maximum lifetime.
    await agent.sessionRefresh({ app_session_uuid, ttl_seconds: 7200 }, ctx);
    let now = 150_000;
    const lastRefreshAt = 24 * 3600 * 1000 - 30_000;
    while (now < lastRefreshAt) {
      const step = Math.min(7000_000, lastRefreshAt - now);
      clock.advance(step);
      now += step;
      await agent.sessionRefresh({ app_session_uuid, ttl_seconds: 7200 }, ctx);
    }
    expect(await agent.sessionRefresh({ app_session_uuid, ttl_seconds: 7200 }, ctx)).toMatchObject({
      expires_in: 30,
      max_lifetime_at: new Date(T0_MS + 24 * 3600 * 1000).toISOString(),
    });
    clock.advance(30_000);
    await expectCatalogError(
      agent.sessionRefresh({ app_session_uuid }, ctx),
      AGENT_ERRORS.SESSION_NOT_FOUND,
    );
  });

  it("cancel names the session's runs; offline runs are already finished", async () => {
    const { agent } = newService();
    const { app_session_uuid } = await createSession(agent);
    const { run_id } = await run(agent, { app_session_uuid, content: "x" });
    expect(await agent.sessionCancel({ app_session_uuid, run_id }, ctx)).toEqual({
      cancelled: false,
      run_id,
      status: "finished",
    });
    expect(await agent.sessionCancel({ app_session_uuid, run_id: "run_nope" }, ctx)).toMatchObject({
      cancelled: false,
      status: "unknown_run",
    });
    await expectCatalogError(
      agent.sessionCancel({ app_session_uuid: "aps_nope", run_id }, ctx),
      AGENT_ERRORS.SESSION_NOT_FOUND,
    );
  });

  it("delete is idempotent", async () => {
    const { agent } = newService();
    const { app_session_uuid } = await createSession(agent);
    expect(await agent.sessionDelete({ app_session_uuid }, ctx)).toEqual({ deleted: true });
    expect(await agent.sessionDelete({ app_session_uuid }, ctx)).toEqual({ deleted: true });
    expect(await agent.sessionDelete({ app_session_uuid: "aps_never" }, ctx)).toEqual({
      deleted: true,
    });
    expect(await agent.sessionList({ include_expired: true }, ctx)).toEqual({ sessions: [] });
  });

  it("evicts the least recently used session past the cache bound", async () => {
    const agent = createOfflineAgentService({
      mode: "mock",
      clock: manualClock().now,
      maxSessions: 2,
    });
    const a = await createSession(agent);
    const b = await createSession(agent);
    await run(agent, { app_session_uuid: a.app_session_uuid, content: "touch a" });
    await createSession(agent);
    await run(agent, { app_session_uuid: a.app_session_uuid, content: "a lives" });
    await expectCatalogError(
      run(agent, { app_session_uuid: b.app_session_uuid, content: "b evicted" }),
      AGENT_ERRORS.SESSION_NOT_FOUND,
    );
  });

  it("lets fixture lines answer session methods, keeping the session usable", async () => {
    const fixture = [
      '{"ns":"agent","method":"session.create","result":{"app_session_uuid":"aps_fixture","thread_id":"t1","agent_submode":"auto","granted_tools":["search"],"expires_in":600}}',
      '{"ns":"agent","method":"session.history","result":{"messages":[{"role":"user","content":"canned"}],"next_cursor":null}}',
    ].join("\n");
    const { agent } = newService(fixture);
    const created = await createSession(agent);
    expect(created).toEqual({
      app_session_uuid: "aps_fixture",
      thread_id: "t1",
      agent_submode: "auto",
      granted_tools: ["search"],
      expires_in: 600,
    });
    const result = await run(agent, { app_session_uuid: "aps_fixture", content: "go" });
    expect(result.frames[0]).toMatchObject({ event: "run_meta", thread_id: "t1" });
    expect(await agent.sessionHistory({ app_session_uuid: "aps_fixture" }, ctx)).toEqual({
      messages: [{ role: "user", content: "canned" }],
      next_cursor: null,
    });
  });
});

describe("agent/complete", () => {
  it("answers a deterministic MCP completion, cut at maxTokens", async () => {
    const { agent } = newService();
    const messages = [
      { role: "user" as const, content: { type: "text", text: "Summarize the report" } },
    ];
    const full = await agent.complete({ messages }, ctx);
    expect(full).toEqual({
      role: "assistant",
      content: { type: "text", text: "Mock completion: Summarize the report" },
      model: "mock-agent",
      stopReason: "endTurn",
      usage: { inputTokens: 5, outputTokens: 10, totalTokens: 15 },
    });
    expect(await newService().agent.complete({ messages }, ctx)).toEqual(full);
    const cut = await agent.complete({ messages, maxTokens: 4 }, ctx);
    expect(cut.stopReason).toBe("maxTokens");
    expect(cut.usage.outputTokens).toBeLessThanOrEqual(4);
    expect(full.content.text.startsWith(cut.content.text)).toBe(true);
  });

  it("validates messages and maxTokens with -32043 and answers from fixture lines", async () => {
    const { agent } = newService(
      '{"ns":"agent","method":"complete","match":{"contentIncludes":"weather"},"result":{"role":"assistant","content":{"type":"text","text":"sunny"},"model":"fixture","stopReason":"endTurn","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}}',
    );
    await expectCatalogError(agent.complete({ messages: [] }, ctx), AGENT_ERRORS.INVALID_REQUEST);
    await expectCatalogError(
      agent.complete({ messages: [{ role: "user", content: "x" }], maxTokens: 0 }, ctx),
      AGENT_ERRORS.INVALID_REQUEST,
    );
    const answered = await agent.complete(
      { messages: [{ role: "user", content: "how is the weather" }] },
      ctx,
    );
    expect(answered.content.text).toBe("sunny");
  });
});
