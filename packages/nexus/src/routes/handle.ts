// Developer handles (spec R1/R4, ruling V1): 2–39 chars, GitHub-username grammar, reserved words.
// PUT /api/v1/developer/profile/handle is answered with `detail.code` + `detail.message`, which
// the published CLI prints (real-world-cli.md §2).
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";

export const HANDLE_RE = /^(?=.{2,39}$)[a-z0-9]+(-[a-z0-9]+)*$/;
export const RESERVED_HANDLES = new Set([
  "anna",
  "official",
  "admin",
  "administrator",
  "root",
  "support",
  "system",
  "nexus",
  "api",
  "www",
  "help",
  "security",
  "staff",
]);

export function handleRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.put("/profile/handle", async (c) => {
    const p = await requireUser(c, deps);
    const { handle } = await readJson(c, z.object({ handle: z.string().max(64) }));
    const h = handle.trim().toLowerCase();
    if (!HANDLE_RE.test(h)) {
      throw new NexusError(
        "validation_failed",
        "a handle is 2–39 characters: lowercase letters, digits and single hyphens",
        { details: { reason: "HANDLE_INVALID" } },
      );
    }
    if (RESERVED_HANDLES.has(h))
      throw new NexusError("validation_failed", `'${h}' is reserved`, {
        details: { reason: "HANDLE_RESERVED" },
      });
    await deps.stores.users.setHandle(p.user.id, h, deps.clock.now());
    return c.json({ handle: h });
  });
  return app;
}
