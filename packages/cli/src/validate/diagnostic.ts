// One finding of `anna-app validate`: which layer found it, in which file, at which JSON pointer
// and line:column, what is wrong and what would be right, and — where the spec quotes the
// platform's own message (some in Chinese, ruling A11) — that text verbatim.

/** The four layers of the spec (L4664–L4669), plus parsing, which every layer depends on. */
export const VALIDATE_LAYERS = Object.freeze([
  "parse",
  "schema",
  "ui",
  "cross-file",
  "strict",
] as const);
export type ValidateLayer = (typeof VALIDATE_LAYERS)[number];

export type Severity = "error" | "warning";

/** A place in a non-JSON file (a bundle script, a SKILL.md), for messages that cite one. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface Diagnostic {
  readonly severity: Severity;
  readonly layer: ValidateLayer;
  /** Stable rule id; tests, docs/validate.md and `--json` consumers key on it. */
  readonly code: string;
  /** Project-relative, `/`-separated. */
  readonly file: string;
  /** RFC 6901 pointer into `file` (`""` = the whole document; also `""` for non-JSON files). */
  readonly pointer: string;
  /** 1-based; 0 when the file does not exist. */
  readonly line: number;
  readonly column: number;
  /** English: what is wrong and what would be right. */
  readonly message: string;
  /** The spec's own wording, verbatim (A11), when it quotes one for this rule. */
  readonly specMessage?: string;
  /** Where in other files the finding was seen (e.g. bundle call sites). */
  readonly related?: readonly SourceLocation[];
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): {
  errors: number;
  warnings: number;
} {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === "error") errors++;
    else warnings++;
  }
  return { errors, warnings };
}
