/**
 * Human-readable schema errors. zod reports a failed union as one "Invalid input" at the union;
 * when exactly one branch got past the type check (an array where `parameters[]` or a
 * JSON-Schema object is allowed), its issues are the ones that explain the problem.
 */

/** The part of a zod issue this needs, so callers need not import zod types. */
export interface SchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly errors?: readonly (readonly SchemaIssue[])[];
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "(root)" : out;
}

function isTypeMismatchAtRoot(branch: readonly SchemaIssue[]): boolean {
  return branch.length === 1 && branch[0]?.code === "invalid_type" && branch[0].path.length === 0;
}

function collect(issue: SchemaIssue, prefix: readonly PropertyKey[], lines: string[]): void {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors !== undefined) {
    const informative = issue.errors.filter((branch) => !isTypeMismatchAtRoot(branch));
    if (informative.length === 1 && informative[0] !== undefined) {
      for (const inner of informative[0]) collect(inner, path, lines);
      return;
    }
  }
  lines.push(`${formatPath(path)}: ${issue.message}`);
}

/** One line per problem: `tools[0].parameters[1].name: Invalid input: expected string, …`. */
export function formatIssues(issues: readonly SchemaIssue[]): string[] {
  const lines: string[] = [];
  for (const issue of issues) collect(issue, [], lines);
  return lines;
}
