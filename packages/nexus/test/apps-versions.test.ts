// App versions, release, the working draft and cut over real HTTP on SQLite and PostgreSQL
// (real-world-cli.md A6–A8, A13–A16, A25, A26, validate-manifest): content_hash idempotence with
// `x-anna-idempotent: hit`, the bump hint, SemVer order and `is_latest`, If-Match revisions,
// cut freezing the owner's bundled executas, listing images kept in the blob store.
import { describe, expect, it } from "vitest";
import { type AppsHttp, appsHttp } from "./helpers/apps-http.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

const APPS = "/api/v1/developer/apps";
type Row = Record<string, unknown>;
const detail = (body: unknown) => (body as { detail: { code: string; message: string } }).detail;
const MANIFEST = { schema: 1, required_executas: [{ tool_id: "web_search" }] };
const manifestV = (n: number) => ({ ...MANIFEST, system_prompt_addendum: `revision ${n}` });
const HASH = (c: string) => c.repeat(64);
const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(64, 7)]);

async function setup(d: (typeof DIALECTS)[number]) {
  const t = await appsHttp(d);
  const dev = await t.developer("acme");
  const res = await t.call(dev.pat, "POST", APPS, {
    body: { slug: "focus-flow", name: "Focus Flow" },
  });
  expect(res.status).toBe(201);
  const id = (res.body as Row).id as number;
  return { t, dev, id, path: `${APPS}/${id}` };
}

async function approve(t: AppsHttp, pat: string, path: string, id: number, publish = false) {
  const admin = await t.developer(null, ["aps:dev"], { admin: true });
  expect((await t.call(pat, "POST", `${path}/submit-review`)).status).toBe(200);
  const res = await t.call(admin.pat, "POST", `/api/v1/super-admin/apps/${id}/approve`, {
    body: { publish },
  });
  expect(res.status).toBe(200);
  return res.body as Row;
}

