// Methods that answer `not_implemented`: the Reference's reserved stubs (R160: artifact.*, fs.*,
// prefs.get) and the namespaces this dispatcher does not serve yet (web, credentials, apps) —
// TODO(issue 5). They still pass auth, the ACL and the namespace gate first.
import { HOST_API_METHODS, type HostApiNamespace } from "@anna-ai/app-schema";
import { z } from "zod";
import { HostApiError } from "../errors/host-api-error.js";
import { method, type MethodTable } from "../dispatcher/types.js";

/** Reserved by the Reference: registered, never implemented (R160). */
export const RESERVED_NAMESPACES: readonly HostApiNamespace[] = ["artifact", "fs", "prefs"];
/** Real in production, not served by this dispatcher yet. */
export const PENDING_NAMESPACES: readonly HostApiNamespace[] = [
  "files",
  "web",
  "credentials",
  "apps",
];

export function stubMethods(): MethodTable {
  const table: MethodTable = {};
  for (const ns of [...RESERVED_NAMESPACES, ...PENDING_NAMESPACES]) {
    const reserved = RESERVED_NAMESPACES.includes(ns);
    for (const name of HOST_API_METHODS[ns] as readonly string[]) {
      table[`${ns}.${name}`] = method(z.looseObject({}), async () => {
        throw new HostApiError(
          "not_implemented",
          reserved
            ? `${ns}.${name} is reserved and not implemented (R160)`
            : `${ns}.${name} is not implemented by this dispatcher yet`,
          { ns, method: name },
        );
      });
    }
  }
  return table;
}
