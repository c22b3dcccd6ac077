// The developer profile: the handle (rules in auth/handle-rules.ts), the Developer Terms a person
// reads before activating (public, so the card can show them), and self-serve activation.
// PUT /api/v1/developer/profile/handle is answered with `detail.code` + `detail.message`, which
// the published CLI prints (real-world-cli.md §2).
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireSession, requireUser } from "../http/guards.js";
import { userView } from "../http/views.js";
import { readJson } from "../http/json-body.js";
import { normaliseHandle } from "../auth/handle-rules.js";

export function handleRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.put("/profile/handle", async (c) => {
    const p = await requireUser(c, deps);
    const { handle } = await readJson(c, z.object({ handle: z.string().max(64) }));
    const h = normaliseHandle(handle);
    await deps.stores.users.setHandle(p.user.id, h, deps.clock.now());
    return c.json({ handle: h });
  });

  // What the activation card shows: the version activation checks, the text, whether self-serve
  // is on here (off: an admin grants developer status). Public: the terms are no secret.
  app.get("/terms", (c) =>
    c.json({
      version: deps.config.developerTosVersion,
      self_serve: deps.config.selfServeDeveloper,
      markdown: deps.config.developerTerms,
    }),
  );

  // Self-serve Verified Developer activation (spec R3, S3); checks in the spec's order.
  app.post("/profile/activate", async (c) => {
    if (!deps.config.selfServeDeveloper)
      throw new NexusError("not_found", "self-serve activation is disabled here");
    const p = requireSession(await requireUser(c, deps));
    const body = await readJson(
      c,
      z.object({
        tos_version: z.string().max(64).optional(),
        accept_tos: z.boolean().optional(),
        handle: z.string().max(64).optional(),
      }),
    );
    if (!p.user.isVerified)
      throw new NexusError("EMAIL_NOT_VERIFIED", "verify your email address first");
    if (p.user.developerState === "revoked") {
      throw new NexusError(
        "DEVELOPER_REVOKED",
        "developer access was revoked; only an admin can restore it",
      );
    }
    if (body.accept_tos !== true || !body.tos_version) {
      throw new NexusError("TOS_NOT_ACCEPTED", "accept the Developer Terms of Service");
    }
    if (body.tos_version !== deps.config.developerTosVersion) {
      throw new NexusError(
        "TOS_VERSION_MISMATCH",
        "the Developer Terms of Service changed; review and accept the current version",
        {
          details: { current_tos_version: deps.config.developerTosVersion },
        },
      );
    }
    const now = deps.clock.now();
    const handle = body.handle === undefined ? undefined : normaliseHandle(body.handle);
    await deps.stores.transaction(async (tx) => {
      if (handle !== undefined && handle !== p.user.handle) {
        await tx.users.setHandle(p.user.id, handle, now);
      }
      await tx.users.grantDeveloper(p.user.id, body.tos_version as string, now);
    });
    const user = await deps.stores.users.findById(p.user.id);
    return c.json(userView(user!));
  });
  return app;
}
