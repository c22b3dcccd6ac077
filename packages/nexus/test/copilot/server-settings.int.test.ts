// GET /api/v1/super-admin/settings over real HTTP: an admin reads the model of each purpose,
// the quota and the registry switches, never the provider key; anyone else is refused.
import { describe, expect, it } from "vitest";
import { mintPat } from "../../src/routes/tokens.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { copilotHttp, EMBED_MODEL, MODEL, PROVIDER_KEY } from "./copilot-harness.js";

useDialectCleanup();

describe.each(DIALECTS)("server settings on $name", (d) => {
  it.skipIf(d.skip)("shows an admin the models, quota and switches, no secret", async () => {
    const t = await copilotHttp(await d.open(), {
      config: {
        llmQuota: { tokensPerUser: 5000, imagesPerUser: 3, windowMs: 6 * 3_600_000 },
        selfServeDeveloper: false,
      },
    });
    const now = Date.now();
    const admin = await t.h.stores.users.create(
      { email: "root@example.com", passwordHash: "x", isVerified: true, isAdmin: true },
      now,
    );
    const { pat } = await mintPat(t.h.stores, {
      userId: admin.id,
      scopes: ["aps:dev"],
      label: null,
      now,
      ttlMs: 86_400_000,
    });
    const res = await fetch(`${t.url}/api/v1/super-admin/settings`, {
      headers: { authorization: `Bearer ${pat}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(PROVIDER_KEY);
    expect(JSON.parse(text)).toMatchObject({
      llm: {
        chat: { provider: "openai-compatible", model: MODEL },
        embeddings: { provider: "openai-compatible", model: EMBED_MODEL },
      },
      offline: false,
      quota: { tokens_per_user: 5000, images_per_user: 3, window_hours: 6 },
      registry: { release_review: false, self_serve_developer: false },
      change: expect.stringContaining("restart"),
    });

    const person = await t.person();
    const refused = await fetch(`${t.url}/api/v1/super-admin/settings`, {
      headers: { authorization: `Bearer ${person.pat}` },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: { code: string } }).detail.code).toBe(
      "admin_required",
    );
  });
});
