/**
 * Problems found in a `SKILL.md`. Errors make a skill unloadable; warnings describe things the
 * platform accepts anyway (real-world-plugins.md: "warn, do not reject") and never block it.
 */
export type SkillIssueSeverity = "error" | "warning";

export interface SkillIssue {
  severity: SkillIssueSeverity;
  /** Stable rule id: `skill.no_frontmatter`, `skill.yaml_tag`, `skill.name_not_kebab`, … (README lists them). */
  code: string;
  /** What is wrong and, where we know it, what would be right. One line. */
  message: string;
  /** The `SKILL.md` path when known. */
  file?: string;
  /** 1-based line in the file (not in the frontmatter). */
  line?: number;
  /** 1-based column when known. */
  column?: number;
  /** JSON pointer into the frontmatter as parsed (`/metadata/matrix/install/0/kind`). */
  pointer?: string;
  /** The platform's own wording, verbatim, when the spec quotes one (ruling A11). */
  specMessage?: string;
}

/** `SKILL.md:3:5: error yaml_syntax: …` — the one-line form the CLI prints. */
export function formatSkillIssue(issue: SkillIssue): string {
  let where = issue.file ?? "SKILL.md";
  if (issue.line !== undefined) {
    where += `:${issue.line}`;
    if (issue.column !== undefined) where += `:${issue.column}`;
  }
  const pointer =
    issue.pointer !== undefined && issue.pointer !== "" ? ` (at ${issue.pointer})` : "";
  return `${where}: ${issue.severity} ${issue.code}: ${issue.message}${pointer}`;
}

/** RFC 6901 pointer from path segments. */
export function toPointer(path: readonly (string | number)[]): string {
  return path.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** Collects issues with the file and a line resolver bound once. */
export class IssueSink {
  readonly errors: SkillIssue[] = [];
  readonly warnings: SkillIssue[] = [];

  constructor(
    private readonly file: string | undefined,
    private readonly lineOf: (path: readonly (string | number)[]) => number | undefined = () =>
      undefined,
  ) {}

  error(
    code: string,
    message: string,
    path: readonly (string | number)[] = [],
    line?: number,
  ): void {
    const issue = this.make("error", code, message, path, line);
    if (!this.isDuplicate(this.errors, issue)) this.errors.push(issue);
  }

  warn(
    code: string,
    message: string,
    path: readonly (string | number)[] = [],
    line?: number,
  ): void {
    const issue = this.make("warning", code, message, path, line);
    if (!this.isDuplicate(this.warnings, issue)) this.warnings.push(issue);
  }

  /** Parsers may report one problem from two angles; keep one line per problem. */
  private isDuplicate(list: readonly SkillIssue[], issue: SkillIssue): boolean {
    return list.some(
      (i) =>
        i.code === issue.code &&
        i.line === issue.line &&
        i.message === issue.message &&
        i.pointer === issue.pointer,
    );
  }

  private make(
    severity: SkillIssueSeverity,
    code: string,
    message: string,
    path: readonly (string | number)[],
    line: number | undefined,
  ): SkillIssue {
    const issue: SkillIssue = { severity, code, message };
    if (this.file !== undefined) issue.file = this.file;
    const at = line ?? this.lineOf(path);
    if (at !== undefined) issue.line = at;
    if (path.length > 0) issue.pointer = toPointer(path);
    return issue;
  }
}
