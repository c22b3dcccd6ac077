// The Reference's reserved stubs (R160: artifact.*, fs.*, prefs.get): registered, always
// `not_implemented`. They still pass auth, the ACL and the namespace gate first.
import { HOST_API_METHODS, type HostApiNamespace } from "@anna-ai/app-schema";
import type { HostApiMethodKey } from "@anna-ai/app-schema/host-api";
import { HostApiError } from "../errors/host-api-error.js";
import type { MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";

/** Reserved by the Reference: registered, never implemented (R160). */
export const RESERVED_NAMESPACES: readonly HostApiNamespace[] = ["artifact", "fs", "prefs"];

export function stubMethods(): MethodTable {
  const table: MethodTable = {};
  for (const ns of RESERVED_NAMESPACES) {
    for (const name of HOST_API_METHODS[ns] as readonly string[]) {
      const key = `${ns}.${name}` as HostApiMethodKey;
      table[key] = contractMethod(key, async () => {
        throw new HostApiError("not_implemented", `${ns}.${name} is reserved and not implemented`, {
          ns,
          method: name,
        });
      });
    }
  }
  return table;
}
