// The copilot endpoints over real HTTP on SQLite and PostgreSQL, the model a fake
// OpenAI-compatible provider: sessions for a PAT, a window and a plugin's sampling token;
// complete; an agent run streamed as SSE with its history replayed; cancel mid-stream; the
// quota; embeddings; the session lifecycle codes; usage rows per (user, app, purpose, model).
import { describe, expect, it } from "vitest";
import { AGENT_MAX_FRAMES_PER_RUN } from "../../src/copilot/agent-runs.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { type CopilotHttp, copilotHttp, MODEL, sseFrames, sseStream } from "./copilot-harness.js";

useDialectCleanup();

const API = "/api/v1/copilot";

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function refusal(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { detail: { code: string; message: string } };
  return { status: res.status, code: body.detail.code, message: body.detail.message };
}

async function patSession(t: CopilotHttp, pat: string, extra: Record<string, unknown> = {}) {
  const s = await json(await t.post(`${API}/app/sessions`, { pat, app_slug: "notes", ...extra }));
  return {
    uuid: s.app_session_uuid as string,
    auth: { authorization: `Bearer ${s.app_session_token as string}` },
    body: s,
  };
}

const say = (text: string) => ({
  messages: [{ role: "user", content: { type: "text", text } }],
  maxTokens: 64,
});

