// Developer handles (spec R1/R4, ruling V1): 2–39 chars, GitHub-username grammar, reserved words.
// PUT /api/v1/developer/profile/handle is answered with `detail.code` + `detail.message`, which
// the published CLI prints (real-world-cli.md §2).
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireSession, requireUser } from "../http/guards.js";
import { userView } from "../http/views.js";
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
    await deps.stores.transaction(async (tx) => {
      if (body.handle !== undefined) {
        const h = body.handle.trim().toLowerCase();
        if (!HANDLE_RE.test(h) || RESERVED_HANDLES.has(h)) {
          throw new NexusError("validation_failed", "invalid or reserved handle", {
            details: { reason: "HANDLE_INVALID" },
          });
        }
        await tx.users.setHandle(p.user.id, h, now);
      }
      await tx.users.grantDeveloper(p.user.id, body.tos_version as string, now);
    });
    const user = await deps.stores.users.findById(p.user.id);
    return c.json(userView(user!));
  });
  return app;
}
