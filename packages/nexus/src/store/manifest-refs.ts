// What an app version asks of the Executa Hub, read from its stored manifest and the executa
// versions frozen on cut: the required and optional tool ids in declared order (A9) and the
// frozen version per tool id. Stored manifests passed the validator when they were written, so
// a shape this does not know yields nothing rather than an error.
import { type ExecutaRef, normalizeExecutaRef } from "@anna-ai/app-schema";

export interface ExecutaNeed {
  toolId: string;
  required: boolean;
  /** The manifest's `version` pin, when it names one other than `latest`. */
  pinned: string | undefined;
}

export interface FrozenExecuta {
  toolId: string;
  executaVersionId: number;
}

function refsOf(value: unknown): ExecutaRef[] {
  return Array.isArray(value)
    ? (value as unknown[]).filter(
        (r): r is ExecutaRef =>
          typeof r === "string" ||
          (typeof r === "object" &&
            r !== null &&
            typeof (r as { tool_id?: unknown }).tool_id === "string"),
      )
    : [];
}

/** Required first, then optional, each in declared order; a tool id counts once. */
export function executaNeeds(manifest: Record<string, unknown>): ExecutaNeed[] {
  const seen = new Set<string>();
  const out: ExecutaNeed[] = [];
  for (const [key, required] of [
    ["required_executas", true],
    ["optional_executas", false],
  ] as const) {
    for (const ref of refsOf(manifest[key]).map(normalizeExecutaRef)) {
      if (seen.has(ref.tool_id)) continue;
      seen.add(ref.tool_id);
      const pin = ref.version ?? undefined;
      out.push({ toolId: ref.tool_id, required, pinned: pin === "latest" ? undefined : pin });
    }
  }
  return out;
}

/** `app_versions.frozen_executas`: `[{tool_id, executa_version_id, version?}]`. */
export function frozenExecutas(json: string): Map<string, number> {
  const out = new Map<string, number>();
  let rows: unknown;
  try {
    rows = JSON.parse(json);
  } catch {
    return out;
  }
  if (!Array.isArray(rows)) return out;
  for (const r of rows as { tool_id?: unknown; executa_version_id?: unknown }[]) {
    if (typeof r?.tool_id === "string" && Number.isSafeInteger(r.executa_version_id)) {
      out.set(r.tool_id, r.executa_version_id as number);
    }
  }
  return out;
}

export function parseManifest(json: string): Record<string, unknown> {
  try {
    const m = JSON.parse(json) as unknown;
    return typeof m === "object" && m !== null && !Array.isArray(m)
      ? (m as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** What a version asks the user to allow, shown before install and with the grants. */
export function requestedBy(manifest: Record<string, unknown>) {
  const ui = manifest.ui as { host_api?: unknown } | undefined;
  return {
    host_api: ui?.host_api ?? {},
    permissions: Array.isArray(manifest.permissions) ? (manifest.permissions as unknown[]) : [],
    host_capabilities: Array.isArray(manifest.host_capabilities)
      ? (manifest.host_capabilities as unknown[])
      : [],
  };
}
