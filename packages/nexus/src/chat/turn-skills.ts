// A turn's skills from the user's installed skill executas: each one's `SKILL.md` is the
// `skill_content` frozen in its installed version. The index lists summaries; `load_skill`
// reads the body from the same parse (nothing in a skill runs here, S13). `always: true` skills
// are inlined in the system prompt (S15).
import type { SkillCatalog } from "@anna-ai/agent";
import { formatSkillIssue, parseSkillFile, type Skill, type SkillSummary } from "@anna-ai/skills";
import type { InstalledExecuta } from "./installed-for-turn.js";

export interface TurnSkills {
  catalog: SkillCatalog | undefined;
  always: Skill[];
  /** A skill that could not be read, said in words the user can act on. */
  notices: string[];
}

export function turnSkills(installed: readonly InstalledExecuta[]): TurnSkills {
  const byId = new Map<string, Skill>();
  const notices: string[] = [];
  for (const e of installed) {
    const content = e.snapshot?.["skill_content"];
    if (typeof content !== "string") {
      notices.push(
        `The skill @${e.slug} was left out: its installed version has no SKILL.md (skill_content). Ask its author to publish a version with one.`,
      );
      continue;
    }
    const parsed = parseSkillFile(content, { fallbackName: e.slug });
    if (!parsed.ok) {
      const first = parsed.errors[0];
      notices.push(
        `The skill @${e.slug} was left out: its SKILL.md does not parse (${first ? formatSkillIssue(first) : "invalid"}). Ask its author to publish a fixed version.`,
      );
      continue;
    }
    // Two installed skills with one id: the first by tool id keeps it, as the index would.
    if (!byId.has(parsed.skill.id)) byId.set(parsed.skill.id, parsed.skill);
  }
  const skills = [...byId.values()];
  const catalog: SkillCatalog | undefined =
    skills.length === 0
      ? undefined
      : {
          list: (): readonly SkillSummary[] => skills,
          load: (id) => {
            const skill = byId.get(id);
            return skill === undefined
              ? Promise.reject(new Error(`no installed skill "${id}"`))
              : Promise.resolve(skill);
          },
        };
  return { catalog, always: skills.filter((s) => s.metadata.always), notices };
}
