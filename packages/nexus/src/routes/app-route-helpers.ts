// What the app registry's routes share: the developer principal (R2: a PAT with `aps:dev` of a
// Verified Developer), numeric ids from the path, the registry itself, and the multipart upload
// paths that stream past the JSON body cap under their own limits.
import { NexusError } from "../core/errors.js";
import type { AppRegistry } from "../apps/app-registry.js";
import type { AppDeps, Ctx, Principal } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";

export const HIT_HEADER = "x-anna-idempotent";

export function registry(deps: AppDeps): AppRegistry {
  if (!deps.apps)
    throw new NexusError("unavailable", "the app registry is not enabled on this server");
  return deps.apps;
}

export async function developer(c: Ctx, deps: AppDeps): Promise<Principal> {
  const p = await requireUser(c, deps);
  requireScopes(p, ["aps:dev"]);
  registry(deps).apps.requireDeveloper(p.user);
  return p;
}

/** A path id; one too long for a safe integer names nothing. */
export function pathId(c: Ctx, name: string, what: string): number {
  const raw = c.req.param(name) ?? "";
  if (!/^[0-9]{1,15}$/.test(raw)) throw new NexusError("not_found", `no ${what} with id ${raw}`);
  return Number(raw);
}

const UPLOAD_PATH =
  /^\/api\/v1\/developer\/apps\/[0-9]+\/(?:logo|screenshots|versions\/[0-9]+\/bundle\/file|working\/bundle\/file)$/;

/** Multipart uploads: bounded by the registry's own limits while they stream, not the JSON cap. */
export function isAppUploadRoute(path: string): boolean {
  return UPLOAD_PATH.test(path);
}