describe.each(DIALECTS)("app versions on $name", (d) => {
  it.skipIf(d.skip)(
    "creates versions idempotently by content_hash and refuses other content under one",
    async () => {
      const { t, dev, path } = await setup(d);
      const first = await t.call(dev.pat, "POST", `${path}/versions`, {
        query: { content_hash: HASH("a") },
        body: { version: "1.0.0", changelog: "first", manifest: MANIFEST },
      });
      expect(first.status).toBe(201);
      expect(first.hit).toBe(false);
      expect(first.body).toMatchObject({
        version: "1.0.0",
        is_latest: false,
        published_at: null,
        changelog: "first",
      });
      const retry = await t.call(dev.pat, "POST", `${path}/versions`, {
        query: { content_hash: HASH("a") },
        body: { version: "1.0.0", manifest: MANIFEST },
      });
      expect(retry.status).toBe(200);
      expect(retry.hit).toBe(true);
      expect((retry.body as Row).id).toBe((first.body as Row).id);

      const other = await t.call(dev.pat, "POST", `${path}/versions`, {
        query: { content_hash: HASH("b") },
        body: { version: "1.0.0", manifest: manifestV(2) },
      });
      expect(other.status).toBe(409);
      expect(detail(other.body).message).toContain("version 1.0.0");
      expect(detail(other.body).message).toContain("--bump patch");

      const lower = await t.call(dev.pat, "POST", `${path}/versions`, {
        body: { version: "0.9.0", manifest: MANIFEST },
      });
      expect(lower.status).toBe(409);
      expect(detail(lower.body).code).toBe("version_not_greater");
      const notSemver = await t.call(dev.pat, "POST", `${path}/versions`, {
        body: { version: "1.1", manifest: MANIFEST },
      });
      expect(notSemver.status).toBe(400);
      const invalid = await t.call(dev.pat, "POST", `${path}/versions`, {
        body: { version: "1.1.0", manifest: { schema: 1, required_executas: [], colour: "red" } },
      });
      expect(invalid.status).toBe(422);
      expect((invalid.body as { detail: { issues: Row[] } }).detail.issues.length).toBeGreaterThan(
        0,
      );
      const unresolved = await t.call(dev.pat, "POST", `${path}/versions`, {
        body: {
          version: "1.1.0",
          manifest: { schema: 1, required_executas: [{ tool_id: "bundled:weather" }] },
        },
      });
      expect(unresolved.status).toBe(422);
      expect(detail(unresolved.body).message).toContain("bundled:weather");

      await t.call(dev.pat, "POST", `${path}/versions`, {
        body: { version: "1.0.10", manifest: manifestV(3) },
      });
      await t
        .call(dev.pat, "POST", `${path}/versions`, {
          body: { version: "1.0.2", manifest: manifestV(4) },
        })
        .then((r) => expect(r.status).toBe(409));
      const list = await t.call(dev.pat, "GET", `${path}/versions`);
      expect((list.body as Row[]).map((v) => v.version)).toEqual(["1.0.10", "1.0.0"]);
    },
  );

  it.skipIf(d.skip)(
    "releases only an approved app, and is_latest is the highest released SemVer",
    async () => {
      const { t, dev, id, path } = await setup(d);
      const v1 = (
        await t.call(dev.pat, "POST", `${path}/versions`, {
          body: { version: "1.0.0", manifest: MANIFEST },
        })
      ).body as Row;
      const refused = await t.call(dev.pat, "POST", `${path}/versions/${String(v1.id)}/publish`);
      expect(refused.status).toBe(409);
      expect(detail(refused.body).message).toContain(
        "App 必须先通过审核（APPROVED）后才能发布版本",
      );
      expect(detail(refused.body).message).toContain("submit-review");

      await approve(t, dev.pat, path, id);
      const v2 = (
        await t.call(dev.pat, "POST", `${path}/versions`, {
          body: { version: "1.1.0", manifest: manifestV(2) },
        })
      ).body as Row;
      const rel2 = await t.call(dev.pat, "POST", `${path}/versions/${String(v2.id)}/publish`);
      expect(rel2.status).toBe(200);
      expect(rel2.body).toMatchObject({
        version: "1.1.0",
        id: v2.id,
        is_latest: true,
        release_review_state: null,
      });
      expect(typeof (rel2.body as Row).published_at).toBe("string");
      // An older version released later does not take is_latest.
      const rel1 = await t.call(dev.pat, "POST", `${path}/versions/${String(v1.id)}/publish`);
      expect(rel1.body).toMatchObject({ version: "1.0.0", is_latest: false });
      const app = (await t.call(dev.pat, "GET", path)).body as Row;
      expect(app).toMatchObject({
        status: "PUBLISHED",
        latest_version_id: v2.id,
        latest_version: "1.1.0",
        is_published: true,
      });
      expect(typeof app.first_published_at).toBe("string");
      const list = (await t.call(dev.pat, "GET", `${path}/versions`)).body as Row[];
      expect(list.filter((v) => v.is_latest).map((v) => v.version)).toEqual(["1.1.0"]);
      // Releasing again changes nothing.
      expect(
        (await t.call(dev.pat, "POST", `${path}/versions/${String(v2.id)}/publish`)).body,
      ).toMatchObject({ is_latest: true });
    },
  );

  it.skipIf(d.skip)("validates a manifest with the anna-app validate rules", async () => {
    const { t, dev } = await setup(d);
    const ok = await t.call(dev.pat, "POST", `${APPS}/validate-manifest`, {
      body: { manifest: MANIFEST },
    });
    expect(ok.body).toMatchObject({ valid: true, errors: [] });
    const bad = await t.call(dev.pat, "POST", `${APPS}/validate-manifest`, {
      body: { schema: 1, required_executas: [], user_message_prefix_template: "no placeholder" },
    });
    expect((bad.body as Row).valid).toBe(false);
    expect(((bad.body as Row).errors as Row[]).length).toBeGreaterThan(0);
  });

  it.skipIf(d.skip)(
    "keeps logos and screenshots in the blob store and writes only the logo onto the app",
    async () => {
      const { t, dev, path } = await setup(d);
      const logo = await t.upload(dev.pat, `${path}/logo`, {}, { bytes: PNG, type: "image/png" });
      expect(logo.status).toBe(201);
      const url = (logo.body as Row).logo_url as string;
      expect(url).toMatch(/\/api\/v1\/app-media\/[0-9a-f]{64}$/);
      expect(((await t.call(dev.pat, "GET", path)).body as Row).logo_url).toBe(url);
      const image = await fetch(url);
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

      const shot = await t.upload(
        dev.pat,
        `${path}/screenshots`,
        {},
        { bytes: PNG, type: "image/png" },
      );
      expect(shot.status).toBe(201);
      expect((shot.body as Row).screenshot_url).toBe(url);
      expect(((await t.call(dev.pat, "GET", path)).body as Row).screenshots).toEqual([]);

      const svg = await t.upload(
        dev.pat,
        `${path}/logo`,
        {},
        { bytes: "<svg onload='x'/>", type: "image/svg+xml" },
      );
      expect(svg.status).toBe(415);
      expect(detail(svg.body).message).toContain("SVG");
      const big = await t.upload(
        dev.pat,
        `${path}/logo`,
        {},
        { bytes: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]) },
      );
      expect(big.status).toBe(413);
      expect((await t.upload(dev.pat, `${path}/logo`, { other: "x" })).status).toBe(400);
    },
  );
});

