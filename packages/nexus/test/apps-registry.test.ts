// The developer apps API over real HTTP on SQLite and PostgreSQL (real-world-cli.md A1–A8,
// A13–A16, A25, A26): look-up by slug, create and its guards and fair-use limits, listing edits,
// rename-slug, delete vs installs, versions with content_hash idempotence, release, the working
// draft and cut (frozen executas), listing images in the blob store.
import { describe, expect, it } from "vitest";
import { installApp } from "../src/runtime/app-catalog-writes.js";
import { type AppsHttp, appsHttp } from "./helpers/apps-http.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

const APPS = "/api/v1/developer/apps";
type Row = Record<string, unknown>;
const detail = (body: unknown) => (body as { detail: { code: string; message: string } }).detail;
const MANIFEST = { schema: 1, required_executas: [{ tool_id: "web_search" }] };

async function createApp(t: AppsHttp, pat: string, slug = "focus-flow") {
  const res = await t.call(pat, "POST", APPS, {
    body: { slug, name: "Focus Flow", category: "productivity" },
  });
  expect(res.status).toBe(201);
  return res.body as Row;
}

/** Submit, then approve as an admin: the app may release versions. */
async function approve(t: AppsHttp, pat: string, id: unknown) {
  const admin = await t.developer(null, ["aps:dev"], { admin: true });
  expect((await t.call(pat, "POST", `${APPS}/${String(id)}/submit-review`)).status).toBe(200);
  const res = await t.call(admin.pat, "POST", `/api/v1/super-admin/apps/${String(id)}/approve`, {
    body: {},
  });
  expect(res.status).toBe(200);
  return admin;
}

