// The credential values a user enters for one of their executas (spec "Credentials": the
// per-plugin settings whose values reach each invoke in `context.credentials`, H10):
//   GET    /api/v1/me/executas/{tool_id}/credentials → declared fields and which are set
//   PUT    /api/v1/me/executas/{tool_id}/credentials {values: {NAME: "…" | null}} → the same view
//   DELETE /api/v1/me/executas/{tool_id}/credentials → clears them all
// No answer ever carries a value. Writes with a cookie pass createApp's CSRF guard like every
// cookie write; a PAT needs `aps:dev`, as the other /me/executas routes.
import { Hono } from "hono";
import { z } from "zod";
import { MAX_CREDENTIAL_FIELDS, type CredentialVault } from "../credentials/credential-vault.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { readJson } from "../http/json-body.js";
import { member, toolIdOf } from "./store.js";

const CredentialsPutBody = z.strictObject({
  values: z
    .record(z.string().min(1).max(200), z.string().nullable())
    .refine((v) => Object.keys(v).length > 0, { message: "name at least one credential" })
    .refine((v) => Object.keys(v).length <= MAX_CREDENTIAL_FIELDS, {
      message: `at most ${MAX_CREDENTIAL_FIELDS} credentials at once`,
    }),
});

function vault(deps: AppDeps): CredentialVault {
  if (!deps.credentials)
    throw new NexusError("unavailable", "executa credentials are not enabled on this server");
  return deps.credentials;
}

export function executaCredentialRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const path = "/me/executas/:toolId/credentials";

  app.get(path, async (c) => {
    const p = await member(c, deps);
    return c.json(await vault(deps).view(p.user.id, toolIdOf(c)));
  });

  app.put(path, async (c) => {
    const p = await member(c, deps);
    const toolId = toolIdOf(c);
    const body = await readJson(c, CredentialsPutBody);
    return c.json(await vault(deps).set(p.user.id, toolId, body.values));
  });

  app.delete(path, async (c) => {
    const p = await member(c, deps);
    return c.json(await vault(deps).clear(p.user.id, toolIdOf(c)));
  });

  return app;
}
