// The admin's model settings over real HTTP on SQLite and PostgreSQL: read them (keys as
// set/unset only), test a candidate against a real (fake) provider, switch the chat model to
// another provider at run time and see the next chat turn go there, with the change audited;
// stale versions, env-pinned settings, bad values and non-admins are refused; the stored layer
// survives a restart with its key sealed.
import { randomBytes } from "node:crypto";
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { describe, expect, it, onTestFinished } from "vitest";
import { openCopilot } from "../../src/copilot/copilot-services.js";
import { resolveConfig } from "../../src/core/config.js";
import { kekFromBytes } from "../../src/tokens/key-encryption.js";
import { readEvents } from "../helpers/chat.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { copilotHttp, MODEL, PROVIDER_KEY } from "./copilot-harness.js";

useDialectCleanup();

const ANTHROPIC_KEY = "sk-ant-second-provider-0123456789";
type Body = Record<string, unknown>;
const detail = (body: unknown) => (body as { detail: Body }).detail;

async function call(url: string, pat: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${pat}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, body: (text ? JSON.parse(text) : null) as Body };
}

const MODELS = "/api/v1/super-admin/settings/models";

describe.each(DIALECTS)("model settings on $name", (d) => {
  it.skipIf(d.skip)(
    "switches the chat model to another provider at run time; the next turn uses it",
    async () => {
      const kek = kekFromBytes(randomBytes(32), "test");
      const handle = await d.open();
      const t = await copilotHttp(handle, { models: { kek }, chat: true });
      const second = await startFakeProvider({ apiKey: ANTHROPIC_KEY });
      onTestFinished(() => second.close());
      const admin = await t.admin();

      const read = await call(t.url, admin.pat, "GET", MODELS);
      expect(read.status).toBe(200);
      expect(read.text).not.toContain(PROVIDER_KEY);
      expect(read.body).toMatchObject({
        version: 0,
        file: "copilot-test.json",
        precedence: "env > database > file",
        effective: { chat: { provider: "openai-compatible", model: MODEL, api_key: "set" } },
        settings: {},
        keys: { apiKey: "unset" },
        sources: { provider: "file", apiKey: "file", model: "file" },
        pinned: {},
        audit: [],
      });

      const candidate = {
        provider: "anthropic",
        baseUrl: second.baseUrl,
        apiKey: ANTHROPIC_KEY,
        model: "claude-test",
      };
      // Test connection: a wrong key is reported in the provider's words, with a hint.
      const wrong = await call(t.url, admin.pat, "POST", `${MODELS}/test`, {
        settings: { ...candidate, apiKey: "sk-ant-wrong-key-000000" },
      });
      expect(wrong.status).toBe(200);
      expect(wrong.text).not.toContain("sk-ant-wrong-key-000000");
      expect(wrong.body).toMatchObject({
        ok: false,
        provider: "anthropic",
        model: "claude-test",
        error: { status: 401, hint: expect.stringContaining("refused the API key") },
      });
      second.enqueue({ text: "OK" });
      const good = await call(t.url, admin.pat, "POST", `${MODELS}/test`, {
        settings: candidate,
      });
      expect(good.body).toMatchObject({ ok: true, provider: "anthropic", reply: "OK" });
      // A test changes nothing.
      expect(t.copilot.gateway.modelFor("chat")).toMatchObject({ provider: "openai-compatible" });

      const saved = await call(t.url, admin.pat, "PUT", MODELS, {
        settings: candidate,
        version: 0,
      });
      expect(saved.status).toBe(200);
      expect(saved.text).not.toContain(ANTHROPIC_KEY);
      expect(saved.body).toMatchObject({
        version: 1,
        effective: { chat: { provider: "anthropic", model: "claude-test", api_key: "set" } },
        settings: { provider: "anthropic", model: "claude-test", baseUrl: second.baseUrl },
        keys: { apiKey: "set" },
        sources: { provider: "database", apiKey: "database", maxRetries: "file" },
      });
      const audit = (saved.body.audit as Body[])[0];
      expect(audit).toMatchObject({ changed_by: admin.email, changed_at: expect.any(Number) });
      expect(audit?.changes).toEqual(
        expect.arrayContaining([
          { setting: "provider", change: '(unset) → "anthropic"' },
          { setting: "apiKey", change: "set" },
        ]),
      );
      const stored = await handle.db
        .selectFrom("server_settings")
        .select("value")
        .executeTakeFirstOrThrow();
      expect(stored.value).not.toContain(ANTHROPIC_KEY);

      // A user's chat turn now goes to the second provider, over the Anthropic wire.
      const user = await t.person();
      const before = t.fake.requests.length;
      second.enqueue({ text: ["Bonjour ", "from Claude"] });
      const conv = await call(t.url, user.pat, "POST", "/api/v1/chat/conversations", {});
      const turn = await call(
        t.url,
        user.pat,
        "POST",
        `/api/v1/chat/conversations/${conv.body.id as string}/turns`,
        { text: "Say hello" },
      );
      expect(turn.status).toBe(202);
      const events = await readEvents(
        `${t.url}/api/v1/chat/turns/${turn.body.turn_id as string}/events`,
        user.pat,
      );
      expect(
        events.frames
          .filter((f) => f.event === "text.delta")
          .map((f) => f.data.text)
          .join(""),
      ).toBe("Bonjour from Claude");
      const sent = second.requests.at(-1);
      expect(sent?.path).toBe("/v1/messages");
      expect(sent?.headers["x-api-key"]).toBe(ANTHROPIC_KEY);
      expect(t.fake.requests.length).toBe(before);

      // A save based on an old version is refused; a later one keeps the stored key.
      const stale = await call(t.url, admin.pat, "PUT", MODELS, {
        settings: candidate,
        version: 0,
      });
      expect(stale.status).toBe(409);
      expect(detail(stale.body).code).toBe("stale_revision");
      const kept = await call(t.url, admin.pat, "PUT", MODELS, {
        settings: { ...candidate, apiKey: undefined, model: "claude-test-2" },
        version: 1,
      });
      expect(kept.body).toMatchObject({ version: 2, keys: { apiKey: "set" } });
      expect((kept.body.audit as Body[])[0]?.changes).toEqual([
        { setting: "model", change: '"claude-test" → "claude-test-2"' },
      ]);

      // After a restart the stored settings apply, the key opened with the same KEK.
      const again = await openCopilot({
        db: handle.db,
        llm: t.copilot.llmConfig(),
        quota: resolveConfig({}).llmQuota,
        clock: () => Date.now(),
        models: { kek, env: {} },
      });
      expect(again.llmConfig().chat).toMatchObject({
        provider: "anthropic",
        model: "claude-test-2",
      });
      expect(again.llmConfig().chat.apiKey?.reveal()).toBe(ANTHROPIC_KEY);

      // Switching vendor without a key drops the stored one: it never follows to another vendor.
      const switched = await call(t.url, admin.pat, "PUT", MODELS, {
        settings: { provider: "openai-compatible", baseUrl: second.baseUrl, model: "llama" },
        version: 2,
      });
      expect(switched.body).toMatchObject({ keys: { apiKey: "unset" } });
    },
  );

  it.skipIf(d.skip)("refuses bad values, env-pinned settings and non-admins", async () => {
    const t = await copilotHttp(await d.open(), {
      models: { env: { model: "pinned-by-env" } },
    });
    const admin = await t.admin();
    const typo = await call(t.url, admin.pat, "PUT", MODELS, { settings: { modle: "x" } });
    expect(typo.status).toBe(400);
    expect(detail(typo.body)).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("has unknown settings modle; known: provider"),
    });
    expect(detail(typo.body).message).toContain('Did you mean "model"?');
    const bad = await call(t.url, admin.pat, "PUT", MODELS, { settings: { provider: "gemini" } });
    expect(detail(bad.body).message).toContain(
      'provider must be one of openai, anthropic, openai-compatible, offline (got "gemini")',
    );
    const incomplete = await call(t.url, admin.pat, "PUT", MODELS, {
      settings: { provider: "openai" },
    });
    expect(incomplete.status).toBe(400);
    expect(detail(incomplete.body).message).toContain("apiKey is required when provider is openai");

    const read = await call(t.url, admin.pat, "GET", MODELS);
    expect(read.body).toMatchObject({
      pinned: { model: "ANNA_LLM_MODEL" },
      sources: { model: "env" },
      effective: { chat: { model: "pinned-by-env" } },
    });
    const pinned = await call(t.url, admin.pat, "PUT", MODELS, { settings: { model: "mine" } });
    expect(pinned.status).toBe(409);
    expect(detail(pinned.body)).toMatchObject({
      code: "setting_pinned",
      message: expect.stringContaining("model is set by ANNA_LLM_MODEL"),
      pinned: { model: "ANNA_LLM_MODEL" },
    });

    const person = await t.person();
    for (const [method, path, body] of [
      ["GET", MODELS, undefined],
      ["PUT", MODELS, { settings: {} }],
      ["POST", `${MODELS}/test`, {}],
    ] as const) {
      const refused = await call(t.url, person.pat, method, path, body);
      expect(refused.status).toBe(403);
      expect(detail(refused.body).code).toBe("admin_required");
      const anonymous = await fetch(`${t.url}${path}`, { method });
      expect(anonymous.status).toBe(401);
    }
  });
});
