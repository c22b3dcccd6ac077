import { basename, dirname } from "node:path";
import { checkFrontmatter } from "./frontmatter-checks.js";
import { IssueSink, type SkillIssue } from "./issues.js";
import { readFrontmatterYaml } from "./read-yaml.js";
import type { Skill, SkillSummary } from "./skill.js";
import { splitFrontmatter } from "./split-frontmatter.js";

/**
 * Real frontmatter is under a few KiB; the cap bounds what a hostile file can make the YAML
 * parser do (deep nesting costs it about a second per 100 KB).
 */
export const MAX_FRONTMATTER_CHARS = 256 * 1024;

export interface ParseSkillOptions {
  /** The `SKILL.md` path: used in messages, for `dir`, and for the name fallback. */
  path?: string;
  /** Overrides the name fallback (default: the folder that holds `path`) (X1). */
  fallbackName?: string;
}

export type ParseSkillResult =
  | { ok: true; skill: Skill; warnings: SkillIssue[]; errors: [] }
  | { ok: false; skill?: undefined; warnings: SkillIssue[]; errors: SkillIssue[] };

/**
 * Parses one `SKILL.md`. Never throws on bad content: every problem comes back as an issue with
 * a line number. The body is cut out of `text` only when first read.
 */
export function parseSkillFile(text: string, options: ParseSkillOptions = {}): ParseSkillResult {
  const head = parseSkillHead(text, false, options);
  if (head.kind === "truncated") throw new Error("unreachable: a whole file is never a prefix");
  if (!head.ok) return { ok: false, warnings: head.warnings, errors: head.errors };
  const { summary, bodyOffset } = head;
  let body: string | undefined;
  const skill: Skill = Object.defineProperty({ ...summary }, "body", {
    enumerable: true,
    get: () => (body ??= text.slice(bodyOffset)),
  }) as Skill;
  return { ok: true, skill, warnings: head.warnings, errors: [] };
}

export type SkillHead =
  | {
      kind: "parsed";
      ok: true;
      summary: SkillSummary;
      bodyOffset: number;
      warnings: SkillIssue[];
      errors: [];
    }
  | { kind: "parsed"; ok: false; warnings: SkillIssue[]; errors: SkillIssue[] }
  /** `text` was a prefix that ended inside the frontmatter: read more. */
  | { kind: "truncated" };

/**
 * The frontmatter half of parsing; the index runs it on the head of each file. A bug of ours
 * or of a library on some input must cost that one skill, not the index: it becomes an issue.
 */
export function parseSkillHead(
  text: string,
  isPrefix: boolean,
  options: ParseSkillOptions,
): SkillHead {
  try {
    return parseHead(text, isPrefix, options);
  } catch (cause) {
    const sink = new IssueSink(options.path);
    sink.error(
      "skill.internal",
      `could not read this SKILL.md (${cause instanceof Error ? cause.message : String(cause)}); please report it with the file`,
    );
    return { kind: "parsed", ok: false, warnings: [], errors: sink.errors };
  }
}

function parseHead(text: string, isPrefix: boolean, options: ParseSkillOptions): SkillHead {
  const split = splitFrontmatter(text, isPrefix);
  if (split.kind === "unclosed" && split.truncated) return { kind: "truncated" };
  const file = options.path;
  if (split.kind !== "ok") {
    const sink = new IssueSink(file);
    if (split.kind === "no_frontmatter") {
      sink.error(
        "skill.no_frontmatter",
        "SKILL.md must start with YAML frontmatter: a line `---`, then `name:` and `description:`, then a closing `---`",
        [],
        1,
      );
    } else {
      sink.error(
        "skill.frontmatter_unclosed",
        "the frontmatter opened with `---` on line 1 is never closed: add a line `---` after the last key",
        [],
        1,
      );
    }
    return { kind: "parsed", ok: false, warnings: sink.warnings, errors: sink.errors };
  }

  if (split.yaml.length > MAX_FRONTMATTER_CHARS) {
    const sink = new IssueSink(file);
    sink.error(
      "skill.frontmatter_too_large",
      `the frontmatter is ${split.yaml.length} characters; the limit is ${MAX_FRONTMATTER_CHARS}: keep name, description and metadata there and move the rest into the body`,
      [],
      1,
    );
    return { kind: "parsed", ok: false, warnings: [], errors: sink.errors };
  }

  let lineOf: (path: readonly (string | number)[]) => number | undefined = () => undefined;
  const sink = new IssueSink(file, (path) => lineOf(path));
  const read = readFrontmatterYaml(split.yaml, split.yamlFirstLine, sink);
  // A missing key has no line of its own: point at the opening fence.
  lineOf = (path) => read.lineOf(path) ?? 1;
  if (read.data === undefined) {
    return { kind: "parsed", ok: false, warnings: sink.warnings, errors: sink.errors };
  }
  const fallbackName =
    options.fallbackName ?? (file !== undefined ? basename(dirname(file)) : undefined);
  const checked = checkFrontmatter(
    read.data,
    sink,
    fallbackName !== undefined ? { fallbackName } : {},
  );
  if (checked === undefined || sink.errors.length > 0) {
    return { kind: "parsed", ok: false, warnings: sink.warnings, errors: sink.errors };
  }
  const { frontmatter, metadata } = checked;
  const summary: SkillSummary = {
    id: metadata.skill_key ?? frontmatter.name,
    name: frontmatter.name,
    description: frontmatter.description,
    frontmatter,
    metadata,
    bodyLine: split.bodyFirstLine,
  };
  if (file !== undefined) {
    summary.path = file;
    summary.dir = dirname(file);
  }
  return {
    kind: "parsed",
    ok: true,
    summary,
    bodyOffset: split.bodyOffset,
    warnings: sink.warnings,
    errors: [],
  };
}
