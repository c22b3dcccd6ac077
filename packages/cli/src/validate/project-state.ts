// What the layers learn about the project and hand to the next layer.
import type { AppIssue, AppListing, AppManifest } from "@anna-ai/app-schema";
import type { DiscoveryResult } from "@anna-ai/executa-host";
import type { ValidateLayer } from "./diagnostic.js";

export interface PendingIssue {
  readonly file: string;
  readonly issue: AppIssue;
}

export interface ProjectState {
  /** The raw manifest value (whatever parsed). */
  manifestRaw?: unknown;
  /** Set once the manifest passed its schema. */
  manifest?: AppManifest;
  /** Absolute path of app.json when it exists and parsed. */
  listingFile?: string;
  listing?: AppListing;
  discovery?: DiscoveryResult;
  /**
   * Findings of `validateAppManifest` that belong to a later layer (UI static checks, the
   * `host_api.tools` linter): reported when that layer runs, so fail-fast holds per layer.
   */
  pending: Map<ValidateLayer, PendingIssue[]>;
}

/**
 * The layer of an issue code from `@anna-ai/app-schema`: the `host_api.tools` reference rules are
 * the cross-file linter (layer 3), other `ui.*` rules the UI static checks (layer 2), the rest
 * the schema (layer 1).
 */
export function layerOfIssue(code: string): ValidateLayer {
  if (code.startsWith("ui.host_api.tools.")) return "cross-file";
  if (code.startsWith("ui.")) return "ui";
  return "schema";
}
