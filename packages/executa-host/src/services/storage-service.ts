// APS key-value `storage/*` (T23, R42–R45). The router resolves the scope (omitted = `tool`,
// H14) and checks it against the grant, so `scope` is always set here. Rows are namespaced by
// (scope, owner, key): storageOwner() is the one place that says who owns a scope.
import type { StorageGrant, StorageScope } from "./grants.js";
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

interface Scoped {
  scope: StorageScope;
  [key: string]: unknown;
}

export interface StorageGetParams extends Scoped {
  key: string;
}
/** A miss is `{value: null, exists: false, etag: null}`, never an error (T23). */
export interface StorageGetResult {
  value: unknown;
  exists: boolean;
  etag: string | null;
  [key: string]: unknown;
}

export interface StorageSetParams extends Scoped {
  key: string;
  value: unknown;
  if_match?: string | null;
  ttl_seconds?: number;
  metadata?: Record<string, unknown> | null;
  tags?: string[] | null;
}
export interface StorageSetResult {
  /** Plugins require it. */
  etag: string;
  generation?: number;
  size_bytes?: number;
  [key: string]: unknown;
}

export interface StorageDeleteParams extends Scoped {
  key: string;
  if_match?: string | null;
}
export interface StorageDeleteResult {
  deleted: boolean;
  [key: string]: unknown;
}

export interface StorageListParams extends Scoped {
  prefix?: string;
  cursor?: string | null;
  limit?: number;
}
export interface StorageListResult {
  items: Record<string, unknown>[];
  next_cursor: string | null;
  [key: string]: unknown;
}

export interface StorageService {
  get(params: StorageGetParams, ctx: ServiceContext<StorageGrant>): Promise<StorageGetResult>;
  set(params: StorageSetParams, ctx: ServiceContext<StorageGrant>): Promise<StorageSetResult>;
  delete(
    params: StorageDeleteParams,
    ctx: ServiceContext<StorageGrant>,
  ): Promise<StorageDeleteResult>;
  list(params: StorageListParams, ctx: ServiceContext<StorageGrant>): Promise<StorageListResult>;
}
