// Gate 3 (H13) for the plugins this server runs. Gates 1–2 (the family negotiated, the method's
// capability declared in the executa's `host_capabilities`) are the router's; what is asked here
// is what the user allowed:
// - the model-side and storage families (sampling, agent, storage, files, image generation,
//   upload, embeddings) are granted with the spec defaults once the executa declares them: there
//   is no per-executa grant column yet (`UserExecuta.custom_config`), and declaring them is what
//   the user saw and accepted at install;
// - `credentials/*` has no user grant (L9766): the user authorized the provider platform-wide by
//   connecting it, and the router mints `credentials_token` for the OAuth providers the executa's
//   declared credential names map to. `{}` says "mint as declared" for every user of this server;
// - `web/*` reaches outside the server, so it needs the user's explicit grant: for an invoke an
//   app started, that app's `user_apps.web_grant`; outside an app, none yet (withheld, the router
//   answers the family's gate code).
import type {
  CredentialsGrant,
  GrantByFamily,
  GrantFamily,
  GrantInvoke,
  GrantPolicy,
  WebGrant,
} from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** Granted on declaration, with the spec's defaults (the router caps them at the host limits). */
const DECLARED_DEFAULTS: Partial<GrantByFamily> = {
  sampling: {},
  agent: {},
  storage: {},
  files: {},
  // Editing is its own opt-in (T27); generation comes with the declaration.
  image: { generate: true, edit: false },
  upload: {},
  embeddings: {},
};

type AppGrants = { web: WebGrant | undefined };

function parseGrant<T extends { enabled?: boolean }>(json: string | null): T | undefined {
  if (json === null) return undefined;
  try {
    const grant = JSON.parse(json) as unknown;
    if (grant === null || typeof grant !== "object" || Array.isArray(grant)) return undefined;
    return (grant as T).enabled === true ? (grant as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The user's grants on the app an invoke came from. `appId` is the app's `apps.id` or its slug
 * (turn assembly names apps either way); a user id that is not a Nexus user has no app grants.
 */
async function appGrants(
  db: Kysely<Database>,
  userId: string,
  appId: string,
): Promise<AppGrants | undefined> {
  if (!/^\d+$/.test(userId)) return undefined;
  const byId = /^\d+$/.test(appId);
  const row = await db
    .selectFrom("user_apps")
    .innerJoin("apps", "apps.id", "user_apps.app_id")
    .select(["user_apps.web_grant"])
    .where("user_apps.user_id", "=", Number(userId))
    .where(byId ? "apps.id" : "apps.slug", "=", byId ? Number(appId) : appId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return { web: parseGrant<WebGrant>(row.web_grant) };
}

export function nexusGrantPolicy(db: Kysely<Database>): GrantPolicy {
  return {
    isGranted<F extends GrantFamily>(
      userId: string,
      _toolId: string,
      family: F,
      invoke?: GrantInvoke,
    ): GrantByFamily[F] | undefined | Promise<GrantByFamily[F] | undefined> {
      if (family === "credentials") {
        const asUser: CredentialsGrant | undefined = /^\d+$/.test(userId) ? {} : undefined;
        return asUser as GrantByFamily[F] | undefined;
      }
      if (family !== "web") {
        return DECLARED_DEFAULTS[family] as GrantByFamily[F] | undefined;
      }
      const app = invoke?.app;
      if (app === undefined) return undefined;
      return appGrants(db, userId, app.appId).then(
        (grants) => grants?.web as GrantByFamily[F] | undefined,
      );
    },
  };
}
