// Which rows a call sees: (scope, owner) per H14/R40, shared by every KV and files store. The
// router has already checked the scope against the grant; direct callers (the App dispatcher,
// tests) get the same answers from here.
import type { StorageScope } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { DEFAULT_STORAGE_SCOPE } from "../router/storage-scope.js";
import type { ServiceContext } from "../services/service-context.js";
import { catalogError } from "../services/service-error.js";
import { storageOwner } from "../services/storage-service.js";
import type { StorageOwner } from "../services/storage-service.js";

const SCOPES: readonly string[] = ["user", "tool", "app"];

/**
 * The (scope, owner) whose rows a call sees; omitted scope = `tool`. A SQL store keys its rows
 * by these columns; an unknown scope is -32028 and `app` outside an App invoke is -32021.
 */
export function resolveStorageOwner(
  scope: unknown,
  ctx: Pick<ServiceContext, "userId" | "toolId" | "app">,
  method: string,
): StorageOwner {
  const resolved = scope ?? DEFAULT_STORAGE_SCOPE;
  if (typeof resolved !== "string" || !SCOPES.includes(resolved)) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'scope' must be "user", "tool" or "app"`,
    );
  }
  if (resolved === "app" && ctx.app === undefined) {
    throw catalogError(
      STORAGE_ERRORS.NOT_GRANTED,
      `${method}: storage scope 'app' is only available to invokes that come from an Anna App`,
    );
  }
  return storageOwner(resolved as StorageScope, ctx);
}

/** resolveStorageOwner as one stable string, for stores that key a map by it. */
export function namespaceId(
  scope: unknown,
  ctx: Pick<ServiceContext, "userId" | "toolId" | "app">,
  method: string,
): string {
  return JSON.stringify(resolveStorageOwner(scope, ctx, method));
}
