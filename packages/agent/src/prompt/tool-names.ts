// Model-facing tool names. Providers accept `[A-Za-z0-9_-]{1,64}` and each name must be unique
// in a request. Executa tools are always qualified by their executa's slug (`weather__lookup`,
// the spec's `weather.lookup` of L166 with a separator providers accept), so a name never
// depends on which other executas happen to be active in a turn and history stays readable.
// What is left to collide (two executas with one slug, a name cut at 64) is settled by
// registration order: the first keeps the name, later ones get `_2`, `_3`, ….

import { createHash } from "node:crypto";

export const TOOL_NAME_MAX_CHARS = 64;
/** Between an executa's slug and its tool's name. */
export const EXECUTA_TOOL_SEPARATOR = "__";
const INVALID = /[^A-Za-z0-9_-]+/g;
const HASH_CHARS = 8;

/** `name` reduced to the characters providers accept, at most 64, never empty. */
export function sanitizeToolName(name: string): string {
  const cleaned = name.replace(INVALID, "_");
  if (cleaned === "") return "tool";
  if (cleaned.length <= TOOL_NAME_MAX_CHARS) return cleaned;
  // Cut names keep a hash of the whole so two long names that share a prefix stay apart.
  const hash = createHash("sha256").update(name).digest("hex").slice(0, HASH_CHARS);
  return `${cleaned.slice(0, TOOL_NAME_MAX_CHARS - HASH_CHARS - 1)}_${hash}`;
}

export function executaToolName(slug: string, tool: string): string {
  return sanitizeToolName(`${slug}${EXECUTA_TOOL_SEPARATOR}${tool}`);
}

/** Hands out unique names in registration order. */
export class ToolNamer {
  private readonly taken = new Set<string>();

  /** Marks names as used without renaming them (platform tools, which always win). */
  reserve(name: string): boolean {
    if (this.taken.has(name)) return false;
    this.taken.add(name);
    return true;
  }

  /** `wanted` if free, else the first free `wanted_2`, `wanted_3`, … (kept within 64). */
  claim(wanted: string): string {
    const base = sanitizeToolName(wanted);
    if (this.reserve(base)) return base;
    for (let n = 2; ; n++) {
      const suffix = `_${n}`;
      const candidate = base.slice(0, TOOL_NAME_MAX_CHARS - suffix.length) + suffix;
      if (this.reserve(candidate)) return candidate;
    }
  }
}
