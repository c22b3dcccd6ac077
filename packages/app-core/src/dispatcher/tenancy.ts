// What the multi-tenant dispatcher asks its host, per call, about the caller: the app version the
// window token names (its manifest and tool ids), the user's grants for that app, and the user's
// other installed apps. The dev harness answers from one fixed app (`createDispatcher`); the
// server answers from its database. Answers are not cached here, so a grant revoked between two
// calls is refused on the second.
import type { AppManifest } from "@anna-ai/app-schema";
import type { CredentialsGrant, WebGrant } from "@anna-ai/executa-host";
import type { AppsCatalog } from "../apps/installed-apps.js";

/** One app version as the dispatcher serves it. */
export interface ResolvedApp {
  appId: string;
  versionId: string;
  /** The parsed manifest (`AppManifestSchema`); `ui.host_api` is the ACL. */
  manifest: AppManifest;
  /** `bundled:<handle>` (and any alias) → the real tool_id. */
  toolIds?: Readonly<Record<string, string>>;
  /** The display name `apps.*` shows; default the manifest's, else the app id. */
  name?: string;
}

export interface AppQuery {
  appId: string;
  /** Omitted when opening a window: the resolver picks the version the user runs. */
  versionId?: string;
  userId: string;
}

export interface AppResolver {
  /** `undefined` when the host serves no such app (version) to this user. */
  resolve(query: AppQuery): Promise<ResolvedApp | undefined>;
}

/** The user's grants for one app (R151, R152); a missing one is disabled. */
export interface AppGrants {
  webGrant?: WebGrant;
  credentialsGrant?: CredentialsGrant;
}

export interface GrantResolver {
  grants(query: { userId: string; appId: string; versionId: string }): Promise<AppGrants>;
}

/** The user's installed apps besides the calling one, and how to launch them (R158). */
export type InstalledAppsResolver = AppsCatalog;

/** Grants fixed for every user and app (the single-app harness's `--grant-*` flags). */
export function fixedGrants(grants: AppGrants): GrantResolver {
  return { grants: () => Promise.resolve(grants) };
}
