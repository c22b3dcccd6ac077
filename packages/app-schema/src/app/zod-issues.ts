import type { z } from "zod";
import { type AppIssue, appIssue } from "./issues.js";
import { didYouMean } from "./suggest.js";
import { quote } from "./text.js";

/**
 * zod issues → `AppIssue`s with messages that say what is wrong and what would be right.
 * Parse with `{ reportInput: true }` so the offending value can be quoted.
 */

type ZodIssue = z.core.$ZodIssue;
type Path = (string | number)[];

export interface ZodIssueOptions {
  /** Field names an object at `path` accepts, for unknown-key messages and suggestions. */
  readonly knownKeys?: (path: readonly (string | number)[]) => readonly string[] | undefined;
  /** Appended to unknown-key messages, e.g. `(the manifest is extra="forbid")`. */
  readonly unknownKeyNote?: string;
}

function toPath(path: readonly PropertyKey[]): Path {
  return path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
}

/** A short rendering of a value for messages: strings quoted, long ones cut. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return quote(value);
  return `${typeof value} ${String(value)}`;
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean (true or false)",
  array: "an array",
  object: "an object",
  record: "an object",
  null: "null",
};

function expectedText(expected: string): string {
  return ARTICLE[expected] ?? expected;
}

const DEFAULT_MESSAGE = /^(Invalid|Too (big|small)|Unrecognized)/;

function isTypeMismatchAtRoot(branch: readonly ZodIssue[]): boolean {
  return branch.length === 1 && branch[0]?.code === "invalid_type" && branch[0].path.length === 0;
}

function customOf(issue: ZodIssue): { code?: string; specMessage?: string } {
  if (issue.code !== "custom") return {};
  const params = (issue as { params?: { code?: unknown; specMessage?: unknown } }).params;
  return {
    ...(typeof params?.code === "string" ? { code: params.code } : {}),
    ...(typeof params?.specMessage === "string" ? { specMessage: params.specMessage } : {}),
  };
}

function sizeUnit(origin: string, count: number | bigint): string {
  if (origin === "string") return count === 1 ? "character" : "characters";
  if (origin === "array" || origin === "set") return count === 1 ? "item" : "items";
  return "";
}

function genericMessage(issue: ZodIssue, input: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined) return `is required and must be ${expectedText(issue.expected)}`;
      return `must be ${expectedText(issue.expected)}, not ${describeValue(input)}`;
    case "too_small": {
      const min = issue.minimum;
      if (issue.origin === "string" && Number(min) === 1) return "must not be empty";
      if (issue.origin === "array" && Number(min) === 1) return "must list at least one item";
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
        return `must be ${issue.inclusive === false ? ">" : "≥"} ${String(min)}, not ${String(input)}`;
      }
      const got = typeof input === "string" || Array.isArray(input) ? ` (has ${input.length})` : "";
      return `must have at least ${String(min)} ${sizeUnit(issue.origin, min)}${got}`;
    }
    case "too_big": {
      const max = issue.maximum;
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint") {
        return `must be ${issue.inclusive === false ? "<" : "≤"} ${String(max)}, not ${String(input)}`;
      }
      const got = typeof input === "string" || Array.isArray(input) ? ` (has ${input.length})` : "";
      return `must have at most ${String(max)} ${sizeUnit(issue.origin, max)}${got}`;
    }
    case "invalid_value": {
      const allowed = issue.values.map((value) => JSON.stringify(value));
      const hint =
        typeof input === "string"
          ? didYouMean(
              input,
              issue.values.filter((value): value is string => typeof value === "string"),
            )
          : "";
      const list = allowed.length === 1 ? allowed[0] : `one of ${allowed.join(", ")}`;
      if (input === undefined) return `is required and must be ${list ?? "a listed value"}`;
      return `must be ${list ?? "a listed value"}, not ${describeValue(input)}${hint === "" ? "" : `.${hint}`}`;
    }
    case "invalid_format":
      if (issue.format === "regex" && "pattern" in issue && typeof issue.pattern === "string") {
        return `must match ${issue.pattern}, not ${describeValue(input)}`;
      }
      return `must be a valid ${issue.format}, not ${describeValue(input)}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message;
  }
}

function collect(issue: ZodIssue, prefix: Path, options: ZodIssueOptions, out: AppIssue[]): void {
  const path = [...prefix, ...toPath(issue.path)];
  if (issue.code === "invalid_union") {
    const informative = issue.errors.filter((branch) => !isTypeMismatchAtRoot(branch));
    if (informative.length === 1 && informative[0] !== undefined) {
      for (const inner of informative[0]) collect(inner, path, options, out);
      return;
    }
    const input = (issue as { input?: unknown }).input;
    const expected = issue.errors.every(isTypeMismatchAtRoot)
      ? [...new Set(issue.errors.map((branch) => expectedOf(branch[0])))]
      : [];
    const message =
      expected.length === 0
        ? `${describeValue(input)} is not an allowed form here`
        : input === undefined
          ? `is required and must be ${expected.map(expectedText).join(" or ")}`
          : `must be ${expected.map(expectedText).join(" or ")}, not ${describeValue(input)}`;
    out.push(appIssue("error", "schema.invalid_union", path, message));
    return;
  }
  if (issue.code === "unrecognized_keys") {
    const known = options.knownKeys?.(path);
    const note = options.unknownKeyNote === undefined ? "" : ` ${options.unknownKeyNote}`;
    for (const key of issue.keys) {
      const accepted =
        known === undefined
          ? ""
          : ` Accepted fields: ${known.join(", ")}.${didYouMean(key, known)}`;
      out.push(
        appIssue(
          "error",
          "schema.unknown_field",
          [...path, key],
          `unknown field "${key}".${accepted}${note}`,
        ),
      );
    }
    return;
  }
  const input = (issue as { input?: unknown }).input;
  const custom = customOf(issue);
  const message =
    issue.code === "custom" || !DEFAULT_MESSAGE.test(issue.message)
      ? issue.message
      : genericMessage(issue, input);
  out.push(
    appIssue("error", custom.code ?? `schema.${issue.code}`, path, message, custom.specMessage),
  );
}

function expectedOf(issue: ZodIssue | undefined): string {
  return issue?.code === "invalid_type" ? issue.expected : "a valid value";
}

/** Converts a failed parse. Union failures are unfolded to the one branch that explains them. */
export function fromZodIssues(
  issues: readonly ZodIssue[],
  options: ZodIssueOptions = {},
  prefix: readonly (string | number)[] = [],
): AppIssue[] {
  const out: AppIssue[] = [];
  for (const issue of issues) collect(issue, [...prefix], options, out);
  // zod still runs a schema's checks after its type check fails (an array's max on a string);
  // a wrong type is the whole story for that value.
  const wrongType = new Set(
    out.filter((issue) => issue.code === "schema.invalid_type").map((issue) => issue.pointer),
  );
  return out.filter(
    (issue) => issue.code === "schema.invalid_type" || !wrongType.has(issue.pointer),
  );
}
