// The runtime gate `host_api_allows(ns, method)` (R99, U45): reads only `manifest.ui.host_api`
// (A2: top-level `permissions` are not consulted). The decision is app-schema's `hostApiAllows`,
// the one gate the dispatcher, `mountBundle`, `validate --strict` and `fixture replay` share;
// this file adds the handshake bypass and a reason a person can act on. The handlers then check
// the tool, provider or submode.
import {
  ACL_BYPASS_METHODS,
  HOST_API_METHOD_SPELLINGS,
  hostApiAllows,
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
  return {
    hostApi: grants,
    check(ns, method) {
      if (isAclBypass(ns, method)) return { allowed: true, bypass: true };
      if (!isHostApiMethod(ns, method)) {
        return { allowed: false, reason: `${ns}.${method} is not a Host API method` };
      }
      if (hostApiAllows(grants, ns, method)) return { allowed: true };
      return { allowed: false, reason: deniedReason(ns, method) };
    },
  };
}

function deniedReason(ns: string, method: string): string {
  if (ns === "agent") {
    return `${ns}.${method} is not granted: enable a submode in manifest ui.host_api.agent.session`;
  }
  return `${ns}.${method} is not granted: add it to manifest ui.host_api.${ns}`;
}
