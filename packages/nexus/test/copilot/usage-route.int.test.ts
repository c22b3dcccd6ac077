// GET /api/v1/me/usage over real HTTP on SQLite and PostgreSQL: what a user spent in the quota's
// window, split per (app, purpose), against the configured caps; another user's calls never
// show; without a session or token it is 401.
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { copilotHttp } from "./copilot-harness.js";

useDialectCleanup();

const say = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 32 };

describe.each(DIALECTS)("usage of the signed-in user on $name", (d) => {
  it.skipIf(d.skip)("sums the window per app and purpose, against the quota", async () => {
    const t = await copilotHttp(await d.open(), {
      config: { llmQuota: { tokensPerUser: 1000, imagesPerUser: undefined, windowMs: 3_600_000 } },
    });
    const alice = await t.person();
    const bob = await t.person();
    for (const [who, slug, tokens] of [
      [alice, "notes", 30],
      [alice, "notes", 20],
      [alice, "weather", 5],
      [bob, "notes", 400],
    ] as const) {
      const s = (await (
        await t.post("/api/v1/copilot/app/sessions", {
          pat: who.pat,
          app_slug: slug,
          kind: "complete",
        })
      ).json()) as { app_session_token: string };
      t.fake.enqueue({ text: "ok", usage: { inputTokens: tokens - 1, outputTokens: 1 } });
      const res = await t.post("/api/v1/copilot/app/complete", say, {
        authorization: `Bearer ${s.app_session_token}`,
      });
      expect(res.status).toBe(200);
    }

    const res = await fetch(`${t.url}/api/v1/me/usage`, {
      headers: { authorization: `Bearer ${alice.pat}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      window: { hours: 1 },
      quota: { tokens: 1000, images: null },
      used: { total_tokens: 55, input_tokens: 52, output_tokens: 3, calls: 3, images: 0 },
      remaining: { tokens: 945, images: null },
    });
    expect(body.by_app).toEqual([
      {
        app_id: "notes",
        purpose: expect.any(String),
        input_tokens: 48,
        output_tokens: 2,
        total_tokens: 50,
        images: 0,
        calls: 2,
      },
      {
        app_id: "weather",
        purpose: expect.any(String),
        input_tokens: 4,
        output_tokens: 1,
        total_tokens: 5,
        images: 0,
        calls: 1,
      },
    ]);

    const anonymous = await fetch(`${t.url}/api/v1/me/usage`);
    expect(anonymous.status).toBe(401);
  });
});
