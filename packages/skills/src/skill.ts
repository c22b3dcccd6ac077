import type { SkillFrontmatter, SkillMetadata } from "./types.js";

/** What the index keeps for every skill: everything but the body (S18). */
export interface SkillSummary {
  /** The identifier the agent sees: `metadata.skill_key` when set, else `name` (S6, X8). */
  id: string;
  name: string;
  description: string;
  frontmatter: SkillFrontmatter;
  /** Unwrapped (S5) and normalised (S6): every list present, defaults filled in. */
  metadata: SkillMetadata;
  /** The `SKILL.md` file, when the skill came from one. */
  path?: string;
  /** The skill folder; supporting files are relative to it. */
  dir?: string;
  /** 1-based line of `SKILL.md` where the body starts. */
  bodyLine: number;
}

/** A skill with its body: the markdown after the frontmatter, verbatim (L4107). */
export interface Skill extends SkillSummary {
  readonly body: string;
}