describe.each(DIALECTS)("copilot endpoints on $name", (d) => {
  it.skipIf(d.skip)(
    "complete answers the MCP shape and records usage per user, app, purpose and model",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const s = await patSession(t, alice.pat, { kind: "complete" });
      expect(s.body).toMatchObject({
        kind: "complete",
        app_slug: "notes",
        token_type: "Bearer",
        idle_ttl_seconds: 900,
      });
      t.fake.enqueue({ text: "Hi there", usage: { inputTokens: 7, outputTokens: 3 } });
      const reply = await json(await t.post(`${API}/app/complete`, say("Say hi"), s.auth));
      expect(reply).toMatchObject({
        role: "assistant",
        content: { type: "text", text: "Hi there" },
        model: MODEL,
        stopReason: "endTurn",
      });
      expect(t.fake.requests.at(-1)?.body).toMatchObject({ model: MODEL, max_tokens: 64 });
      const rows = await t.copilot.db.selectFrom("llm_usage").selectAll().execute();
      expect(
        rows.map((r) => [r.user_id, r.app_id, r.purpose, r.model, Number(r.total_tokens)]),
      ).toEqual([[String(alice.userId), "notes", "sampling", MODEL, 10]]);
      // No token, a PAT instead of a session token, a malformed body: each says what is wrong.
      expect(await refusal(await t.post(`${API}/app/complete`, say("x")))).toMatchObject({
        status: 401,
        code: "unauthenticated",
      });
      expect(
        await refusal(
          await t.post(`${API}/app/complete`, say("x"), { authorization: `Bearer ${alice.pat}` }),
        ),
      ).toMatchObject({ status: 401 });
      expect(
        await refusal(await t.post(`${API}/app/complete`, { messages: "nope" }, s.auth)),
      ).toMatchObject({ status: 400, code: "validation_failed" });
    },
  );

  it.skipIf(d.skip)(
    "an agent run streams run_meta, deltas, final and complete, and the next run sees the history",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const s = await patSession(t, alice.pat, { system_prompt: "You are terse." });
      t.fake.enqueue({ text: ["Hel", "lo"] }, { text: "Again" });
      const res = await t.post(`${API}/app/agent`, { content: "Greet me" }, s.auth);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
      const frames = await sseFrames(res);
      expect(frames.map((f) => f.event)).toEqual([
        "run_meta",
        "delta",
        "delta",
        "final",
        "complete",
      ]);
      const runId = res.headers.get("x-anna-run-id");
      expect(frames[0]).toMatchObject({
        run_id: runId,
        thread_id: s.uuid,
        model: MODEL,
        seq: 0,
        stream_id: runId,
      });
      expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4]);
      expect(frames[3]).toMatchObject({
        text: "Hello",
        usage: { inputTokens: 12, outputTokens: 8, totalTokens: 20 },
      });
      expect(frames[4]).toMatchObject({ run_id: runId, aborted: false });

      await sseFrames(await t.post(`${API}/app/agent`, { content: "Once more" }, s.auth));
      const sent = t.fake.requests.at(-1)?.body as {
        messages: { role: string; content: unknown }[];
      };
      expect(sent.messages.map((m) => [m.role, m.content])).toEqual([
        ["system", "You are terse."],
        ["user", "Greet me"],
        ["assistant", "Hello"],
        ["user", "Once more"],
      ]);
      const purposes = await t.copilot.db
        .selectFrom("llm_usage")
        .select(["purpose", "app_id"])
        .execute();
      expect(purposes).toEqual([
        { purpose: "agent", app_id: "notes" },
        { purpose: "agent", app_id: "notes" },
      ]);
      // A complete-kind session cannot run the agent.
      const c = await patSession(t, alice.pat, { kind: "complete" });
      expect(
        await refusal(await t.post(`${API}/app/agent`, { content: "x" }, c.auth)),
      ).toMatchObject({ status: 403, code: "permission_denied" });
    },
  );

  it.skipIf(d.skip)(
    "a run longer than the frame cap stops sending deltas but loses no text",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const s = await patSession(t, alice.pat);
      t.fake.enqueue({ text: Array.from({ length: 4200 }, (_, i) => String(i % 10)) });
      const frames = await sseFrames(
        await t.post(`${API}/app/agent`, { content: "count" }, s.auth),
      );
      expect(frames.length).toBe(AGENT_MAX_FRAMES_PER_RUN - 1);
      expect(frames.filter((f) => f.event === "delta").length).toBe(AGENT_MAX_FRAMES_PER_RUN - 4);
      const final = frames.find((f) => f.event === "final")!;
      expect((final.text as string).length).toBe(4200);
      expect(final.deltas_capped_at).toBe(AGENT_MAX_FRAMES_PER_RUN - 4);
    },
  );

  it.skipIf(d.skip)(
    "cancel stops a run mid-stream: the provider call is dropped and the run ends aborted",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const bob = await t.person();
      const s = await patSession(t, alice.pat);
      const b = await patSession(t, bob.pat);
      t.fake.enqueue({ text: ["partial "], stall: true });
      const res = await t.post(`${API}/app/agent`, { content: "Write a long essay" }, s.auth);
      const runId = res.headers.get("x-anna-run-id")!;
      const seen: Record<string, unknown>[] = [];
      for await (const frame of sseStream(res)) {
        seen.push(frame);
        if (frame.event === "delta") {
          // Another user cannot cancel it; the owner can.
          expect(
            await refusal(await t.post(`${API}/app/agent/cancel`, { run_id: runId }, b.auth)),
          ).toMatchObject({ status: 404, code: "not_found" });
          expect(
            await json(await t.post(`${API}/app/agent/cancel`, { run_id: runId }, s.auth)),
          ).toEqual({ cancelled: true, run_id: runId });
        }
      }
      expect(seen.map((f) => f.event)).toEqual(["run_meta", "delta", "complete"]);
      expect(seen.at(-1)).toMatchObject({ run_id: runId, aborted: true, text: "partial " });
      await t.fake.waitForStalledDisconnect(5_000);
      expect(t.copilot.runs.size).toBe(0);
      // Nothing of the aborted exchange is replayed to the model later.
      expect(await t.copilot.db.selectFrom("copilot_messages").selectAll().execute()).toEqual([]);
      expect(
        await refusal(await t.post(`${API}/app/agent/cancel`, { run_id: runId }, s.auth)),
      ).toMatchObject({ status: 404 });
    },
  );

  it.skipIf(d.skip)(
    "over the per-user quota every call is refused with quota_exceeded (429)",
    async () => {
      const t = await copilotHttp(await d.open(), {
        config: { llmQuota: { tokensPerUser: 30, imagesPerUser: undefined, windowMs: 3_600_000 } },
      });
      const alice = await t.person();
      const bob = await t.person();
      const s = await patSession(t, alice.pat);
      await json(await t.post(`${API}/app/complete`, say("one"), s.auth));
      await sseFrames(await t.post(`${API}/app/agent`, { content: "two" }, s.auth));
      const calls = t.fake.requests.length;
      for (const [path, body] of [
        [`${API}/app/complete`, say("three")],
        [`${API}/app/agent`, { content: "three" }],
        [`${API}/embeddings`, { input: "three" }],
      ] as const) {
        const r = await refusal(await t.post(path, body, s.auth));
        expect(r).toMatchObject({ status: 429, code: "quota_exceeded" });
        expect(r.message).toMatch(/used 40 of 30 tokens in the last 1 h/);
      }
      expect(t.fake.requests.length).toBe(calls);
      // Bob's quota is his own; and the window rolls on for Alice.
      const b = await patSession(t, bob.pat);
      await json(await t.post(`${API}/app/complete`, say("hi"), b.auth));
      t.h.clock.advance(3_600_001);
      const fresh = await patSession(t, alice.pat);
      await json(await t.post(`${API}/app/complete`, say("later"), fresh.auth));
    },
  );

  it.skipIf(d.skip)(
    "a window and a plugin's sampling token get sessions of their own; embeddings take either token",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const appId = await t.installApp(alice.userId, { agent: { session: { auto: true } } });
      const win = await t.windowToken(alice.userId, appId, "win_a");
      const ws = await json(
        await t.post(`${API}/app/sessions`, { submode: "auto" }, { "x-anna-app-token": win }),
      );
      expect(ws).toMatchObject({
        kind: "agent",
        submode: "auto",
        app_slug: `app:${appId}`,
        idle_ttl_seconds: 1800,
      });
      // The manifest is the ACL: no `fixed` submode, no `llm: ["complete"]`, no other user's app.
      const fixed = await refusal(
        await t.post(
          `${API}/app/sessions`,
          { submode: "fixed", fixed_client_id: "desktop" },
          { "x-anna-app-token": win },
        ),
      );
      expect(fixed).toMatchObject({ status: 403, code: "permission_denied" });
      expect(fixed.message).toMatch(/submode 'fixed' is not enabled in ui.host_api.agent.session/);
      const complete = await refusal(
        await t.post(`${API}/app/sessions`, { kind: "complete" }, { "x-anna-app-token": win }),
      );
      expect(complete).toMatchObject({ status: 403, code: "permission_denied" });
      expect(complete.message).toMatch(/add it to manifest ui.host_api.llm/);
      const bob = await t.person();
      const bobWin = await t.windowToken(bob.userId, appId, "win_b");
      expect(
        await refusal(await t.post(`${API}/app/sessions`, {}, { "x-anna-app-token": bobWin })),
      ).toMatchObject({ status: 403, code: "forbidden" });
      t.fake.enqueue({ text: "from the window" });
      const frames = await sseFrames(
        await t.post(
          `${API}/app/agent`,
          { content: "hi" },
          { authorization: `Bearer ${ws.app_session_token as string}` },
        ),
      );
      expect(frames.find((f) => f.event === "final")).toMatchObject({ text: "from the window" });

      const sampling = await t.familyToken("sampling", alice.userId, "tool-notes", "inv-1", {
        app_slug: "notes",
      });
      const ps = await json(
        await t.post(
          `${API}/app/sessions/from_sampling`,
          { kind: "agent" },
          { authorization: `Bearer ${sampling}` },
        ),
      );
      expect(ps).toMatchObject({ kind: "agent", app_slug: "notes" });
      const emb = await json(
        await t.post(
          `${API}/embeddings`,
          { input: ["a", "b"], user_id: alice.userId, executa_tool_id: "tool-notes" },
          { authorization: `Bearer ${sampling}` },
        ),
      );
      expect((emb.data as unknown[]).length).toBe(2);
      // The body's identity fields must be the token's (L9348).
      expect(
        await refusal(
          await t.post(
            `${API}/embeddings`,
            { input: "a", user_id: alice.userId + 1 },
            { authorization: `Bearer ${sampling}` },
          ),
        ),
      ).toMatchObject({ status: 403, code: "forbidden" });
      const viaSession = await json(
        await t.post(
          `${API}/embeddings`,
          { input: "c" },
          { authorization: `Bearer ${ps.app_session_token as string}` },
        ),
      );
      expect((viaSession.data as unknown[]).length).toBe(1);
      const usage = await t.copilot.db
        .selectFrom("llm_usage")
        .select(["purpose", "app_id", "tool_id"])
        .orderBy("id")
        .execute();
      expect(usage).toEqual([
        { purpose: "agent", app_id: `app:${appId}`, tool_id: "" },
        { purpose: "embeddings", app_id: "notes", tool_id: "tool-notes" },
        { purpose: "embeddings", app_id: "notes", tool_id: "tool-notes" },
      ]);
      // A window token for another audience, or none at all, is refused.
      expect(
        (await t.post(`${API}/app/sessions`, {}, { "x-anna-app-token": sampling })).status,
      ).toBe(401);
    },
  );

  it.skipIf(d.skip)(
    "an expired session answers APP_SESSION_EXPIRED (410), a lapsed token APP_SESSION_TOKEN_EXPIRED (401)",
    async () => {
      const t = await copilotHttp(await d.open(), { config: { devSessionIdleMs: 60_000 } });
      const alice = await t.person();
      const s = await patSession(t, alice.pat);
      t.h.clock.advance(61_000);
      expect(
        await refusal(await t.post(`${API}/app/agent`, { content: "x" }, s.auth)),
      ).toMatchObject({ status: 410, code: "APP_SESSION_EXPIRED" });
      const appId = await t.installApp(alice.userId, { llm: ["complete"] });
      const win = await t.windowToken(alice.userId, appId);
      // A complete session idles for 15 min; its token lasts 10.
      const ws = await json(
        await t.post(`${API}/app/sessions`, { kind: "complete" }, { "x-anna-app-token": win }),
      );
      t.h.clock.advance(610_000);
      expect(
        await refusal(
          await t.post(`${API}/app/complete`, say("x"), {
            authorization: `Bearer ${ws.app_session_token as string}`,
          }),
        ),
      ).toMatchObject({ status: 401, code: "APP_SESSION_TOKEN_EXPIRED" });
      // Revoking the dev session (PAT) ends it at once.
      const again = await patSession(t, alice.pat);
      await json(
        await t.post("/api/v1/anna-apps/dev/session/revoke", {
          pat: alice.pat,
          app_session_uuid: again.uuid,
        }),
      );
      expect(
        await refusal(await t.post(`${API}/app/complete`, say("x"), again.auth)),
      ).toMatchObject({ status: 410, code: "APP_SESSION_REVOKED" });
    },
  );
});
