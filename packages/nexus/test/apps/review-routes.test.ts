// The review pages on each dialect: the admin queue (pending only, oldest first, paginated),
// the reviewer's page of one app (manifest diff against the live version, tools, requested Host
// API and permissions, bundle, findings), the author's page, and who may see which.
import { beforeAll, describe, expect, it } from "vitest";
import type { ReviewFinding } from "../../src/apps/pre-review.js";
import type { reviewerView } from "../../src/apps/review-view.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { registry, tempBlobStore, uiManifest, type Registry } from "../helpers/app-bundles.js";
import { detail, harness, type Harness } from "../helpers/harness.js";

useDialectCleanup();

const QUEUE = "/api/v1/super-admin/apps/review-queue";

type ReviewerView = NonNullable<Awaited<ReturnType<typeof reviewerView>>> & Record<string, unknown>;

const LIVE = uiManifest(
  { permissions: ["chat.read"], required_executas: ["web_search"] },
  { host_api: { storage: ["get", "set"] } },
);
const CANDIDATE = uiManifest(
  {
    permissions: ["chat.read", "chat.write_message"],
    required_executas: ["web_search", "bundled:summarizer"],
    optional_executas: [{ tool_id: "tool-pdf" }],
  },
  { host_api: { storage: ["get", "set", "delete"], llm: ["complete"] } },
);
const FINDINGS: ReviewFinding[] = [
  {
    check: "secrets",
    severity: "error",
    path: "app.js",
    message: "app.js line 2 contains what looks like an AWS access key id",
  },
  { check: "asset-size", severity: "warning", path: "big.png", message: "big.png is 3.0 MiB" },
];

