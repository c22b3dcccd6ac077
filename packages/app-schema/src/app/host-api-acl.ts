import { ACL_BYPASS_METHODS, expandHostApiGrant, isHostApiNamespace } from "./host-api-methods.js";
import { toolRefAllows } from "./tool-refs.js";
import type { UiHostApi } from "./ui-host-api.js";

/**
 * The dispatcher's method-level gate, `host_api_allows(ns, method)` (R99, L6322): reads only
 * `ui.host_api` (ruling A2). `window.*` is always granted, the handshake bypasses the ACL, and an
 * ungranted call is `permission_denied`. Per-tool (`toolAllowed`) and per-user grants
 * (`image_grant`, `web_grant`, …) are separate, later checks.
 */
export function hostApiAllows(
  hostApi: UiHostApi | null | undefined,
  namespace: string,
  method: string,
): boolean {
  if ((ACL_BYPASS_METHODS as readonly string[]).includes(`${namespace}.${method}`)) return true;
  if (namespace === "window") return true;
  if (!isHostApiNamespace(namespace)) return false;
  // Refs narrow which executas, not which methods: the tools namespace is open at this level.
  if (namespace === "tools") return true;
  const grant: unknown = hostApi?.[namespace];
  if (namespace === "credentials") {
    return (
      Array.isArray(grant) &&
      grant.length > 0 &&
      expandHostApiGrant(namespace, ["*"]).includes(method)
    );
  }
  if (
    namespace === "agent" &&
    typeof grant === "object" &&
    grant !== null &&
    !Array.isArray(grant)
  ) {
    const session = (grant as { session?: { auto?: unknown; fixed?: unknown } | null }).session;
    const fixed = session?.fixed;
    const enabled =
      session?.auto === true || (fixed !== undefined && fixed !== null && fixed !== false);
    return enabled && expandHostApiGrant(namespace, ["*"]).includes(method);
  }
  if (!Array.isArray(grant)) return false;
  const tokens = grant.filter((token): token is string => typeof token === "string");
  return expandHostApiGrant(namespace, tokens).includes(method);
}

/**
 * Whether a window may invoke `toolId`: it must be declared in the manifest (in `list`) and
 * matched by `ui.host_api.tools` when that narrowing list is present (R143, L6386).
 */
export function toolAllowed(
  manifest: {
    readonly required_executas: readonly (string | { readonly tool_id: string })[];
    readonly optional_executas: readonly (string | { readonly tool_id: string })[];
    readonly ui?: {
      readonly host_api?: { readonly tools?: readonly string[] | null } | null;
    } | null;
  },
  toolId: string,
): boolean {
  const idOf = (ref: string | { readonly tool_id: string }): string =>
    typeof ref === "string" ? ref : ref.tool_id;
  const refs = manifest.ui?.host_api?.tools ?? undefined;
  if (manifest.required_executas.some((ref) => idOf(ref) === toolId)) {
    return toolRefAllows(refs, toolId, "required");
  }
  if (manifest.optional_executas.some((ref) => idOf(ref) === toolId)) {
    return toolRefAllows(refs, toolId, "optional");
  }
  return false;
}
