/**
 * One issue model for every app-format validator (manifest, app.json, executa.json, SKILL.md
 * frontmatter): a severity, a stable rule code, the RFC 6901 pointer of the offending value, an
 * English message that says what is wrong and what would be right, and, where the spec quotes
 * its own validator's wording (some of it Chinese, ruling A11), that text verbatim.
 */

export type AppIssueSeverity = "error" | "warning";

export interface AppIssue {
  readonly severity: AppIssueSeverity;
  /** Stable rule id (`manifest.unknown_field`, `ui.views.count`, …); tests and `--json` key on it. */
  readonly code: string;
  /** RFC 6901 pointer into the parsed document; `""` is the whole document. */
  readonly pointer: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** The spec's own validator message, verbatim (A11), when it quotes one for this rule. */
  readonly specMessage?: string;
}

/** What every `validateX(raw)` returns. `ok` means no error; warnings may still be present. */
export interface AppValidation<T> {
  readonly ok: boolean;
  /** The parsed value (defaults applied) when there is no error. */
  readonly value?: T;
  readonly issues: readonly AppIssue[];
}

/** RFC 6901: `~` → `~0`, `/` → `~1`; `[]` → `""`, `["ui","views",0]` → `/ui/views/0`. */
export function issuePointer(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    const text = typeof segment === "symbol" ? (segment.description ?? "") : String(segment);
    out += `/${text.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  }
  return out;
}

/** `/ui/views/0: message` and, when the spec quotes one, `  spec: <verbatim>` on a second line. */
export function formatAppIssue(issue: AppIssue): string {
  const head = `${issue.severity} ${issue.pointer === "" ? "/" : issue.pointer}: ${issue.message}`;
  return issue.specMessage === undefined ? head : `${head}\n  spec: ${issue.specMessage}`;
}

export function errorsOf(issues: readonly AppIssue[]): AppIssue[] {
  return issues.filter((issue) => issue.severity === "error");
}

export function warningsOf(issues: readonly AppIssue[]): AppIssue[] {
  return issues.filter((issue) => issue.severity === "warning");
}

export function hasErrors(issues: readonly AppIssue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

/** Builds an issue from a path; keeps the pointer and the path in step. */
export function appIssue(
  severity: AppIssueSeverity,
  code: string,
  path: readonly (string | number)[],
  message: string,
  specMessage?: string,
): AppIssue {
  const issue = { severity, code, pointer: issuePointer(path), path: [...path], message };
  return specMessage === undefined ? issue : { ...issue, specMessage };
}
