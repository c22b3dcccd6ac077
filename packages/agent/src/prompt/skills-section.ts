// Skills in a turn (S12–S15): the system prompt lists each skill's name and description only;
// one tool, `load_skill`, returns a skill's body when the model picks it, preceded by its
// execution-mode hint and declared dependencies. Nothing in a skill is ever run here (S13).
// One loader tool rather than a tool per skill (decision "skills as one loader tool"): a user
// with a few hundred skills would otherwise exceed every provider's tool limit.

import {
  type Skill,
  type SkillSummary,
  renderAvailableSkillsBlock,
  renderPythonModeSection,
  renderSkillContent,
  skillToolName,
} from "@anna-ai/skills";
import type { AgentTool, ToolOutcome } from "../turns/types.js";
import type { SkillCatalog } from "./prompt-input.js";
import { element } from "./xml.js";

export const LOAD_SKILL_TOOL = "load_skill";
/** Names offered as an `enum` in the tool's schema up to this many; past it, free text. */
const LOAD_SKILL_ENUM_MAX = 200;
/** Names quoted back when the model asks for a skill that does not exist. */
const UNKNOWN_SKILL_SUGGESTIONS_MAX = 20;

export interface SkillsSection {
  /** The `<available_skills>` block with its instructions, the Python section, always-on bodies. */
  system: string;
  tool: AgentTool | undefined;
  /** Skills left out of the index by the size limit (still loadable by name). */
  omitted: string[];
}

export function skillsSection(
  catalog: SkillCatalog | undefined,
  alwaysSkills: readonly Skill[],
  maxIndexChars: number,
): SkillsSection {
  const skills = [...(catalog?.list() ?? [])].sort((a, b) => compare(a.id, b.id));
  if (skills.length === 0 && alwaysSkills.length === 0) {
    return { system: "", tool: undefined, omitted: [] };
  }
  const { listed, omitted } = fitIndex(skills, maxIndexChars);
  const parts: string[] = [];
  if (listed.length > 0) {
    parts.push(
      [
        "## Skills",
        `Skills are instructions for specific tasks. When a request matches a skill's description, call \`${LOAD_SKILL_TOOL}\` with its name and follow what it returns before answering. A skill does not run anything itself: run the commands it recommends with your execution tools.`,
        renderAvailableSkillsBlock(listed),
      ].join("\n"),
    );
  }
  const python = renderPythonModeSection(skills);
  if (python !== "") parts.push(python);
  for (const skill of alwaysSkills) {
    parts.push(
      element("always_loaded_skill", renderSkillContent(skill), {
        name: skillToolName(skill.id),
      }),
    );
  }
  const tool =
    catalog !== undefined && skills.length > 0 ? loadSkillTool(catalog, skills) : undefined;
  return { system: parts.join("\n\n"), tool, omitted: omitted.map((s) => s.id) };
}

/** What `renderAvailableSkillsBlock` puts around its entries (joined by newlines). */
const INDEX_WRAPPER_CHARS = "<available_skills>\n\n</available_skills>".length;

/** Index entries in id order until the block would pass `maxChars`. */
function fitIndex(
  skills: readonly SkillSummary[],
  maxChars: number,
): { listed: SkillSummary[]; omitted: SkillSummary[] } {
  if (renderAvailableSkillsBlock(skills).length <= maxChars)
    return { listed: [...skills], omitted: [] };
  const listed: SkillSummary[] = [];
  let size = INDEX_WRAPPER_CHARS;
  let i = 0;
  for (; i < skills.length; i++) {
    const skill = skills[i] as SkillSummary;
    const entry = renderAvailableSkillsBlock([skill]).length - INDEX_WRAPPER_CHARS;
    const separator = listed.length > 0 ? 1 : 0;
    if (size + separator + entry > maxChars) break;
    size += separator + entry;
    listed.push(skill);
  }
  return { listed, omitted: skills.slice(i) };
}

function loadSkillTool(catalog: SkillCatalog, skills: readonly SkillSummary[]): AgentTool {
  const byName = new Map<string, SkillSummary>();
  for (const skill of skills) {
    byName.set(skillToolName(skill.id), skill);
    byName.set(skill.id, skill);
  }
  const names = skills.map((s) => skillToolName(s.id));
  const nameSchema: Record<string, unknown> = {
    type: "string",
    description: "The skill's name, as listed in <available_skills>.",
  };
  if (names.length <= LOAD_SKILL_ENUM_MAX) nameSchema["enum"] = names;
  return {
    name: LOAD_SKILL_TOOL,
    description:
      "Load a skill's instructions: returns its execution-mode hint, its declared dependencies and its body. Call it when the user's request matches a skill in <available_skills>.",
    parameters: {
      type: "object",
      properties: { name: nameSchema },
      required: ["name"],
      additionalProperties: false,
    },
    source: { kind: "platform", family: "skills" },
    async execute(input): Promise<ToolOutcome> {
      const name =
        typeof input === "object" && input !== null
          ? (input as { name?: unknown }).name
          : undefined;
      if (typeof name !== "string" || name === "") {
        return {
          isError: true,
          output: `${LOAD_SKILL_TOOL} needs {"name": "<skill name>"}, e.g. {"name": "${names[0] ?? "my-skill"}"}`,
        };
      }
      const summary = byName.get(name);
      if (summary === undefined) {
        const known = names.slice(0, UNKNOWN_SKILL_SUGGESTIONS_MAX).join(", ");
        const more = names.length > UNKNOWN_SKILL_SUGGESTIONS_MAX ? ", …" : "";
        return {
          isError: true,
          output: `no skill named "${name}"; the available skills are: ${known}${more}`,
        };
      }
      try {
        return { output: renderSkillContent(await catalog.load(summary.id)) };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return {
          isError: true,
          output: `skill "${name}" could not be read (${reason}); answer without it or tell the user it is broken`,
        };
      }
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
