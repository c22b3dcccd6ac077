import { isHostCapability, isStorageCapabilityMistake } from "./host-capabilities.js";
import { formatIssues } from "./issues.js";
import { toLlmToolSchema } from "./llm-tool-schema.js";
import type { ManifestWarning } from "./manifest-warning.js";
import { DEFAULT_TOOL_TIMEOUT_S, ExecutaManifestSchema, type ExecutaManifest } from "./manifest.js";

export type DescribeResultParse =
  | { ok: true; manifest: ExecutaManifest; warnings: ManifestWarning[] }
  | { ok: false; error: string };

/** Pitfall 5: `{"manifest": {…}}` instead of the bare manifest. The platform drops such plugins. */
function isWrappedManifest(raw: Record<string, unknown>): boolean {
  const inner = raw["manifest"];
  return !("tools" in raw) && typeof inner === "object" && inner !== null;
}

/** The warnings a host reports for a manifest it accepted. */
export function manifestWarnings(manifest: ExecutaManifest): ManifestWarning[] {
  const warnings: ManifestWarning[] = [];
  if (manifest.tools.length === 0) {
    warnings.push({ code: "NO_TOOLS", message: "the manifest declares no tools", path: ["tools"] });
  }
  const seen = new Set<string>();
  manifest.tools.forEach((tool, index) => {
    if (seen.has(tool.name)) {
      warnings.push({
        code: "DUPLICATE_TOOL",
        message: `tool "${tool.name}" is declared twice`,
        path: ["tools", index, "name"],
      });
    }
    seen.add(tool.name);
    if (typeof tool.timeout === "number" && !(tool.timeout > 0)) {
      warnings.push({
        code: "INVALID_TIMEOUT",
        message: `tool "${tool.name}" has timeout ${tool.timeout}; the default ${DEFAULT_TOOL_TIMEOUT_S} s applies`,
        path: ["tools", index, "timeout"],
      });
    }
    warnings.push(...toLlmToolSchema(tool, ["tools", index]).warnings);
  });
  (manifest.host_capabilities ?? []).forEach((capability, index) => {
    const path = ["host_capabilities", index];
    if (isStorageCapabilityMistake(capability)) {
      warnings.push({
        code: "STORAGE_CAPABILITY_STRING",
        message: `"${capability}" is not a host capability; storage needs "aps.kv" (storage/*) or "aps.files" (files/*), scopes come from the user's grant`,
        path,
      });
    } else if (!isHostCapability(capability)) {
      warnings.push({
        code: "UNKNOWN_HOST_CAPABILITY",
        message: `"${capability}" is not an allowed host capability; the platform rejects it at publish time`,
        path,
      });
    }
  });
  return warnings;
}

/**
 * Parses a `describe` result. Accepts what real plugins send (no `name`, `parameters` as a
 * JSON-Schema object, extra keys) and reports pitfalls as warnings. A wrapped
 * `{manifest: …}` result is an error with an explanation (pitfall 5, L3521).
 */
export function parseDescribeResult(raw: unknown): DescribeResultParse {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, error: "describe must return the manifest object" };
  }
  if (isWrappedManifest(raw as Record<string, unknown>)) {
    return {
      ok: false,
      error:
        'describe returned {"manifest": {...}}; return the manifest itself as the result (pitfall 5: the platform drops such plugins)',
    };
  }
  const parsed = ExecutaManifestSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      error: `invalid describe manifest: ${formatIssues(parsed.error.issues).join("; ")}`,
    };
  }
  return { ok: true, manifest: parsed.data, warnings: manifestWarnings(parsed.data) };
}
