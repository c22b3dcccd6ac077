// The developer's apps at /api/v1/developer/apps (real-world-cli.md §3 A1–A8, A13–A16, A20–A23,
// A25, A26; inventory A2–A6, A23): bare arrays for lists, look-up by `?slug=`, JSON-number ids,
// upper-case status, `x-anna-idempotent: hit` on a retried version create or unchanged push.
import {
  APP_CATEGORIES,
  APP_DESCRIPTION_MAX_CHARS,
  APP_NAME_MAX_CHARS,
  APP_SCREENSHOTS_MAX,
  APP_SLUG_PATTERN,
  APP_TAGLINE_MAX_CHARS,
  APP_URL_MAX_CHARS,
} from "@anna-ai/app-schema";
import { Hono } from "hono";
import { z } from "zod";
import { appView, iso, versionView } from "../apps/app-views.js";
import { checkManifest, issueView } from "../apps/manifest-gate.js";
import { receiveMultipart } from "../apps/multipart-upload.js";
import { latestPublished } from "../apps/registry-deps.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { readJson } from "../http/json-body.js";
import { appBundleRoutes } from "./app-bundles.js";
import { developer, HIT_HEADER, pathId, registry } from "./app-route-helpers.js";

const ID = ":id{[0-9]+}";
const VID = ":vid{[0-9]+}";

const SLUG = z.string().regex(APP_SLUG_PATTERN, {
  error: "must be 3–80 of a-z 0-9 -, starting and ending with a letter or digit (e.g. focus-flow)",
});
const text = (max: number) => z.string().max(max, `at most ${max} characters`);
/** http(s) links; images may also be inline `data:image/…` URLs. "" or null clears the field. */
const url = (images: boolean) =>
  text(APP_URL_MAX_CHARS)
    .refine(
      (v) =>
        v === "" ||
        /^https?:\/\//i.test(v) ||
        (images && /^data:image\/(png|jpeg|webp|gif)[;,]/i.test(v)),
      {
        error: images ? "must be an http(s) URL or a data:image/ URL" : "must be an http(s) URL",
      },
    )
    .nullish();
const CATEGORY = z
  .union([z.enum(APP_CATEGORIES), z.literal("")])
  .nullish()
  .transform((v) => (v === "" ? null : v));

const Listing = z.object({
  name: text(APP_NAME_MAX_CHARS).trim().min(1, "must not be empty").optional(),
  category: CATEGORY,
  tagline: text(APP_TAGLINE_MAX_CHARS).nullish(),
  description: text(APP_DESCRIPTION_MAX_CHARS).nullish(),
  logo_url: url(true),
  cover_url: url(true),
  homepage_url: url(false),
  support_url: url(false),
  privacy_url: url(false),
  screenshots: z
    .array(url(true).unwrap().unwrap())
    .max(APP_SCREENSHOTS_MAX, `at most ${APP_SCREENSHOTS_MAX} screenshots`)
    .nullish(),
});
const CreateBody = Listing.extend({ slug: SLUG });
const PatchBody = Listing.extend({ slug: SLUG.optional() });
const OBJECT = z.record(z.string(), z.unknown());
const CONTENT_HASH = z.string().regex(/^[0-9a-fA-F]{16,128}$/, "must be a hex digest");
const VersionBody = z.object({
  version: z.string().max(64),
  changelog: text(20000).nullish(),
  manifest: OBJECT,
});
const WorkingBody = z.object({
  manifest: OBJECT,
  changelog: text(20000).nullish(),
  content_hash: CONTENT_HASH,
});
const CutBody = z.object({ version: z.string().max(64), changelog: text(20000).nullish() });

function contentHashQuery(c: Ctx): string | undefined {
  const raw = c.req.query("content_hash");
  if (raw === undefined || raw === "") return undefined;
  if (!CONTENT_HASH.safeParse(raw).success) {
    throw new NexusError(
      "validation_failed",
      "content_hash: must be a hex digest (sha256 of the canonical manifest)",
    );
  }
  return raw.toLowerCase();
}

