// The `describe` result is the bare manifest (T5). Read only what supervision needs (tool
// timeouts, name, host_capabilities) and keep the rest as sent; full validation belongs to the
// app-schema parser.

import type { RpcError } from "@anna-ai/jsonrpc";
import { hostError } from "./errors.js";

export interface DescribedTool {
  name: string;
  /** Seconds (T5); the invoke timeout for this tool. */
  timeout?: number;
  [field: string]: unknown;
}

export interface DescribedManifest {
  name?: string;
  tools: DescribedTool[];
  host_capabilities?: string[];
  [field: string]: unknown;
}

export interface ManifestReading {
  manifest: DescribedManifest;
  /** Findings worth a `warning` event; none of them stops the plugin. */
  warnings: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Throws an `INVALID_MANIFEST` RpcError for results no plugin could mean as a manifest. */
export function readDescribeResult(raw: unknown, pluginLabel: string): ManifestReading {
  if (!isRecord(raw)) {
    throw invalid(pluginLabel, `describe returned ${describeType(raw)}, not a manifest object`);
  }
  if (isRecord(raw.manifest) && raw.tools === undefined) {
    throw invalid(
      pluginLabel,
      'describe returned {"manifest": {...}}; the result must be the bare manifest (pitfall 5)',
    );
  }
  const warnings: string[] = [];
  const tools: DescribedTool[] = [];
  if (!Array.isArray(raw.tools)) {
    warnings.push(`${pluginLabel}: describe result has no "tools" array`);
  } else {
    for (const [index, entry] of raw.tools.entries()) {
      if (!isRecord(entry) || typeof entry.name !== "string" || entry.name === "") {
        warnings.push(`${pluginLabel}: tools[${index}] has no name; ignored`);
        continue;
      }
      const tool: DescribedTool = { ...entry, name: entry.name };
      if (
        entry.timeout !== undefined &&
        !(typeof entry.timeout === "number" && entry.timeout > 0)
      ) {
        warnings.push(
          `${pluginLabel}: tool ${entry.name} has an invalid timeout; using the default`,
        );
        delete tool.timeout;
      }
      if (entry.input_schema !== undefined && entry.parameters === undefined) {
        warnings.push(
          `${pluginLabel}: tool ${entry.name} declares "input_schema", which is ignored; declare "parameters" (pitfall 4)`,
        );
      }
      tools.push(tool);
    }
  }
  const manifest: DescribedManifest = { ...raw, tools };
  if (raw.name !== undefined && typeof raw.name !== "string") delete manifest.name;
  if (raw.host_capabilities !== undefined) {
    if (
      Array.isArray(raw.host_capabilities) &&
      raw.host_capabilities.every((c) => typeof c === "string")
    ) {
      manifest.host_capabilities = raw.host_capabilities as string[];
    } else {
      warnings.push(`${pluginLabel}: "host_capabilities" is not a list of strings; ignored`);
      delete manifest.host_capabilities;
    }
  }
  return { manifest, warnings };
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function invalid(pluginLabel: string, detail: string): RpcError {
  return hostError("INVALID_MANIFEST", `${pluginLabel}: ${detail}`);
}
