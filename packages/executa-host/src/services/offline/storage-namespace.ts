// Which rows a call sees: (scope, owner) per H14/R40, shared by the KV and files services. The
// router has already checked the scope against the grant; direct callers (the App dispatcher,
// tests) get the same answers from here.
import type { StorageScope } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { DEFAULT_STORAGE_SCOPE } from "../../router/storage-scope.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import { storageOwner } from "../storage-service.js";

const SCOPES: readonly string[] = ["user", "tool", "app"];

/** A stable id for the (scope, owner) of a call; omitted scope = `tool`. */
export function namespaceId(
  scope: unknown,
  ctx: Pick<ServiceContext, "userId" | "toolId" | "app">,
  method: string,
): string {
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
  return JSON.stringify(storageOwner(resolved as StorageScope, ctx));
}
