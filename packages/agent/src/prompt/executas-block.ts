// The `<user_mentioned_executas>` block: what the user named with `@` (L165). Their tools are
// in the tool list already; the block says the user asked for them, with their documentation.

import { type SkillSummary, skillToolName } from "@anna-ai/skills";
import type { AgentTool } from "../turns/types.js";
import type { PromptExecuta } from "./prompt-input.js";
import { LOAD_SKILL_TOOL } from "./skills-section.js";
import { attrs, element } from "./xml.js";

export function renderMentionedExecutasBlock(
  executas: readonly PromptExecuta[],
  skills: readonly SkillSummary[],
  toolsByExecuta: ReadonlyMap<string, readonly AgentTool[]>,
): string {
  if (executas.length === 0 && skills.length === 0) return "";
  const items: string[] = [];
  for (const executa of executas) {
    const head = `<executa${attrs({ tool_id: executa.toolId, slug: executa.slug, name: executa.name })}>`;
    const body: string[] = [];
    if (executa.description !== undefined && executa.description !== "") {
      body.push(element("description", executa.description));
    }
    for (const tool of toolsByExecuta.get(executa.toolId) ?? []) {
      body.push(element("tool", tool.description ?? "", { name: tool.name }));
    }
    items.push(
      body.length === 0 ? `${head.slice(0, -1)} />` : [head, ...body, "</executa>"].join("\n"),
    );
  }
  for (const skill of skills) {
    items.push(`<skill${attrs({ name: skillToolName(skill.id) })} />`);
  }
  const skillHint =
    skills.length > 0 ? ` Load the mentioned skills with \`${LOAD_SKILL_TOOL}\` first.` : "";
  return [
    `The user mentioned these executas with @ in this message: prefer their tools for this request.${skillHint}`,
    "<user_mentioned_executas>",
    ...items,
    "</user_mentioned_executas>",
  ].join("\n");
}
