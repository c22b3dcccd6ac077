// The app status machine S1 over real HTTP on SQLite and PostgreSQL: every guard refuses with the
// state it found and the next command, submit-review runs the pre-review checks and stores them on
// the review, the admin's approve (with and without publish) and reject, unpublish, archive and
// unarchive, and the daily submission limit.
import { describe, expect, it } from "vitest";
import { appsHttp } from "./helpers/apps-http.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

const APPS = "/api/v1/developer/apps";
const ADMIN = "/api/v1/super-admin/apps";
type Row = Record<string, unknown>;
const detail = (body: unknown) =>
  (body as { detail: { code: string; message: string; status?: string } }).detail;
const MANIFEST = { schema: 1, required_executas: [{ tool_id: "web_search" }] };

async function setup(d: (typeof DIALECTS)[number], limits = {}) {
  const t = await appsHttp(d, limits);
  const dev = await t.developer("acme");
  const admin = await t.developer(null, ["aps:dev"], { admin: true });
  const app = (await t.call(dev.pat, "POST", APPS, { body: { slug: "focus-flow", name: "Focus" } }))
    .body as Row;
  const id = app.id as number;
  const path = `${APPS}/${id}`;
  const s = {
    t,
    dev,
    admin,
    id,
    path,
    post: (what: string, pat = dev.pat) => t.call(pat, "POST", `${path}/${what}`),
    decide: (what: "approve" | "reject", body: Row, pat = admin.pat) =>
      t.call(pat, "POST", `${ADMIN}/${id}/${what}`, { body }),
    status: async () => ((await t.call(dev.pat, "GET", path)).body as Row).status,
    version: async (version: string, manifest: object = MANIFEST) =>
      (await t.call(dev.pat, "POST", `${path}/versions`, { body: { version, manifest } }))
        .body as Row,
  };
  return s;
}

function refused(res: { status: number; body: unknown }, state: string, next: string) {
  expect(res.status).toBe(409);
  expect(detail(res.body).code).toBe("app_state");
  expect(detail(res.body).message).toContain(state);
  expect(detail(res.body).message).toContain(next);
}

