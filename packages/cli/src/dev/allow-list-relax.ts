// Published manifests break the platform's server-side allow-lists (a host capability such as
// `llm.image` in top-level `permissions`, a URL in `style-src`). Production refuses those values;
// `anna-app dev` still runs the app, without them: each refused value is dropped from the manifest
// the harness uses (so the CSP it serves leaves the source out) and becomes a warning that says so.
// Any other error (bad structure, no runnable view) still stops the launch.
import { validateAppManifest, type AppIssue, type AppManifest } from "@anna-ai/app-schema";

/** Rule codes of the allow-lists production enforces on values the harness can simply leave out. */
const DROPPABLE_CODES = new Set(["manifest.permission", "ui.csp.restricted_source"]);

/** A refused permission or CSP source sits in an array; a pass can only reveal new layers' errors. */
const MAX_PASSES = 4;

export type RelaxedManifest =
  | { ok: true; manifest: AppManifest; warnings: string[] }
  | { ok: false; issue: AppIssue | undefined };

/**
 * Validates `raw` as production would; when the only errors are allow-list values, validates it
 * again without them (the structural layer stops at its errors, so the rule layer's own
 * allow-list errors appear only on a later pass).
 */
export function relaxAllowLists(raw: unknown): RelaxedManifest {
  let current = raw;
  const warnings: string[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const checked = validateAppManifest(current);
    const errors = checked.issues.filter((issue) => issue.severity === "error");
    if (checked.ok && checked.value !== undefined) {
      return { ok: true, manifest: checked.value, warnings };
    }
    const blocking = errors.find((issue) => !droppable(current, issue));
    if (blocking !== undefined || errors.length === 0) {
      return { ok: false, issue: blocking ?? checked.issues[0] };
    }
    const before = current;
    current = structuredClone(current);
    // Later indexes first, so dropping one does not shift the next.
    for (const issue of [...errors].sort(byIndexDescending)) dropAt(current, issue.path);
    for (const issue of errors) warnings.push(droppedWarning(issue, valueAt(before, issue.path)));
  }
  return { ok: false, issue: validateAppManifest(current).issues[0] };
}

/** app.json errors (a `category` production does not list, …): the harness needs none of it. */
export function listingWarnings(issues: readonly AppIssue[]): string[] {
  return issues
    .filter((issue) => issue.severity === "error")
    .map(
      (issue) =>
        `app.json ${issue.pointer || "/"}: ${issue.message} (publishing refuses this; the harness runs without it)`,
    );
}

function droppable(doc: unknown, issue: AppIssue): boolean {
  if (!DROPPABLE_CODES.has(issue.code)) return false;
  const index = issue.path.at(-1);
  return typeof index === "number" && Array.isArray(valueAt(doc, issue.path.slice(0, -1)));
}

function byIndexDescending(a: AppIssue, b: AppIssue): number {
  return Number(b.path.at(-1)) - Number(a.path.at(-1));
}

function valueAt(doc: unknown, path: readonly (string | number)[]): unknown {
  let node = doc;
  for (const key of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function dropAt(doc: unknown, path: readonly (string | number)[]): void {
  const list = valueAt(doc, path.slice(0, -1)) as unknown[];
  list.splice(Number(path.at(-1)), 1);
}

function droppedWarning(issue: AppIssue, value: unknown): string {
  const shown = JSON.stringify(value);
  const effect =
    issue.code === "ui.csp.restricted_source"
      ? `the harness serves the CSP without ${shown}, as production would`
      : `the harness runs without ${shown}`;
  return `manifest.json ${issue.pointer}: ${issue.message} (production refuses this manifest; ${effect})`;
}
