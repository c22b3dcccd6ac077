// The runtime gate `host_api_allows(ns, method)` (R99, U45): reads only `manifest.ui.host_api`
// (A2: top-level `permissions` are not consulted). Method lists use app-schema's table and its
// alias expansion (A1: `read`, `write`, `*`); `tools`, `credentials` and `agent` are not method
// lists, so their namespace gate opens on a non-empty grant and the handler checks the tool,
// provider or submode.
import {
  ACL_BYPASS_METHODS,
  ALWAYS_GRANTED_NAMESPACES,
  expandHostApiGrant,
  HOST_API_METHOD_SPELLINGS,
  isHostApiMethod,
  type UiHostApi,
} from "@anna-ai/app-schema";

export type AclDecision = { allowed: true; bypass?: true } | { allowed: false; reason: string };

export interface HostApiAcl {
  /** `method` in its canonical (snake_case) spelling. */
  check(ns: string, method: string): AclDecision;
  /** The raw `ui.host_api` the ACL was built from. */
  readonly hostApi: UiHostApi;
}

/** `web.imageSearch` → `image_search`; anything else unchanged. */
export function canonicalMethod(ns: string, method: string): string {
  return HOST_API_METHOD_SPELLINGS[`${ns}.${method}`] ?? method;
}

/** True for the handshake methods that pass the ACL (R99: hello, ready, report_error). */
export function isAclBypass(ns: string, method: string): boolean {
  return (ACL_BYPASS_METHODS as readonly string[]).includes(`${ns}.${method}`);
}

export function createHostApiAcl(hostApi: UiHostApi | null | undefined): HostApiAcl {
  const grants: UiHostApi = hostApi ?? {};
  const expanded = new Map<string, ReadonlySet<string>>();
  const grantOf = (ns: string): unknown => (grants as Record<string, unknown>)[ns];

  function methodsOf(ns: string): ReadonlySet<string> {
    let set = expanded.get(ns);
    if (set === undefined) {
      const grant = grantOf(ns);
      const tokens = Array.isArray(grant)
        ? grant.filter((t): t is string => typeof t === "string")
        : [];
      set = new Set(expandHostApiGrant(ns, tokens));
      expanded.set(ns, set);
    }
    return set;
  }

  return {
    hostApi: grants,
    check(ns, method) {
      if (isAclBypass(ns, method)) return { allowed: true, bypass: true };
      if (!isHostApiMethod(ns, method)) {
        return { allowed: false, reason: `${ns}.${method} is not a Host API method` };
      }
      if ((ALWAYS_GRANTED_NAMESPACES as readonly string[]).includes(ns)) return { allowed: true };
      const grant = grantOf(ns);
      const denied = {
        allowed: false as const,
        reason: `${ns}.${method} is not granted: add it to manifest ui.host_api.${ns}`,
      };
      if (grant === undefined || grant === null) return denied;
      if (ns === "tools" || ns === "credentials") {
        return Array.isArray(grant) && grant.length > 0 ? { allowed: true } : denied;
      }
      if (ns === "agent" && !Array.isArray(grant)) {
        // The structured form: the namespace is open; session.create checks the submode.
        return typeof grant === "object" ? { allowed: true } : denied;
      }
      return methodsOf(ns).has(method) ? { allowed: true } : denied;
    },
  };
}
