/**
 * Problems found in a `SKILL.md`. Errors make a skill unloadable; warnings describe things the
 * platform accepts anyway (real-world-plugins.md: "warn, do not reject") and never block it.
 */
export type SkillIssueSeverity = "error" | "warning";

export interface SkillIssue {
  severity: SkillIssueSeverity;
  /** Stable, snake_case: `no_frontmatter`, `yaml_syntax`, `name_not_kebab`, … (README lists them). */
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
    this.errors.push(this.make("error", code, message, path, line));
  }

  warn(
    code: string,
    message: string,
    path: readonly (string | number)[] = [],
    line?: number,
  ): void {
    this.warnings.push(this.make("warning", code, message, path, line));
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
