/**
 * The `anna-tool-ids` helper: bundles ship an `anna-tool-ids.js` that sets
 * `window.__ANNA_TOOL_IDS__ = {handle: tool_id}`; `anna-app dev` serves a generated one and
 * publishing rewrites it with the minted ids (real-world-plugins.md, "Apps").
 */

const GLOBAL_NAME = "__ANNA_TOOL_IDS__";

/** The handle → tool_id map, or an empty one when the script was not loaded. */
export function toolIds(scope: object = globalThis): Readonly<Record<string, string>> {
  const value: unknown = (scope as Record<string, unknown>)[GLOBAL_NAME];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [handle, id] of Object.entries(value as Record<string, unknown>)) {
    if (typeof id === "string" && id !== "") out[handle] = id;
  }
  return out;
}

/**
 * The tool_id for a bundled handle. Accepts the handle itself and the manifest's ref forms
 * (`bundled:<handle>`, `required:bundled:<handle>`, `optional:bundled:<handle>`). Undefined when
 * the map does not know the handle.
 */
export function resolveToolId(handle: string, scope: object = globalThis): string | undefined {
  const bare = handle.replace(/^(?:required:|optional:)?bundled:/, "");
  const ids = toolIds(scope);
  return Object.hasOwn(ids, bare) ? ids[bare] : undefined;
}

/**
 * For `tools.*` args: a `tool_id` written as `bundled:<handle>` becomes the mapped id; anything
 * else (a real tool id, an unknown handle) is sent as written so the host reports it.
 */
export function resolveBundledToolId(toolId: unknown, scope: object = globalThis): unknown {
  if (typeof toolId !== "string" || !/^(?:required:|optional:)?bundled:/.test(toolId))
    return toolId;
  return resolveToolId(toolId, scope) ?? toolId;
}
