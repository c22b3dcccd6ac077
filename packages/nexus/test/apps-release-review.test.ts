// Release review (spec 8189–8191, real-world-cli.md A8) over real HTTP on SQLite and PostgreSQL:
// on a server with `releaseReview`, a new version of a live app parks as `pending` while the
// store keeps serving the live one; an admin approves (it goes live) or rejects it with a reason
// the developer reads, and every guard (non-admin, not pending, rejected, unpublish) refuses.
import { describe, expect, it } from "vitest";
import { type AppsHttp, appsHttp } from "./helpers/apps-http.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

const APPS = "/api/v1/developer/apps";
const ADMIN = "/api/v1/super-admin/apps";
type Row = Record<string, unknown>;
const detail = (body: unknown) => (body as { detail: { code: string; message: string } }).detail;
const manifestV = (n: number) => ({
  schema: 1,
  required_executas: [{ tool_id: "web_search" }],
  system_prompt_addendum: `revision ${n}`,
});

/** A PUBLISHED app with 1.0.0 live, on a server that reviews releases unless `review` is false. */
async function liveApp(d: (typeof DIALECTS)[number], review = true) {
  const t = await appsHttp(d, { releaseReview: review });
  const dev = await t.developer("acme");
  const admin = await t.developer(null, ["aps:dev"], { admin: true });
  const created = await t.call(dev.pat, "POST", APPS, {
    body: { slug: "focus-flow", name: "Focus Flow" },
  });
  const id = (created.body as Row).id as number;
  const path = `${APPS}/${id}`;
  const v1 = await t.call(dev.pat, "POST", `${path}/versions`, {
    body: { version: "1.0.0", manifest: manifestV(1) },
  });
  expect(v1.status).toBe(201);
  expect((await t.call(dev.pat, "POST", `${path}/submit-review`)).status).toBe(200);
  const approved = await t.call(admin.pat, "POST", `${ADMIN}/${id}/approve`, {
    body: { publish: true },
  });
  expect((approved.body as Row).status).toBe("PUBLISHED");
  const release = async (version: string, n: number) => {
    const v = await t.call(dev.pat, "POST", `${path}/versions`, {
      body: { version, manifest: manifestV(n) },
    });
    expect(v.status).toBe(201);
    const vid = (v.body as Row).id as number;
    return { vid, res: await t.call(dev.pat, "POST", `${path}/versions/${vid}/publish`) };
  };
  return { t, dev, admin, id, path, release };
}

async function storeLatest(t: AppsHttp, pat: string): Promise<unknown> {
  const res = await t.call(pat, "GET", "/api/v1/store/apps/focus-flow");
  expect(res.status).toBe(200);
  return (res.body as Row).latest_version;
}