describe.each(DIALECTS)("app working draft on $name", (d) => {
  it.skipIf(d.skip)(
    "pushes with revisions, answers an unchanged push, and refuses a stale If-Match",
    async () => {
      const { t, dev, path } = await setup(d);
      expect((await t.call(dev.pat, "GET", `${path}/working`)).status).toBe(404);
      const put = (hash: string, manifest: object, headers?: Record<string, string>) =>
        t.call(dev.pat, "PUT", `${path}/working`, {
          body: { manifest, content_hash: hash },
          ...(headers ? { headers } : {}),
        });
      const first = await put(HASH("a"), MANIFEST);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        revision: 1,
        unchanged: false,
        content_hash: HASH("a"),
        bundle_status: null,
      });
      const same = await put(HASH("a"), MANIFEST);
      expect(same.hit).toBe(true);
      expect(same.body).toMatchObject({ revision: 1, unchanged: true });
      const stale = await put(HASH("b"), manifestV(2), { "If-Match": "0" });
      expect(stale.status).toBe(409);
      expect(detail(stale.body).message).toContain("revision 1");
      const second = await put(HASH("b"), manifestV(2), { "If-Match": "1" });
      expect(second.body).toMatchObject({ revision: 2, unchanged: false });
      expect((await put(HASH("c"), { schema: 3 })).status).toBe(422);
      const got = await t.call(dev.pat, "GET", `${path}/working`);
      expect(got.body).toMatchObject({
        revision: 2,
        dirty_vs_latest_cut: true,
        manifest: manifestV(2),
      });
      expect((await t.call(dev.pat, "DELETE", `${path}/working`)).status).toBe(204);
      expect((await t.call(dev.pat, "GET", `${path}/working`)).status).toBe(404);
      expect((await t.call(dev.pat, "DELETE", `${path}/working`)).status).toBe(404);
    },
  );

  it.skipIf(d.skip)(
    "cuts a revision once, freezing the owner's bundled executas at their newest version",
    async () => {
      const { t, dev, path } = await setup(d);
      // A bundled executa as `executa publish` leaves it: committed, app_bundled (one frozen version).
      const MY = "/api/v1/executas/my";
      const draft = (
        await t.call(dev.pat, "POST", `${MY}/drafts`, {
          body: {
            name: "Weather",
            executa_type: "tool",
            slug_override: "weather",
            idempotency_key: "k".repeat(64),
          },
        })
      ).body as Row;
      const tool = (
        await t.call(dev.pat, "POST", `${MY}/drafts/${String(draft.id)}/commit`, {
          body: { payload: { version: "0.3.0", distribution_type: "uv", package_name: "weather" } },
        })
      ).body as Row;
      // Not promoted yet: no version exists, so cut freezes one.
      const manifest = {
        schema: 1,
        required_executas: [{ tool_id: tool.tool_id }, { tool_id: "web_search" }],
      };
      expect(
        (await t.call(dev.pat, "POST", `${path}/working/cut`, { body: { version: "1.0.0" } }))
          .status,
      ).toBe(404);
      await t.call(dev.pat, "PUT", `${path}/working`, {
        body: { manifest, content_hash: HASH("a"), changelog: "draft notes" },
      });
      const cut = await t.call(dev.pat, "POST", `${path}/working/cut`, {
        body: { version: "1.0.0" },
      });
      expect(cut.status).toBe(201);
      const body = cut.body as Row;
      expect(body).toMatchObject({
        version: "1.0.0",
        bundle: null,
        changelog: "draft notes",
        source: "cut",
      });
      expect(body.version_id).toBe(body.id);
      const frozen = body.frozen_executas as Row[];
      expect(frozen).toEqual([
        { tool_id: tool.tool_id, executa_version_id: expect.any(Number), version: "0.3.0" },
      ]);
      const tv = (await t.call(dev.pat, "GET", `${MY}/tools/${String(tool.id)}/versions`))
        .body as Row[];
      expect(tv.map((v) => v.id)).toEqual([frozen[0]?.executa_version_id]);

      const again = await t.call(dev.pat, "POST", `${path}/working/cut`, {
        body: { version: "1.0.1" },
      });
      expect(again.status).toBe(409);
      expect(detail(again.body).code).toBe("already_cut");
      expect(detail(again.body).message).toContain("1.0.0");
      expect(
        ((await t.call(dev.pat, "GET", `${path}/working`)).body as Row).dirty_vs_latest_cut,
      ).toBe(false);

      await t.call(dev.pat, "PUT", `${path}/working`, {
        body: { manifest: { ...manifest, tags: ["x"] }, content_hash: HASH("b") },
      });
      const dup = await t.call(dev.pat, "POST", `${path}/working/cut`, {
        body: { version: "1.0.0" },
      });
      expect(dup.status).toBe(409);
      expect(detail(dup.body).message).toContain("--bump patch");
      // The released version pins its frozen executa version: the Hub will not yank it.
      await approve(t, dev.pat, path, body.app_id as number, true);
      const yank = await t.call(
        dev.pat,
        "DELETE",
        `${MY}/tools/${String(tool.id)}/versions/${String(frozen[0]?.executa_version_id)}`,
      );
      expect(yank.status).toBe(409);
      expect(detail(yank.body).code).toBe("executa_referenced");
    },
  );

  it.skipIf(d.skip)("refuses to cut a draft whose UI bundle was never uploaded", async () => {
    const { t, dev, path } = await setup(d);
    const ui = {
      schema: 2,
      required_executas: [],
      ui: {
        bundle: { entry: "index.html" },
        views: [{ name: "main", title: "Main", default: true }],
      },
    };
    await t.call(dev.pat, "PUT", `${path}/working`, {
      body: { manifest: ui, content_hash: HASH("a") },
    });
    const cut = await t.call(dev.pat, "POST", `${path}/working/cut`, {
      body: { version: "1.0.0" },
    });
    expect(cut.status).toBe(422);
    expect(detail(cut.body).message).toContain("apps push");
  });
});