describe.each(DIALECTS)("developer apps on $name", (d) => {
  it.skipIf(d.skip)(
    "creates an app and finds it by slug as a bare array, only the owner's",
    async () => {
      const t = await appsHttp(d);
      const dev = await t.developer("acme");
      const app = await createApp(t, dev.pat);
      expect(typeof app.id).toBe("number");
      expect(app).toMatchObject({
        slug: "focus-flow",
        status: "DRAFT",
        handle: "acme",
        name: "Focus Flow",
        is_published: false,
      });

      const found = await t.call(dev.pat, "GET", APPS, { query: { slug: "focus-flow" } });
      expect(found.status).toBe(200);
      expect(found.body).toEqual([expect.objectContaining({ id: app.id, slug: "focus-flow" })]);
      expect((await t.call(dev.pat, "GET", APPS, { query: { slug: "other" } })).body).toEqual([]);
      expect((await t.call(dev.pat, "GET", APPS)).body).toHaveLength(1);

      const other = await t.developer("zeta");
      expect(
        (await t.call(other.pat, "GET", APPS, { query: { slug: "focus-flow" } })).body,
      ).toEqual([]);
      expect((await t.call(other.pat, "GET", `${APPS}/${String(app.id)}`)).status).toBe(404);
      expect(
        (await t.call(other.pat, "PATCH", `${APPS}/${String(app.id)}`, { body: { name: "x" } }))
          .status,
      ).toBe(404);
      // A slug is unique across the store.
      const taken = await t.call(other.pat, "POST", APPS, {
        body: { slug: "focus-flow", name: "F" },
      });
      expect(taken.status).toBe(409);
      expect(detail(taken.body).code).toBe("slug_taken");
    },
  );

  it.skipIf(d.skip)(
    "refuses a create without a handle, developer status, scope or a valid listing",
    async () => {
      const t = await appsHttp(d);
      const noHandle = await t.developer(null);
      const r1 = await t.call(noHandle.pat, "POST", APPS, { body: { slug: "abc", name: "A" } });
      expect(r1.status).toBe(409);
      expect(detail(r1.body).code).toBe("HANDLE_REQUIRED");
      expect(detail(r1.body).message).toContain("anna-app account set-handle");

      const notDev = await t.developer("nodev", ["aps:dev"], { developer: false });
      const r2 = await t.call(notDev.pat, "POST", APPS, { body: { slug: "abc", name: "A" } });
      expect(r2.status).toBe(403);
      expect(detail(r2.body).message).toMatch(/verified developer/i);

      const noScope = await t.developer("noscope", ["executas:publish"]);
      const r3 = await t.call(noScope.pat, "POST", APPS, { body: { slug: "abc", name: "A" } });
      expect(r3.status).toBe(403);
      expect((r3.body as { detail: Row }).detail).toMatchObject({
        detail: "missing_scope",
        missing: ["aps:dev"],
      });

      expect((await t.call("anna_pat_nope", "GET", APPS)).status).toBe(401);
      const dev = await t.developer("acme");
      for (const body of [
        { slug: "ab", name: "A" },
        { slug: "-abc", name: "A" },
        { slug: "Abc", name: "A" },
        { slug: "abc", name: "x".repeat(121) },
        { slug: "abc", name: "A", tagline: "x".repeat(161) },
        { slug: "abc", name: "A", category: "games" },
        { slug: "abc", name: "A", homepage_url: "javascript:alert(1)" },
      ]) {
        const res = await t.call(dev.pat, "POST", APPS, { body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      // 80 characters and a slug-only body (the name falls back to the slug) are fine.
      const long = await t.call(dev.pat, "POST", APPS, { body: { slug: "a".repeat(80) } });
      expect(long.status).toBe(201);
      expect((long.body as Row).name).toBe("a".repeat(80));
    },
  );

  it.skipIf(d.skip)("holds the daily create limit and the active-app cap", async () => {
    const t = await appsHttp(d, { createsPerDay: 2, activeApps: 2 });
    const dev = await t.developer("acme");
    const first = await createApp(t, dev.pat, "app-one");
    await createApp(t, dev.pat, "app-two");
    const cap = await t.call(dev.pat, "POST", APPS, { body: { slug: "app-three", name: "3" } });
    expect(cap.status).toBe(409);
    expect(detail(cap.body).code).toBe("app_limit_reached");
    expect(detail(cap.body).message).toContain("archive");
    expect((await t.call(dev.pat, "POST", `${APPS}/${String(first.id)}/archive`)).status).toBe(200);
    const daily = await t.call(dev.pat, "POST", APPS, { body: { slug: "app-three", name: "3" } });
    expect(daily.status).toBe(429);
    expect(detail(daily.body).message).toContain("daily limit");
    t.h.clock.advance(86_400_000);
    expect(
      (await t.call(dev.pat, "POST", APPS, { body: { slug: "app-three", name: "3" } })).status,
    ).toBe(201);
  });

  it.skipIf(d.skip)(
    "edits the listing, clears URL fields and renames the slug only before the first release",
    async () => {
      const t = await appsHttp(d);
      const dev = await t.developer("acme");
      const app = await createApp(t, dev.pat);
      const path = `${APPS}/${String(app.id)}`;
      const patched = await t.call(dev.pat, "PATCH", path, {
        body: {
          name: "Focus",
          tagline: "Deep work",
          homepage_url: "https://x.example",
          screenshots: ["https://x.example/1.png"],
        },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        name: "Focus",
        tagline: "Deep work",
        homepage_url: "https://x.example",
        screenshots: ["https://x.example/1.png"],
      });
      const cleared = await t.call(dev.pat, "PATCH", path, {
        body: { name: "Focus", homepage_url: "" },
      });
      expect(cleared.body).toMatchObject({ homepage_url: null, tagline: "Deep work" });
      const seven = await t.call(dev.pat, "PATCH", path, {
        body: { screenshots: Array(7).fill("https://x.example/a.png") },
      });
      expect(seven.status).toBe(400);
      expect(detail(seven.body).message).toContain("at most 6");

      const renamed = await t.call(dev.pat, "PATCH", path, { body: { slug: "focus-two" } });
      expect(renamed.status).toBe(200);
      expect((renamed.body as Row).slug).toBe("focus-two");

      await t.call(dev.pat, "POST", `${path}/versions`, {
        body: { version: "1.0.0", manifest: MANIFEST },
      });
      await approve(t, dev.pat, app.id);
      const v = (await t.call(dev.pat, "GET", `${path}/versions`)).body as Row[];
      expect(
        (await t.call(dev.pat, "POST", `${path}/versions/${String(v[0]?.id)}/publish`)).status,
      ).toBe(200);
      const late = await t.call(dev.pat, "PATCH", path, { body: { slug: "focus-three" } });
      expect(late.status).toBe(409);
      expect(detail(late.body).code).toBe("app_state");
      expect(detail(late.body).message).toContain("PUBLISHED");
    },
  );

  it.skipIf(d.skip)(
    "refuses to delete an app users have installed, and deletes one they have not",
    async () => {
      const t = await appsHttp(d);
      const dev = await t.developer("acme");
      const app = await createApp(t, dev.pat);
      const path = `${APPS}/${String(app.id)}`;
      const user = await t.developer(null);
      await installApp(t.db, { userId: user.userId, appId: app.id as number, version: "1.0.0" }, 0);
      const refused = await t.call(dev.pat, "DELETE", path);
      expect(refused.status).toBe(409);
      expect(detail(refused.body).message).toContain("apps archive");
      expect((await t.call(dev.pat, "GET", path)).status).toBe(200);
      const other = await createApp(t, dev.pat, "other-app");
      expect((await t.call(dev.pat, "DELETE", `${APPS}/${String(other.id)}`)).status).toBe(204);
      expect((await t.call(dev.pat, "GET", `${APPS}/${String(other.id)}`)).status).toBe(404);
    },
  );
});