describe.each(DIALECTS)("app status machine S1 on $name", (d) => {
  it.skipIf(d.skip)(
    "submit-review needs a version and a DRAFT or REJECTED app, and stores the checks",
    async () => {
      const s = await setup(d);
      const empty = await s.post("submit-review");
      expect(empty.status).toBe(409);
      expect(detail(empty.body).message).toContain("提交审核前需至少创建一个版本");
      expect(detail(empty.body).message).toContain("apps publish");
      await s.version("1.0.0");
      const sub = await s.post("submit-review");
      expect(sub.status).toBe(200);
      const review = (sub.body as { review: Row; status: string }).review;
      expect((sub.body as Row).status).toBe("PENDING_REVIEW");
      expect(review).toMatchObject({ status: "pending" });
      // web_search is not in this server's Hub: the manifest check says so.
      expect(review.checks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            check: "manifest",
            severity: "error",
            message: expect.stringContaining("web_search"),
          }),
        ]),
      );
      const stored = await s.t.db
        .selectFrom("app_reviews")
        .selectAll()
        .where("app_id", "=", s.id)
        .execute();
      expect(stored).toHaveLength(1);
      expect(JSON.parse(stored[0]?.checks ?? "[]")).toEqual(review.checks);
      refused(await s.post("submit-review"), "PENDING_REVIEW", "wait for an admin");
    },
  );

  it.skipIf(d.skip)(
    "only an admin decides, only on PENDING_REVIEW, and a rejection needs a reason",
    async () => {
      const s = await setup(d);
      await s.version("1.0.0");
      refused(await s.decide("approve", {}), "DRAFT", "apps submit-review");
      refused(await s.decide("reject", { reason: "no" }), "DRAFT", "apps submit-review");
      await s.post("submit-review");
      const notAdmin = await s.decide("approve", {}, s.dev.pat);
      expect(notAdmin.status).toBe(403);
      expect((await s.decide("reject", {})).status).toBe(400);
      expect((await s.decide("reject", { reason: "  " })).status).toBe(400);
      const rej = await s.decide("reject", { reason: "the icon is blurry" });
      expect(rej.body).toMatchObject({ status: "REJECTED", review_message: "the icon is blurry" });
      expect(((await s.t.call(s.dev.pat, "GET", s.path)).body as Row).review_message).toBe(
        "the icon is blurry",
      );
      // REJECTED may resubmit; release is refused until approved.
      const v = (await s.t.call(s.dev.pat, "GET", `${s.path}/versions`)).body as Row[];
      refused(
        await s.post(`versions/${String(v[0]?.id)}/publish`),
        "REJECTED",
        "apps submit-review",
      );
      expect((await s.post("submit-review")).status).toBe(200);
      refused(
        await s.post(`versions/${String(v[0]?.id)}/publish`),
        "PENDING_REVIEW",
        "awaiting admin approval",
      );
      const ok = await s.decide("approve", { publish: false });
      expect(ok.body).toMatchObject({ status: "APPROVED", is_published: false });
      refused(await s.decide("approve", {}), "APPROVED", "apps release");
      refused(await s.post("submit-review"), "APPROVED", "apps release");
      const reviews = await s.t.db
        .selectFrom("app_reviews")
        .select("status")
        .where("app_id", "=", s.id)
        .orderBy("id")
        .execute();
      expect(reviews.map((r) => r.status)).toEqual(["rejected", "approved"]);
    },
  );

  it.skipIf(d.skip)("approve with publish releases the candidate version", async () => {
    const s = await setup(d);
    await s.version("1.0.0");
    const v2 = await s.version("1.2.0", { ...MANIFEST, tags: ["x"] });
    await s.post("submit-review");
    const ok = await s.decide("approve", { publish: true, notes: "nice" });
    expect(ok.body).toMatchObject({
      status: "PUBLISHED",
      latest_version_id: v2.id,
      review_message: "nice",
    });
    const versions = (await s.t.call(s.dev.pat, "GET", `${s.path}/versions`)).body as Row[];
    expect(versions.map((v) => [v.version, v.is_latest])).toEqual([
      ["1.2.0", true],
      ["1.0.0", false],
    ]);
  });

  it.skipIf(d.skip)("unpublish, archive and unarchive move only from their states", async () => {
    const s = await setup(d);
    refused(await s.post("unpublish"), "DRAFT", "apps submit-review");
    refused(await s.post("unarchive"), "DRAFT", "apps submit-review");
    // Archiving a never-approved app and unarchiving it goes back to DRAFT, not past review.
    expect(((await s.post("archive")).body as Row).status).toBe("ARCHIVED");
    refused(await s.post("archive"), "ARCHIVED", "apps unarchive");
    const writes = await s.t.call(s.dev.pat, "PATCH", s.path, { body: { name: "x" } });
    refused(writes, "ARCHIVED", "apps unarchive");
    refused(await s.post("submit-review"), "ARCHIVED", "apps unarchive");
    expect(((await s.post("unarchive")).body as Row).status).toBe("DRAFT");

    const v = await s.version("1.0.0");
    await s.post("submit-review");
    await s.decide("approve", { publish: true });
    expect(await s.status()).toBe("PUBLISHED");
    expect(((await s.post("unpublish")).body as Row).status).toBe("APPROVED");
    refused(await s.post("unpublish"), "APPROVED", "apps release");
    expect((await s.post(`versions/${String(v.id)}/publish`)).status).toBe(200);
    expect(((await s.post("archive")).body as Row).status).toBe("ARCHIVED");
    refused(await s.post(`versions/${String(v.id)}/publish`), "ARCHIVED", "apps unarchive");
    const back = (await s.post("unarchive")).body as Row;
    expect(back).toMatchObject({ status: "APPROVED", archived_at: null });
  });

  it.skipIf(d.skip)("limits submissions per day", async () => {
    const s = await setup(d, { submissionsPerDay: 1 });
    await s.version("1.0.0");
    expect((await s.post("submit-review")).status).toBe(200);
    await s.decide("reject", { reason: "again" });
    const second = await s.post("submit-review");
    expect(second.status).toBe(429);
    expect(detail(second.body).message).toContain("daily limit");
    expect(await s.status()).toBe("REJECTED");
    s.t.h.clock.advance(86_400_000);
    expect((await s.post("submit-review")).status).toBe(200);
  });

  it.skipIf(d.skip)("refuses a release whose UI bundle is not finalized", async () => {
    const s = await setup(d);
    const ui = {
      schema: 2,
      required_executas: [],
      ui: { bundle: { entry: "index.html" }, views: [{ name: "main", title: "M", default: true }] },
    };
    const v = await s.version("1.0.0", ui);
    await s.post("submit-review");
    await s.decide("approve", {});
    const res = await s.post(`versions/${String(v.id)}/publish`);
    expect(res.status).toBe(409);
    expect(detail(res.body).code).toBe("bundle_incomplete");
    expect(await s.status()).toBe("APPROVED");
  });
});
