// The admin's review decisions (S1; reference §Y S1, inventory A32): approve, optionally releasing
// the candidate version (`publish: true`), and reject with a reason the developer reads back as
// `review_message`.
import { Hono } from "hono";
import { z } from "zod";
import { appView } from "../apps/app-views.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import { pathId, registry } from "./app-route-helpers.js";

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
  return app;
}