async function userId(h: Harness, cookie: string): Promise<number> {
  return ((await (await h.req("GET", "/api/v1/me", { cookie })).json()) as { id: number }).id;
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(`the review pages on ${dialect.name}`, () => {
    let h: Harness;
    let reg: Registry;
    let admin: string;
    let author: { id: number; cookie: string };
    let other: { id: number; cookie: string };
    let apps: { updated: number; first: number; decided: number };

    beforeAll(async () => {
      const handle = await dialect.open();
      const blobs = await tempBlobStore();
      h = harness(handle, {}, { blobs });
      reg = registry(handle.db, blobs);
      admin = await h.signup("admin@example.com");
      await handle.db
        .updateTable("users")
        .set({ is_admin: 1 })
        .where("id", "=", await userId(h, admin))
        .execute();
      const authorCookie = await h.signup("author@example.com");
      author = { id: await userId(h, authorCookie), cookie: authorCookie };
      const otherCookie = await h.signup("other@example.com");
      other = { id: await userId(h, otherCookie), cookie: otherCookie };

      // An update of a published app: 1.0.0 live, 1.1.0 submitted.
      const updated = await reg.app({
        slug: "updated-app",
        ownerId: author.id,
        status: "PENDING_REVIEW",
      });
      const v1 = await reg.version(updated, { version: "1.0.0", manifest: LIVE, published: true });
      await reg.setLatest(updated, v1);
      const v2 = await reg.version(updated, { version: "1.1.0", manifest: CANDIDATE });
      await reg.db
        .updateTable("app_versions")
        .set({ tool_ids: JSON.stringify({ "bundled:summarizer": "tool-sum-1" }) })
        .where("id", "=", v2)
        .execute();
      await reg.bundle(updated, v2, {
        files: { "index.html": "<p>hi</p>", "app.js": "1" },
        externalOrigins: ["https://api.example.com"],
      });
      await reg.review(updated, v2, {
        submittedBy: author.id,
        submittedAt: 2_000,
        checks: FINDINGS,
      });

      // A first submission, submitted earlier: it comes first.
      const first = await reg.app({
        slug: "first-app",
        ownerId: other.id,
        status: "PENDING_REVIEW",
      });
      const f1 = await reg.version(first, { version: "0.1.0", manifest: LIVE });
      await reg.review(first, f1, { submittedBy: other.id, submittedAt: 1_000 });

      // Decided reviews are not in the queue.
      const decided = await reg.app({
        slug: "decided-app",
        ownerId: author.id,
        status: "REJECTED",
      });
      const d1 = await reg.version(decided, { version: "1.0.0" });
      await reg.review(decided, d1, {
        submittedBy: author.id,
        submittedAt: 500,
        status: "rejected",
        reason: "The logo is blurry; upload a 512 px one.",
        checks: FINDINGS.slice(1),
      });
      await reg.db
        .updateTable("apps")
        .set({ review_message: "The logo is blurry; upload a 512 px one." })
        .where("id", "=", decided)
        .execute();
      apps = { updated, first, decided };
    });

    it("lists pending reviews oldest first, one page at a time", async () => {
      const res = await h.req("GET", QUEUE, { cookie: admin });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: Record<string, unknown>[]; total: number };
      expect(body).toMatchObject({ total: 2, page: 1, page_size: 20 });
      expect(body.items.map((i) => i.slug)).toEqual(["first-app", "updated-app"]);
      expect(body.items[0]).toMatchObject({
        version: "0.1.0",
        is_update: false,
        findings: { error: 0, warning: 0, info: 0 },
      });
      expect(body.items[1]).toMatchObject({
        app_id: apps.updated,
        version: "1.1.0",
        is_update: true,
        submitted_at: new Date(2_000).toISOString(),
        findings: { error: 1, warning: 1, info: 0 },
      });
      const second = (await (
        await h.req("GET", `${QUEUE}?page=2&page_size=1`, { cookie: admin })
      ).json()) as { items: { slug: string }[]; total: number };
      expect(second.items.map((i) => i.slug)).toEqual(["updated-app"]);
      expect(second.total).toBe(2);
      const past = (await (
        await h.req("GET", `${QUEUE}?page=3&page_size=1`, { cookie: admin })
      ).json()) as { items: unknown[] };
      expect(past.items).toEqual([]);
    });

    it("refuses bad paging with the allowed range", async () => {
      for (const q of ["page=0", "page_size=101", "page=abc", "page_size=-1"]) {
        const res = await h.req("GET", `${QUEUE}?${q}`, { cookie: admin });
        expect(res.status, q).toBe(400);
        expect((await detail(res)).message, q).toMatch(/must be a whole number from 1 to/);
      }
    });

    it("shows the reviewer the manifest diff, tools, requested Host API and permissions, bundle and findings", async () => {
      const res = await h.req("GET", `/api/v1/super-admin/apps/${apps.updated}/review`, {
        cookie: admin,
      });
      expect(res.status).toBe(200);
      const view = (await res.json()) as ReviewerView;
      expect(view.app).toMatchObject({
        slug: "updated-app",
        status: "PENDING_REVIEW",
        owner_id: author.id,
      });
      expect(view.candidate).toMatchObject({ version: "1.1.0", published_at: null });
      expect(view.live).toMatchObject({ version: "1.0.0" });
      expect(view.manifest_diff.added).toEqual(
        expect.arrayContaining([
          { path: "/permissions/1", value: "chat.write_message" },
          { path: "/required_executas/1", value: "bundled:summarizer" },
          { path: "/optional_executas", value: [{ tool_id: "tool-pdf" }] },
          { path: "/ui/host_api/llm", value: ["complete"] },
          { path: "/ui/host_api/storage/2", value: "delete" },
        ]),
      );
      expect(view.manifest_diff.removed).toEqual([]);
      expect(view.manifest_diff.changed).toEqual([]);
      expect(view.tools).toEqual({
        required: ["web_search", "bundled:summarizer"],
        optional: ["tool-pdf"],
        bundled: [{ handle: "bundled:summarizer", tool_id: "tool-sum-1" }],
        frozen_executas: [],
      });
      expect(view.requested).toMatchObject({
        host_api_namespaces: ["llm", "storage"],
        permissions: ["chat.read", "chat.write_message"],
        new_host_api_namespaces: ["llm"],
        new_permissions: ["chat.write_message"],
      });
      expect(view.bundle).toMatchObject({
        entry_path: "index.html",
        file_count: 2,
        external_origins: ["https://api.example.com"],
      });
      expect(view.checks).toEqual({
        counts: { error: 1, warning: 1, info: 0 },
        findings: FINDINGS,
      });
      expect(view.review).toMatchObject({ status: "pending", submitted_by_id: author.id });
    });

    it("diffs a first submission against nothing", async () => {
      const view = (await (
        await h.req("GET", `/api/v1/super-admin/apps/${apps.first}/review`, { cookie: admin })
      ).json()) as ReviewerView;
      expect(view.live).toBeNull();
      expect(view.manifest_diff.added.map((a: { path: string }) => a.path)).toEqual(
        expect.arrayContaining(["/permissions", "/ui", "/schema"]),
      );
      expect(view.requested.new_permissions).toEqual(["chat.read"]);
      expect(view.bundle).toBeNull();
    });

    it("shows the author the findings and the reviewer's notes, and no one else", async () => {
      const res = await h.req("GET", `/api/v1/developer/apps/${apps.decided}/review`, {
        cookie: author.cookie,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        slug: "decided-app",
        status: "REJECTED",
        version: "1.0.0",
        review_message: "The logo is blurry; upload a 512 px one.",
        review: { status: "rejected", notes: "The logo is blurry; upload a 512 px one." },
        checks: { counts: { error: 0, warning: 1, info: 0 }, findings: FINDINGS.slice(1) },
      });
      const pending = (await (
        await h.req("GET", `/api/v1/developer/apps/${apps.updated}/review`, {
          cookie: author.cookie,
        })
      ).json()) as { checks: { findings: unknown[] } };
      expect(pending.checks.findings).toEqual(FINDINGS);
      const theirs = await h.req("GET", `/api/v1/developer/apps/${apps.decided}/review`, {
        cookie: other.cookie,
      });
      expect(theirs.status).toBe(404);
      expect((await detail(theirs)).code).toBe("not_found");
      expect((await h.req("GET", `/api/v1/developer/apps/${apps.decided}/review`)).status).toBe(
        401,
      );
      expect(
        (await h.req("GET", `/api/v1/developer/apps/999999/review`, { cookie: author.cookie }))
          .status,
      ).toBe(404);
    });

    it("keeps the admin pages to admins: 401 anonymous, 403 for a developer", async () => {
      for (const path of [QUEUE, `/api/v1/super-admin/apps/${apps.updated}/review`]) {
        expect((await h.req("GET", path)).status, path).toBe(401);
        const res = await h.req("GET", path, { cookie: author.cookie });
        expect(res.status, path).toBe(403);
        expect((await detail(res)).code).toBe("admin_required");
      }
      expect(
        (await h.req("GET", "/api/v1/super-admin/apps/999999/review", { cookie: admin })).status,
      ).toBe(404);
    });
  });
}
