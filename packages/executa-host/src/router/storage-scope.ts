// Plugin storage scopes (H14, T22, R40): `user` and `tool` as the grant allows; `app` only when
// the invoke comes from an app whose grant includes its scope. An omitted scope means `tool`
// for storage/* and files/* alike (D-host-51).
import { DEFAULT_STORAGE_SCOPE } from "@anna-ai/app-schema";
import type { StorageScope } from "@anna-ai/app-schema";
import type { StorageGrant } from "../services/grants.js";

export { DEFAULT_STORAGE_SCOPE };
export const DEFAULT_PLUGIN_SCOPES: readonly StorageScope[] = ["user", "tool"];

/** The scopes a storage_token of this invoke permits, sorted as Nexus prints them. */
export function allowedScopes(
  grant: StorageGrant,
  app: { appScopeGranted: boolean } | undefined,
): StorageScope[] {
  const scopes = new Set<StorageScope>(
    (grant.allowedScopes ?? DEFAULT_PLUGIN_SCOPES).filter((s) => s === "user" || s === "tool"),
  );
  if (app?.appScopeGranted) scopes.add("app");
  return [...scopes].sort();
}

/** Python's repr of a list of strings, as in Nexus' message: `['tool', 'user']`. */
function pyList(values: readonly string[]): string {
  return `[${values.map((v) => `'${v}'`).join(", ")}]`;
}

export type ScopeCheck = { ok: true; scope: StorageScope } | { ok: false; message: string };

export function checkScope(requested: unknown, allowed: readonly StorageScope[]): ScopeCheck {
  const scope = requested === undefined || requested === null ? DEFAULT_STORAGE_SCOPE : requested;
  if (typeof scope === "string" && (allowed as readonly string[]).includes(scope)) {
    return { ok: true, scope: scope as StorageScope };
  }
  const shown = typeof scope === "string" ? scope : JSON.stringify(scope);
  return {
    ok: false,
    message: `storage_token does not permit scope='${shown}'; allowed=${pyList(allowed)}`,
  };
}
