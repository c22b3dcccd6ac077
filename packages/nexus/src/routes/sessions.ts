// A person's signed-in browsers, for the settings page:
//   GET    /api/v1/auth/sessions                → {sessions: [{id, created_at, expires_at, current}]}
//   DELETE /api/v1/auth/sessions/{id}           → 204; another person's or an ended one is 404
//   POST   /api/v1/auth/sessions/revoke-others  → {revoked: n}: every session but this one
// Browser sessions only (a PAT is refused): "this one" is the cookie's session, and a leaked
// token must not be able to sign its owner out everywhere. Token hashes never leave the store.
import { Hono } from "hono";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireSession, requireUser } from "../http/guards.js";
import { iso } from "../http/views.js";

export function sessionRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/sessions", async (c) => {
    const p = requireSession(await requireUser(c, deps));
    const list = await deps.stores.sessions.listForUser(p.user.id, deps.clock.now(), p.sessionHash);
    return c.json({
      sessions: list.map((s) => ({
        id: s.id,
        created_at: iso(s.createdAt),
        expires_at: iso(s.expiresAt),
        current: s.current,
      })),
    });
  });

  app.delete("/sessions/:id{[0-9]+}", async (c) => {
    const p = requireSession(await requireUser(c, deps));
    const id = Number(c.req.param("id"));
    if (!(await deps.stores.sessions.revokeById(p.user.id, id, deps.clock.now()))) {
      throw new NexusError(
        "not_found",
        `no active session ${id} of yours; list them with GET /api/v1/auth/sessions`,
      );
    }
    return c.body(null, 204);
  });

  app.post("/sessions/revoke-others", async (c) => {
    const p = requireSession(await requireUser(c, deps));
    const revoked = await deps.stores.sessions.revokeOthers(
      p.user.id,
      p.sessionHash,
      deps.clock.now(),
    );
    deps.logger.log("info", "other sessions revoked", { user_id: p.user.id, revoked });
    return c.json({ revoked });
  });

  return app;
}
