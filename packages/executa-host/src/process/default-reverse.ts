// Reverse requests when no router is attached (no router configured, or before `describe`
// finished): refuse them with the family's gate code (H13), so plugins see the same error they
// would for a missing capability.

import { PROTOCOL_ERRORS } from "@anna-ai/app-schema/errors";
import type { RpcError } from "@anna-ai/jsonrpc";
import { FAMILY_CODES, familyOfMethod } from "../services/family-codes.js";
import { catalogError } from "../services/service-error.js";

export function refuseReverseRequest(method: string, pluginLabel: string): RpcError {
  const family = familyOfMethod(method);
  if (family === undefined) {
    return catalogError(PROTOCOL_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`);
  }
  return catalogError(
    FAMILY_CODES[family].gate,
    `${method} is not available to ${pluginLabel}: the host has no reverse-RPC router configured`,
  );
}