function ifMatch(c: Ctx): number | undefined {
  const raw = c.req.header("if-match");
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = raw
    .trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1");
  if (!/^[0-9]{1,15}$/.test(value)) {
    throw new NexusError(
      "validation_failed",
      `If-Match: must be the working draft's integer revision (got ${JSON.stringify(raw)})`,
    );
  }
  return Number(value);
}

export function developerAppRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const r = () => registry(deps);
  const appId = (c: Ctx) => pathId(c, "id", "app");

  /** The app with its latest version string, as every app response carries it. */
  const appBody = async (row: Parameters<typeof appView>[0]) => {
    const latest =
      row.latest_version_id === null
        ? null
        : ((
            await r()
              .deps.db.selectFrom("app_versions")
              .select("version")
              .where("id", "=", row.latest_version_id)
              .executeTakeFirst()
          )?.version ?? null);
    return appView(row, latest);
  };

  app.post("/validate-manifest", async (c) => {
    await developer(c, deps);
    const body = await readJson(c, OBJECT);
    // `{manifest: {...}}` or the manifest itself.
    const raw =
      typeof body.manifest === "object" && body.manifest !== null && body.schema === undefined
        ? body.manifest
        : body;
    const report = checkManifest(raw);
    const issues = report.issues.map(issueView);
    return c.json({
      valid: report.valid,
      issues,
      errors: issues.filter((i) => i.severity === "error"),
      warnings: issues.filter((i) => i.severity === "warning"),
    });
  });

  // A1: a bare array; `?slug=` filters (the CLI takes `[0]`).
  app.get("/", async (c) => {
    const p = await developer(c, deps);
    const rows = await r().apps.list(p.user, c.req.query("slug") || undefined);
    return c.json(await Promise.all(rows.map(appBody)));
  });

  app.post("/", async (c) => {
    const p = await developer(c, deps);
    const body = await readJson(c, CreateBody);
    const row = await r().apps.create(p.user, { ...body, name: body.name ?? body.slug });
    return c.json(await appBody(row), 201);
  });

  app.get(`/${ID}`, async (c) => {
    const p = await developer(c, deps);
    return c.json(await appBody(await r().apps.get(p.user, appId(c))));
  });

  app.patch(`/${ID}`, async (c) => {
    const p = await developer(c, deps);
    const body = await readJson(c, PatchBody);
    return c.json(await appBody(await r().apps.patch(p.user, appId(c), body)));
  });

  app.delete(`/${ID}`, async (c) => {
    const p = await developer(c, deps);
    await r().apps.remove(p.user, appId(c));
    return c.body(null, 204);
  });

  const image = (kind: "logo" | "screenshot") => async (c: Ctx) => {
    const p = await developer(c, deps);
    const limits = r().deps.limits;
    const max = kind === "logo" ? limits.logoMaxBytes : limits.screenshotMaxBytes;
    const upload = await receiveMultipart(c.req.header("content-type"), c.req.raw.body, {
      fileField: "file",
      maxFileBytes: () => max,
    });
    try {
      const origin = c.get("ownOrigin");
      if (kind === "logo") {
        return c.json(
          { logo_url: await r().apps.setLogo(p.user, appId(c), origin, upload.file) },
          201,
        );
      }
      return c.json(
        { screenshot_url: await r().apps.addScreenshot(p.user, appId(c), origin, upload.file) },
        201,
      );
    } finally {
      await upload.cleanup();
    }
  };
  app.post(`/${ID}/logo`, image("logo"));
  app.post(`/${ID}/screenshots`, image("screenshot"));

  // A6: a bare array, newest SemVer first.
  app.get(`/${ID}/versions`, async (c) => {
    const p = await developer(c, deps);
    const { app: row, versions } = await r().versions.list(p.user, appId(c));
    const latest = row.latest_version_id ?? latestPublished(versions)?.id ?? null;
    return c.json(versions.map((v) => versionView(v, latest)));
  });

  app.post(`/${ID}/versions`, async (c) => {
    const p = await developer(c, deps);
    const body = await readJson(c, VersionBody);
    const { value, hit } = await r().versions.create(
      p.user,
      appId(c),
      { version: body.version, changelog: body.changelog ?? undefined, manifest: body.manifest },
      contentHashQuery(c),
    );
    if (hit) c.header(HIT_HEADER, "hit");
    const row = await r().apps.get(p.user, appId(c));
    return c.json(versionView(value, row.latest_version_id), hit ? 200 : 201);
  });

  app.post(`/${ID}/versions/${VID}/publish`, async (c) => {
    const p = await developer(c, deps);
    const { app: row, version } = await r().versions.publish(
      p.user,
      appId(c),
      pathId(c, "vid", "version"),
    );
    return c.json({ ...versionView(version, row.latest_version_id), app_status: row.status });
  });

  // A13–A16: the working draft.
  app.put(`/${ID}/working`, async (c) => {
    const p = await developer(c, deps);
    const body = await readJson(c, WorkingBody);
    const out = await r().working.put(
      p.user,
      appId(c),
      {
        manifest: body.manifest,
        changelog: body.changelog ?? undefined,
        content_hash: body.content_hash.toLowerCase(),
      },
      ifMatch(c),
    );
    if (out.unchanged) c.header(HIT_HEADER, "hit");
    return c.json({
      app_id: out.row.app_id,
      revision: out.row.revision,
      content_hash: out.row.content_hash,
      unchanged: out.unchanged,
      bundle_status: out.bundleStatus,
      dirty_vs_latest_cut: out.row.cut_version_id === null,
      updated_at: iso(out.row.updated_at),
    });
  });

  app.get(`/${ID}/working`, async (c) => {
    const p = await developer(c, deps);
    const { row, bundleStatus } = await r().working.get(p.user, appId(c));
    return c.json({
      app_id: row.app_id,
      revision: row.revision,
      content_hash: row.content_hash,
      manifest: JSON.parse(row.manifest) as unknown,
      changelog: row.changelog,
      dirty_vs_latest_cut: row.cut_version_id === null,
      cut_version_id: row.cut_version_id,
      bundle_status: bundleStatus,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    });
  });

  app.delete(`/${ID}/working`, async (c) => {
    const p = await developer(c, deps);
    await r().working.discard(p.user, appId(c));
    return c.body(null, 204);
  });

  app.post(`/${ID}/working/cut`, async (c) => {
    const p = await developer(c, deps);
    const body = await readJson(c, CutBody);
    const out = await r().working.cut(p.user, appId(c), {
      version: body.version,
      changelog: body.changelog ?? undefined,
    });
    const row = await r().apps.get(p.user, appId(c));
    return c.json(
      {
        ...versionView(out.version, row.latest_version_id),
        version_id: out.version.id,
        frozen_executas: out.frozen,
        bundle: out.bundle
          ? {
              object_prefix: out.bundle.object_prefix,
              sha256_manifest: out.bundle.sha256_manifest,
              file_count: out.bundle.file_count,
              status: "bundle_ready",
            }
          : null,
      },
      201,
    );
  });

  // S1 (A20–A23).
  app.post(`/${ID}/submit-review`, async (c) => {
    const p = await developer(c, deps);
    const { app: row, review, findings } = await r().status.submitReview(p.user, appId(c));
    return c.json({
      ...(await appBody(row)),
      review: {
        id: review.id,
        status: review.status,
        version_id: review.version_id,
        submitted_at: iso(review.submitted_at),
        checks: findings,
      },
    });
  });
  for (const action of ["unpublish", "archive", "unarchive"] as const) {
    app.post(`/${ID}/${action}`, async (c) => {
      const p = await developer(c, deps);
      return c.json(await appBody(await r().status[action](p.user, appId(c))));
    });
  }

  app.route(`/${ID}`, appBundleRoutes(deps));
  return app;
}
