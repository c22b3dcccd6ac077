import {
  expandHostApiGrant,
  hostApiAllows,
  isHostApiMethod,
  toolRefAllows,
  type UiHostApi,
} from "@anna-ai/app-schema";

/** `tools.*` methods that name one tool in `args.tool_id`. */
const TOOL_ID_METHODS: ReadonlySet<string> = new Set(["invoke", "invokeAsync"]);
const BUNDLED_REF = /^(?:required:|optional:)?bundled:/;

/**
 * `harness.acl` (L7737): the effective ACL of `manifest.ui.host_api`, decided by app-schema's
 * `hostApiAllows` (the dispatcher's gate, aliases `read`/`write`/`*` per A1) plus the
 * `host_api.tools` refs for the tool a `tools.invoke` names.
 */
export interface HarnessAcl {
  /** `manifest.ui.host_api` as given (empty when the manifest has none). */
  readonly hostApi: UiHostApi;
  /** `bundled:<handle>` → `tool_id`, from the project's `app.json` and `executa.json` files. */
  readonly toolIds: Readonly<Record<string, string>>;
  /** The methods of `ns` the grant opens (after aliases); `window` is always open. */
  methods(ns: string): string[];
  /** True when the call passes the gate. `args` matter only for `tools.invoke`/`invokeAsync`. */
  allows(ns: string, method: string, args?: Record<string, unknown>): boolean;
  /** A `tool_id` as the app may write it (`bundled:<handle>`, a handle's id) → the runtime id. */
  resolveToolId(toolId: string): string;
}

export function createHarnessAcl(
  hostApi: UiHostApi | null | undefined,
  toolIds: Readonly<Record<string, string>>,
): HarnessAcl {
  const grants: UiHostApi = hostApi ?? {};
  const resolveToolId = (toolId: string): string => {
    if (!BUNDLED_REF.test(toolId)) return toolId;
    const handle = toolId.replace(BUNDLED_REF, "");
    return Object.hasOwn(toolIds, handle) ? (toolIds[handle] ?? toolId) : toolId;
  };
  // Every way a `host_api.tools` ref can name a tool: as written and resolved to its tool_id.
  const toolRefs = (): string[] => {
    const refs = (grants as Record<string, unknown>)["tools"];
    if (!Array.isArray(refs)) return [];
    const out: string[] = [];
    for (const ref of refs) {
      if (typeof ref !== "string") continue;
      out.push(ref);
      const list = /^optional:/.test(ref) ? "optional" : "required";
      if (BUNDLED_REF.test(ref)) out.push(`${list}:${resolveToolId(ref)}`);
    }
    return out;
  };
  const toolAllowed = (toolId: string): boolean => {
    const refs = toolRefs();
    // An empty `tools` grant opens nothing (the dispatcher's R143 needs a declared, matched tool).
    if (refs.length === 0) return false;
    const resolved = resolveToolId(toolId);
    return (["required", "optional"] as const).some(
      (list) => toolRefAllows(refs, resolved, list) || toolRefAllows(refs, toolId, list),
    );
  };
  return {
    hostApi: grants,
    toolIds,
    resolveToolId,
    methods(ns) {
      if (ns === "window") return expandHostApiGrant(ns, ["*"]);
      return expandHostApiGrant(ns, ["*"]).filter((method) => hostApiAllows(grants, ns, method));
    },
    allows(ns, method, args = {}) {
      if (!isHostApiMethod(ns, method) || !hostApiAllows(grants, ns, method)) return false;
      if (ns !== "tools") return true;
      if (!TOOL_ID_METHODS.has(method)) return toolRefs().length > 0;
      const toolId = args["tool_id"];
      return typeof toolId === "string" && toolAllowed(toolId);
    },
  };
}
