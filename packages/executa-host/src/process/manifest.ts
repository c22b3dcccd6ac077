// The `describe` result is the bare manifest (T5). It is parsed once, here, with app-schema's
// parser; what it accepts with warnings is kept, a wrapped `{manifest: …}` (pitfall 5) or a
// result without a `tools` list is an INVALID_MANIFEST error naming the plugin.

import { parseDescribeResult } from "@anna-ai/app-schema";
import type { ExecutaManifest, ManifestWarning } from "@anna-ai/app-schema";
import { hostError } from "./errors.js";

export type DescribedManifest = ExecutaManifest;

export interface ManifestReading {
  manifest: DescribedManifest;
  /** Findings worth a `warning` event; none of them stops the plugin. */
  warnings: ManifestWarning[];
}

export function readDescribeResult(raw: unknown, pluginLabel: string): ManifestReading {
  const parsed = parseDescribeResult(raw);
  if (!parsed.ok) throw hostError("INVALID_MANIFEST", `${pluginLabel}: ${parsed.error}`);
  return { manifest: parsed.manifest, warnings: parsed.warnings };
}
