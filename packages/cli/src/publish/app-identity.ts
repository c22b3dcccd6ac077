// `.anna/app.json`: which server-side app this folder publishes to (real-world-cli.md §8). It
// counts only for the same host and slug (rename-slug reads it by host alone); `apps publish`
// trusts it without asking the server, `apps push` checks it with a GET first.
import path from "node:path";
import { readJsonObject, writeJsonAtomic } from "./json-file.js";

export const APP_IDENTITY_SCHEMA = "anna-app-identity/v1";

export interface AppIdentity {
  $schema: typeof APP_IDENTITY_SCHEMA;
  host: string;
  app_id: number;
  slug: string;
  /** Written by push only, when the server says it. */
  handle?: string;
  first_published_at: string;
}

export const appIdentityPath = (dir: string) => path.join(dir, ".anna", "app.json");

/** The cache if it names this host (and `slug`, when given); undefined otherwise. */
export async function readAppIdentity(
  dir: string,
  host: string,
  slug?: string,
): Promise<AppIdentity | undefined> {
  const v = await readJsonObject(appIdentityPath(dir));
  if (
    v === undefined ||
    v.host !== host ||
    typeof v.slug !== "string" ||
    typeof v.app_id !== "number" ||
    (slug !== undefined && v.slug !== slug)
  ) {
    return undefined;
  }
  return v as unknown as AppIdentity;
}

/** Keeps `first_published_at` of an earlier cache for the same app. */
export async function writeAppIdentity(
  dir: string,
  entry: Omit<AppIdentity, "$schema" | "first_published_at">,
  now: Date = new Date(),
): Promise<void> {
  const before = await readJsonObject(appIdentityPath(dir));
  const first =
    before?.app_id === entry.app_id && typeof before.first_published_at === "string"
      ? before.first_published_at
      : now.toISOString();
  await writeJsonAtomic(appIdentityPath(dir), {
    $schema: APP_IDENTITY_SCHEMA,
    host: entry.host,
    app_id: entry.app_id,
    slug: entry.slug,
    ...(entry.handle === undefined ? {} : { handle: entry.handle }),
    first_published_at: first,
  });
}
