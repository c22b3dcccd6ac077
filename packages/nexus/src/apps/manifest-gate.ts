// The server's manifest gate: the same validator `anna-app validate` runs (@anna-ai/app-schema),
// plus what only a server-bound manifest must hold: every `bundled:<handle>` already replaced by a
// minted tool_id (the CLI substitutes them before upload, real-world-cli.md §9.1 step 3).
import {
  type AppIssue,
  type AppManifest,
  declaredToolIds,
  errorsOf,
  formatAppIssue,
  validateAppManifest,
} from "@anna-ai/app-schema";
import { NexusError } from "../core/errors.js";

export interface ManifestReport {
  valid: boolean;
  manifest: AppManifest | undefined;
  issues: AppIssue[];
}

export function checkManifest(raw: unknown): ManifestReport {
  const result = validateAppManifest(raw);
  const issues = [...result.issues];
  if (result.ok && result.value) {
    for (const id of declaredToolIds(result.value, "any")) {
      if (id.startsWith("bundled:")) {
        issues.push({
          severity: "error",
          code: "manifest.bundled_unresolved",
          pointer: "",
          path: [],
          message: `"${id}" was not replaced by a minted tool_id; publish with \`anna-app apps publish\` or \`apps push\`, which substitute bundled handles`,
        });
      }
    }
  }
  const valid = errorsOf(issues).length === 0;
  return { valid, manifest: valid ? result.value : undefined, issues };
}

export function issueView(i: AppIssue) {
  return {
    severity: i.severity,
    code: i.code,
    pointer: i.pointer,
    message: i.message,
    ...(i.specMessage === undefined ? {} : { spec_message: i.specMessage }),
  };
}

/** The validated manifest, or a 422 naming the first error and carrying them all. */
export function requireValidManifest(raw: unknown, what: string): AppManifest {
  const report = checkManifest(raw);
  if (!report.manifest) {
    const errors = errorsOf(report.issues);
    throw new NexusError(
      "invalid_manifest",
      `${what}: the manifest is invalid (${errors.length} error${errors.length === 1 ? "" : "s"}): ${
        errors[0] ? formatAppIssue(errors[0]) : "?"
      }; run \`anna-app validate\` locally`,
      { details: { issues: report.issues.map(issueView) } },
    );
  }
  return report.manifest;
}

/** The UI bundle entry a manifest declares, when it has one. */
export function bundleEntryOf(manifest: unknown): string | undefined {
  const entry = (manifest as { ui?: { bundle?: { entry?: unknown } } } | null)?.ui?.bundle?.entry;
  return typeof entry === "string" && entry !== "" ? entry : undefined;
}
