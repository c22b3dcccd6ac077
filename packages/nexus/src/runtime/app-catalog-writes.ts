// Writing the minimal app catalogue (migration 0004): an app version as a validated folder
// yields it (`anna-nexus admin load-app`, tests), and an app installed for a user with their
// grants. The registry (issue 12) brings publishing and installing through the API on the same
// tables.
import type { AppManifest } from "@anna-ai/app-schema";
import type { CredentialsGrant, WebGrant } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

export interface AppVersionInput {
  slug: string;
  handle?: string | null;
  version: string;
  name: string;
  manifest: AppManifest;
  /** `bundled:<handle>` → tool_id. */
  toolIds?: Readonly<Record<string, string>>;
}

/** Adds (or replaces) a version of the app with this slug, creating the app; its numeric id. */
export async function putAppVersion(
  db: Kysely<Database>,
  input: AppVersionInput,
  now: number,
): Promise<{ appId: number; replaced: boolean }> {
  return db.transaction().execute(async (trx) => {
    const app = await trx
      .insertInto("apps")
      .values({
        slug: input.slug,
        handle: input.handle ?? null,
        name: input.name,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .column("slug")
          .doUpdateSet({ handle: input.handle ?? null, name: input.name, updated_at: now }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    const values = {
      name: input.name,
      manifest: JSON.stringify(input.manifest),
      tool_ids: JSON.stringify(input.toolIds ?? {}),
    };
    const existing = await trx
      .deleteFrom("app_versions")
      .where("app_id", "=", app.id)
      .where("version", "=", input.version)
      .executeTakeFirst();
    await trx
      .insertInto("app_versions")
      .values({ app_id: app.id, version: input.version, created_at: now, ...values })
      .execute();
    return { appId: app.id, replaced: Number(existing.numDeletedRows) > 0 };
  });
}

export interface InstallInput {
  userId: number;
  appId: number;
  version: string;
  enabled?: boolean;
  webGrant?: WebGrant;
  credentialsGrant?: CredentialsGrant;
}

/** Installs (or updates) the app for the user at `version` with these grants. */
export async function installApp(
  db: Kysely<Database>,
  input: InstallInput,
  now: number,
): Promise<void> {
  const values = {
    version: input.version,
    enabled: input.enabled === false ? 0 : 1,
    web_grant: input.webGrant === undefined ? null : JSON.stringify(input.webGrant),
    credentials_grant:
      input.credentialsGrant === undefined ? null : JSON.stringify(input.credentialsGrant),
  };
  await db
    .insertInto("user_apps")
    .values({ user_id: input.userId, app_id: input.appId, installed_at: now, ...values })
    .onConflict((oc) => oc.columns(["user_id", "app_id"]).doUpdateSet(values))
    .execute();
}