describe.each(DIALECTS)("release review on $name", (d) => {
  it.skipIf(d.skip)(
    "parks a new version as pending, keeps the live one serving, and approve makes it live",
    async () => {
      const { t, dev, admin, id, path, release } = await liveApp(d);
      const { vid, res } = await release("1.1.0", 2);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        version: "1.1.0",
        is_latest: false,
        published_at: null,
        release_review_state: "pending",
        app_status: "PUBLISHED",
      });
      expect(await storeLatest(t, dev.pat)).toBe("1.0.0");
      // Releasing again while pending answers the same pending version.
      const again = await t.call(dev.pat, "POST", `${path}/versions/${vid}/publish`);
      expect(again.body).toMatchObject({ release_review_state: "pending", is_latest: false });

      const queue = await t.call(admin.pat, "GET", `${ADMIN}/release-queue`);
      expect(queue.status).toBe(200);
      expect(queue.body).toMatchObject({ total: 1, page: 1 });
      const [item] = (queue.body as { items: Row[] }).items;
      expect(item).toMatchObject({
        app_id: id,
        slug: "focus-flow",
        version_id: vid,
        version: "1.1.0",
        live_version: "1.0.0",
      });
      expect(JSON.stringify(item?.manifest_diff)).toContain("revision 2");

      const ok = await t.call(admin.pat, "POST", `${ADMIN}/${id}/versions/${vid}/approve-release`, {
        body: { notes: "looks good" },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        version: "1.1.0",
        is_latest: true,
        release_review_state: "approved",
        release_review_message: "looks good",
      });
      expect(typeof (ok.body as Row).published_at).toBe("string");
      expect(await storeLatest(t, dev.pat)).toBe("1.1.0");
      expect((await t.call(admin.pat, "GET", `${ADMIN}/release-queue`)).body).toMatchObject({
        total: 0,
        items: [],
      });
      // A decided release cannot be decided again.
      const twice = await t.call(
        admin.pat,
        "POST",
        `${ADMIN}/${id}/versions/${vid}/approve-release`,
      );
      expect(twice.status).toBe(409);
      expect(detail(twice.body).message).toContain("not awaiting release review");
    },
  );

  it.skipIf(d.skip)(
    "rejects with a reason the developer reads, and refuses to release the rejected version",
    async () => {
      const { t, dev, admin, id, path, release } = await liveApp(d);
      const { vid } = await release("1.1.0", 2);
      const reasonless = await t.call(
        admin.pat,
        "POST",
        `${ADMIN}/${id}/versions/${vid}/reject-release`,
        { body: { reason: " " } },
      );
      expect(reasonless.status).toBe(400);
      const no = await t.call(admin.pat, "POST", `${ADMIN}/${id}/versions/${vid}/reject-release`, {
        body: { reason: "the new prompt leaks the system prompt" },
      });
      expect(no.status).toBe(200);
      expect(no.body).toMatchObject({
        release_review_state: "rejected",
        release_review_message: "the new prompt leaks the system prompt",
        is_latest: false,
        published_at: null,
      });
      const versions = (await t.call(dev.pat, "GET", `${path}/versions`)).body as Row[];
      expect(versions.find((v) => v.id === vid)).toMatchObject({
        release_review_state: "rejected",
        release_review_message: "the new prompt leaks the system prompt",
      });
      expect(await storeLatest(t, dev.pat)).toBe("1.0.0");

      const retry = await t.call(dev.pat, "POST", `${path}/versions/${vid}/publish`);
      expect(retry.status).toBe(409);
      expect(detail(retry.body).code).toBe("release_rejected");
      expect(detail(retry.body).message).toContain("leaks the system prompt");
      expect(detail(retry.body).message).toContain("--bump patch");
      const late = await t.call(
        admin.pat,
        "POST",
        `${ADMIN}/${id}/versions/${vid}/approve-release`,
      );
      expect(late.status).toBe(409);
    },
  );

  it.skipIf(d.skip)("only admins see the queue and decide", async () => {
    const { t, dev, id, release } = await liveApp(d);
    const { vid } = await release("1.1.0", 2);
    const queue = await t.call(dev.pat, "GET", `${ADMIN}/release-queue`);
    expect(queue.status).toBe(403);
    expect(detail(queue.body).code).toBe("admin_required");
    for (const action of ["approve-release", "reject-release"]) {
      const res = await t.call(dev.pat, "POST", `${ADMIN}/${id}/versions/${vid}/${action}`, {
        body: { reason: "mine" },
      });
      expect(res.status).toBe(403);
    }
    const missing = await t.call(dev.pat, "GET", `${APPS}/${id}/versions`);
    expect((missing.body as Row[]).find((v) => v.id === vid)).toMatchObject({
      release_review_state: "pending",
    });
  });

  it.skipIf(d.skip)("unpublishing does not let a release skip the review", async () => {
    const { t, dev, admin, id, path, release } = await liveApp(d);
    expect((await t.call(dev.pat, "POST", `${path}/unpublish`)).status).toBe(200);
    const { vid, res } = await release("1.1.0", 2);
    expect(res.body).toMatchObject({ release_review_state: "pending", app_status: "APPROVED" });
    const ok = await t.call(admin.pat, "POST", `${ADMIN}/${id}/versions/${vid}/approve-release`);
    expect(ok.body).toMatchObject({ is_latest: true, app_status: "PUBLISHED" });
    const unknown = await t.call(
      admin.pat,
      "POST",
      `${ADMIN}/${id}/versions/999999/approve-release`,
    );
    expect(unknown.status).toBe(404);
  });

  it.skipIf(d.skip)("without releaseReview a new version goes live at once", async () => {
    const { t, dev, release } = await liveApp(d, false);
    const { res } = await release("1.1.0", 2);
    expect(res.body).toMatchObject({ is_latest: true, release_review_state: null });
    expect(await storeLatest(t, dev.pat)).toBe("1.1.0");
  });
});
