// The review pages over HTTP. Admins: `GET /api/v1/super-admin/apps/review-queue` (pending
// submissions, oldest first, `?page=&page_size=`) and `GET /api/v1/super-admin/apps/{id}/review`
// (the reviewer's page: manifest diff against the live version, tools, requested Host API and
// permissions, bundle, findings). Authors: `GET /api/v1/developer/apps/{id}/review` (their app's
// findings and the reviewer's notes). A signed-in non-admin gets 403 on the admin routes; an
// app that is not the caller's is 404 on the author's, as if it did not exist.
import { Hono } from "hono";
import type { Kysely } from "kysely";
import { authorView, appRow, reviewerView, reviewQueue } from "../apps/review-view.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import type { AppDeps, Ctx, Env, Principal } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";
import { rowId } from "../runtime/sql-app-catalog.js";

// Hono ends a param pattern at the first `}`, so no `{m,n}` quantifiers inside one.
const ID = ":id{[0-9]+}";
export const MAX_QUEUE_PAGE_SIZE = 100;
export const DEFAULT_QUEUE_PAGE_SIZE = 20;

async function signedIn(c: Ctx, deps: AppDeps): Promise<Principal> {
  const p = await requireUser(c, deps);
  requireScopes(p, ["aps:dev"]);
  return p;
}

async function requireAdmin(c: Ctx, deps: AppDeps): Promise<Principal> {
  const p = await signedIn(c, deps);
  if (!p.user.isAdmin) {
    throw new NexusError(
      "admin_required",
      "the review queue is for platform admins; an operator grants it with `anna-nexus admin create-user --admin`",
    );
  }
  return p;
}

function appIdOf(c: Ctx): number {
  const id = rowId(c.req.param("id") ?? "");
  if (id === undefined) throw new NexusError("not_found", "no such app");
  return id;
}

/** A positive integer query parameter within `max`, or `fallback` when absent. */
export function intQuery(c: Ctx, name: string, fallback: number, max: number): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return fallback;
  const n = /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : NaN;
  if (!(n <= max)) {
    throw new NexusError(
      "validation_failed",
      `${name} must be a whole number from 1 to ${max} (got ${JSON.stringify(raw.slice(0, 20))})`,
    );
  }
  return n;
}

export function superAdminReviewRoutes(deps: AppDeps, db: Kysely<Database>): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/apps/review-queue", async (c) => {
    await requireAdmin(c, deps);
    const page = intQuery(c, "page", 1, 1_000_000);
    const pageSize = intQuery(c, "page_size", DEFAULT_QUEUE_PAGE_SIZE, MAX_QUEUE_PAGE_SIZE);
    return c.json(await reviewQueue(db, page, pageSize));
  });
  app.get(`/apps/${ID}/review`, async (c) => {
    await requireAdmin(c, deps);
    const view = await reviewerView(db, appIdOf(c));
    if (view === undefined) throw new NexusError("not_found", `no app ${c.req.param("id")}`);
    return c.json(view);
  });
  return app;
}

export function developerReviewRoutes(deps: AppDeps, db: Kysely<Database>): Hono<Env> {
  const app = new Hono<Env>();
  app.get(`/apps/${ID}/review`, async (c) => {
    const p = await signedIn(c, deps);
    const row = await appRow(db, appIdOf(c));
    if (row === undefined || (row.owner_id !== p.user.id && !p.user.isAdmin)) {
      throw new NexusError("not_found", `no app ${c.req.param("id")} of yours`);
    }
    return c.json(await authorView(db, row));
  });
  return app;
}
