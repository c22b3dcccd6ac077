import { normalizeExecutaRef, toolRefAllows } from "@anna-ai/app-schema";
import { HostApiError } from "../errors/host-api-error.js";
import type { AppScope } from "../dispatcher/types.js";

export interface DeclaredTool {
  /** The runtime tool_id (a `bundled:<handle>` ref resolved through `toolIds`). */
  toolId: string;
  /** As written in the manifest. */
  ref: string;
  list: "required" | "optional";
}

/** `required_executas` then `optional_executas`, resolved; the first listing of an id wins. */
export function declaredTools(core: AppScope): DeclaredTool[] {
  const out: DeclaredTool[] = [];
  const seen = new Set<string>();
  for (const list of ["required", "optional"] as const) {
    for (const entry of core.manifest[`${list}_executas`]) {
      const ref = normalizeExecutaRef(entry).tool_id;
      const toolId = core.toolIds[ref] ?? ref;
      if (seen.has(toolId)) continue;
      seen.add(toolId);
      out.push({ toolId, ref, list });
    }
  }
  return out;
}

/**
 * R143: a tool must be declared AND matched by `ui.host_api.tools` (by its manifest ref or its
 * resolved id). Returns the declared tool or throws `permission_denied`.
 */
export function allowedTool(core: AppScope, requested: string): DeclaredTool {
  const resolved = core.toolIds[requested] ?? requested;
  const refs = (core.acl.hostApi.tools ?? []) as readonly string[];
  const tool = declaredTools(core).find((t) => t.toolId === resolved);
  if (
    tool === undefined ||
    !(toolRefAllows(refs, tool.toolId, tool.list) || toolRefAllows(refs, tool.ref, tool.list))
  ) {
    throw new HostApiError(
      "permission_denied",
      `tool ${JSON.stringify(requested)} is not in this app's executas and ui.host_api.tools`,
      { tool_id: requested },
    );
  }
  return tool;
}
