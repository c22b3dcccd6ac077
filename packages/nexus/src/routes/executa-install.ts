// GET /api/v1/executas/{tool_id}/install[?version=]: the distribution of one frozen version, for
// `anna-app executa install` and any host that installs executas (see hub/installable.ts for who
// may read what).
import { Hono } from "hono";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireUser } from "../http/guards.js";

const TOOL_ID_RE = /^[A-Za-z0-9._-]{1,200}$/;
const VERSION_RE = /^[0-9A-Za-z.+-]{1,64}$/;

export function executaInstallRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/:toolId/install", async (c) => {
    const p = await requireUser(c, deps);
    if (!deps.hub)
      throw new NexusError("unavailable", "the Executa Hub is not enabled on this server");
    const toolId = c.req.param("toolId");
    if (!TOOL_ID_RE.test(toolId))
      throw new NexusError(
        "validation_failed",
        "tool_id: must be 1–200 of A-Z, a-z, 0-9, '.', '_', '-'",
      );
    const version = c.req.query("version");
    if (version !== undefined && !VERSION_RE.test(version))
      throw new NexusError("validation_failed", "version: must be a SemVer such as 1.2.0");
    return c.json(await deps.hub.installable(p.user, toolId, version));
  });
  return app;
}
