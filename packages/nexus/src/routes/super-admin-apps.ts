// The admin's review decisions (S1; reference §Y S1, inventory A32): approve, optionally releasing
// the candidate version (`publish: true`), and reject with a reason the developer reads back as
// `review_message`. Release review (spec 8189): `GET /apps/release-queue` and a pending version's
// `POST /apps/{id}/versions/{vid}/approve-release` (`{notes?}`) or `/reject-release` (`{reason}`).
import { Hono } from "hono";
import { z } from "zod";
import { appView, versionView } from "../apps/app-views.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import { pathId, registry } from "./app-route-helpers.js";
import { DEFAULT_QUEUE_PAGE_SIZE, intQuery, MAX_QUEUE_PAGE_SIZE } from "./app-review.js";

const RELEASE = "/apps/:id{[0-9]+}/versions/:vid{[0-9]+}";

export function superAdminAppRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.post("/apps/:id{[0-9]+}/approve", async (c) => {
    const p = await requireUser(c, deps);
    const body = await readJson(
      c,
      z.object({ publish: z.boolean().optional(), notes: z.string().max(4000).optional() }),
    );
    const row = await registry(deps).status.approve(p.user, pathId(c, "id", "app"), {
      publish: body.publish ?? false,
      notes: body.notes,
    });
    return c.json(appView(row));
  });
  app.post("/apps/:id{[0-9]+}/reject", async (c) => {
    const p = await requireUser(c, deps);
    const body = await readJson(
      c,
      z.object({ reason: z.string().trim().min(1, "say why, the developer reads it").max(4000) }),
    );
    const row = await registry(deps).status.reject(p.user, pathId(c, "id", "app"), body.reason);
    return c.json(appView(row));
  });
  app.get("/apps/release-queue", async (c) => {
    const p = await requireUser(c, deps);
    const page = intQuery(c, "page", 1, 1_000_000);
    const size = intQuery(c, "page_size", DEFAULT_QUEUE_PAGE_SIZE, MAX_QUEUE_PAGE_SIZE);
    return c.json(await registry(deps).releases.queue(p.user, page, size));
  });
  app.post(`${RELEASE}/approve-release`, async (c) => {
    const p = await requireUser(c, deps);
    const body = await readJson(c, z.object({ notes: z.string().max(4000).optional() }));
    const out = await registry(deps).releases.approve(
      p.user,
      pathId(c, "id", "app"),
      pathId(c, "vid", "version"),
      body.notes,
    );
    return c.json({
      ...versionView(out.version, out.app.latest_version_id),
      app_status: out.app.status,
    });
  });
  app.post(`${RELEASE}/reject-release`, async (c) => {
    const p = await requireUser(c, deps);
    const body = await readJson(
      c,
      z.object({ reason: z.string().trim().min(1, "say why, the developer reads it").max(4000) }),
    );
    const out = await registry(deps).releases.reject(
      p.user,
      pathId(c, "id", "app"),
      pathId(c, "vid", "version"),
      body.reason,
    );
    return c.json({
      ...versionView(out.version, out.app.latest_version_id),
      app_status: out.app.status,
    });
  });
  return app;
}
