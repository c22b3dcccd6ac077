/**
 * Executa references. In `required_executas`/`optional_executas` a `tool_id` is a catalogue id
 * or, before publish, `bundled:<handle>` naming an `app.json` `bundled_executas` entry
 * (real-world-plugins.md "Apps"; rewritten to the minted id at publish/dev time, L6386).
 * In `ui.host_api.tools` a ref is `required:*`, `optional:*`, `required:<id>`, `optional:<id>`,
 * a bare `<id>` or `bundled:<handle>` (L5680, L11227); `<id>` may itself be `bundled:<handle>`.
 */

export const BUNDLED_REF_PREFIX = "bundled:";

/** `"bundled:focus"` → `"focus"`; `undefined` for anything else (an empty handle included). */
export function bundledHandle(toolId: string): string | undefined {
  if (!toolId.startsWith(BUNDLED_REF_PREFIX)) return undefined;
  const handle = toolId.slice(BUNDLED_REF_PREFIX.length);
  return handle === "" ? undefined : handle;
}

export type ToolRef =
  /** `required:*` / `optional:*`: every executa of that list. */
  | { readonly kind: "all"; readonly list: "required" | "optional" }
  /** `required:<id>` / `optional:<id>`: one id that must be in that list. */
  | { readonly kind: "listed"; readonly list: "required" | "optional"; readonly toolId: string }
  /** A bare id (or `bundled:<handle>`), which must be in either list. */
  | { readonly kind: "bare"; readonly toolId: string };

/** Parses a `ui.host_api.tools` entry; `undefined` when it is empty or `required:`-with-nothing. */
export function parseToolRef(ref: string): ToolRef | undefined {
  for (const list of ["required", "optional"] as const) {
    const prefix = `${list}:`;
    if (!ref.startsWith(prefix)) continue;
    const rest = ref.slice(prefix.length);
    if (rest === "*") return { kind: "all", list };
    if (rest === "") return undefined;
    return { kind: "listed", list, toolId: rest };
  }
  if (ref === "" || ref === "*") return undefined;
  return { kind: "bare", toolId: ref };
}

/**
 * The runtime rule (`_is_tool_allowed`, L11227): a tool is reachable when `host_api.tools` is
 * empty/absent, or an entry is `required:*`/`optional:*` matching its list, the bare id, or any
 * ref ending in `:<tool_id>`.
 */
export function toolRefAllows(
  refs: readonly string[] | undefined,
  toolId: string,
  list: "required" | "optional",
): boolean {
  if (refs === undefined || refs.length === 0) return true;
  return refs.some((ref) => ref === `${list}:*` || ref === toolId || ref.endsWith(`:${toolId}`));
}
