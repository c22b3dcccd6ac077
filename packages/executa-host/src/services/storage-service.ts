// APS key-value `storage/*` (T23, R42–R45). The router resolves the scope (omitted = `tool`,
// H14) and checks it against the grant, so `scope` is always set here. Rows are namespaced by
// (scope, owner, key): storageOwner() is the one place that says who owns a scope.
import type {
  StorageDeleteParams,
  StorageDeleteResult,
  StorageGetParams,
  StorageGetResult,
  StorageListParams,
  StorageListResult,
  StorageScope,
  StorageSetParams,
  StorageSetResult,
} from "@anna-ai/app-schema";
import type { StorageGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

/** Who owns the rows of a scope: the user, the user's copy of the tool, or the app. */
export type StorageOwner =
  | { scope: "user"; userId: string }
  | { scope: "tool"; userId: string; toolId: string }
  | { scope: "app"; userId: string; appId: string };

export function storageOwner(
  scope: StorageScope,
  ctx: Pick<ServiceContext, "userId" | "toolId" | "app">,
): StorageOwner {
  switch (scope) {
    case "user":
      return { scope, userId: ctx.userId };
    case "tool":
      return { scope, userId: ctx.userId, toolId: ctx.toolId };
    case "app":
      if (!ctx.app) throw new Error("scope 'app' needs an app context");
      return { scope, userId: ctx.userId, appId: ctx.app.appId };
  }
}

/** Params as validated by app-schema, with the scope resolved by the router. */
export type Scoped<P> = P & { scope: StorageScope };

type Ctx = ServiceContext<StorageGrant>;

export interface StorageService {
  /** A miss is `{value: null, exists: false, etag: null}`, never an error (T23). */
  get(params: Scoped<StorageGetParams>, ctx: Ctx): Promise<StorageGetResult>;
  set(params: Scoped<StorageSetParams>, ctx: Ctx): Promise<StorageSetResult>;
  delete(params: Scoped<StorageDeleteParams>, ctx: Ctx): Promise<StorageDeleteResult>;
  list(params: Scoped<StorageListParams>, ctx: Ctx): Promise<StorageListResult>;
}
