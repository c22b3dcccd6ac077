import {
  bundledHandle,
  expandHostApiGrant,
  hostApiAllows,
  isHostApiMethod,
  toolAllowed,
  type UiHostApi,
} from "@anna-ai/app-schema";
import { resolveBundledRefs, type ExecutaRef } from "../fixture/bundled-refs.js";

/** `tools.*` methods that name one tool in `args.tool_id`. */
const TOOL_ID_METHODS: ReadonlySet<string> = new Set(["invoke", "invokeAsync"]);

/** The parts of a manifest the gate reads; a test's manifest object may omit any of them. */
interface GateManifest {
  required_executas: ExecutaRef[];
  optional_executas: ExecutaRef[];
  ui: { host_api: UiHostApi };
}

/**
 * `harness.acl` (L7737): the effective ACL of `manifest.ui.host_api`, decided exactly as the
 * dispatcher, `validate --strict` and `fixture replay` decide it — app-schema's `hostApiAllows`
 * for the namespace (aliases `read`/`write`/`*` per A1), then `toolAllowed` for the tool a
 * `tools.invoke`/`invokeAsync` names: declared in `required_/optional_executas` and matched by
 * `host_api.tools`, an omitted or empty list reaching every declared executa (L6386).
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

/** `manifest` is the object a test mounted (unchecked: fields of the wrong shape count as absent). */
export function createHarnessAcl(
  manifest: Record<string, unknown>,
  toolIds: Readonly<Record<string, string>>,
): HarnessAcl {
  const gate = gateManifest(manifest, toolIds);
  const grants = gate.ui.host_api;
  const resolveToolId = (toolId: string): string => {
    const handle = bundledHandle(toolId);
    return handle !== undefined && Object.hasOwn(toolIds, handle)
      ? (toolIds[handle] ?? toolId)
      : toolId;
  };
  return {
    hostApi: hostApiOf(manifest) ?? {},
    toolIds,
    resolveToolId,
    methods(ns) {
      return expandHostApiGrant(ns, ["*"]).filter((method) => hostApiAllows(grants, ns, method));
    },
    allows(ns, method, args = {}) {
      if (!isHostApiMethod(ns, method) || !hostApiAllows(grants, ns, method)) return false;
      if (ns !== "tools" || !TOOL_ID_METHODS.has(method)) return true;
      const toolId = args["tool_id"];
      return typeof toolId === "string" && toolAllowed(gate, resolveToolId(toolId));
    },
  };
}

/** The manifest with its `bundled:<handle>` refs resolved, as `anna-app dev` resolves them. */
function gateManifest(
  manifest: Record<string, unknown>,
  toolIds: Readonly<Record<string, string>>,
): GateManifest {
  const refs = (key: string): ExecutaRef[] => {
    const list = manifest[key];
    if (!Array.isArray(list)) return [];
    return list.filter(
      (ref): ref is ExecutaRef =>
        typeof ref === "string" ||
        (typeof ref === "object" &&
          ref !== null &&
          typeof (ref as { tool_id?: unknown }).tool_id === "string"),
    );
  };
  const hostApi = hostApiOf(manifest) ?? {};
  const tools: unknown = hostApi.tools;
  const gate: GateManifest = {
    required_executas: refs("required_executas"),
    optional_executas: refs("optional_executas"),
    ui: {
      host_api: {
        ...hostApi,
        tools: Array.isArray(tools)
          ? tools.filter((ref): ref is string => typeof ref === "string")
          : null,
      },
    },
  };
  return resolveBundledRefs(gate, toolIds);
}

/** `manifest.ui.host_api` when it is an object. */
export function hostApiOf(manifest: Record<string, unknown>): UiHostApi | undefined {
  const ui = manifest["ui"];
  if (typeof ui !== "object" || ui === null) return undefined;
  const hostApi = (ui as Record<string, unknown>)["host_api"];
  return typeof hostApi === "object" && hostApi !== null && !Array.isArray(hostApi)
    ? (hostApi as UiHostApi)
    : undefined;
}
