// One turn's prompt from the user's message, their conversation, skills, executas and apps
// (L165, L182–L186, A37–A43, S12–S15, T6). Pure and synchronous: the same input gives the same
// prompt byte for byte, which is what the golden tests hold it to.
//
// System prompt, in order: the platform's own text; skills (index, Python section, always-on
// bodies); `<user_mentioned_executas>`; `<user_mentioned_apps>` and the prefix-template hint.
// Tools, in order: platform tools; the app-view tools when an activated app has views;
// `load_skill`; the executas this turn asked for; the user's other executas. Past the tool limit
// the tail is cut, so what the user mentioned is the last thing to go.

import type { AgentTool, AssembledPrompt } from "../turns/types.js";
import { anyAppHasViews, renderAppsBlock } from "./apps-block.js";
import { activeExecutas, toolsOfExecuta } from "./executa-tools.js";
import { renderMentionedExecutasBlock } from "./executas-block.js";
import { trimHistory } from "./history.js";
import { promptLimits } from "./limits.js";
import { notices } from "./notices.js";
import type { PromptInput } from "./prompt-input.js";
import { resolveMentions } from "./resolve-mentions.js";
import { skillsSection } from "./skills-section.js";
import { ToolNamer } from "./tool-names.js";

export class PromptAssemblyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromptAssemblyError";
  }
}

interface Section {
  /** What the notice calls it when it is dropped; undefined for sections that always stay. */
  label: string | undefined;
  text: string;
}

export function assemblePrompt(input: PromptInput): AssembledPrompt {
  const limits = promptLimits(input.limits);
  const resolved = resolveMentions(input, limits);
  const out: string[] = [...resolved.notices];

  const namer = new ToolNamer();
  const fixed: AgentTool[] = [];
  const addFixed = (tool: AgentTool, group: string): void => {
    if (!namer.reserve(tool.name)) {
      throw new PromptAssemblyError(
        `${group} tool "${tool.name}" has the same name as another platform tool; platform, app-view and skill tool names must be unique`,
      );
    }
    fixed.push(tool);
  };
  for (const tool of input.platformTools ?? []) addFixed(tool, "platform");
  if (anyAppHasViews(resolved.apps)) {
    for (const tool of input.appViewTools ?? []) addFixed(tool, "app-view");
  }
  const skills = skillsSection(input.skills, input.alwaysSkills ?? [], limits.maxSkillsIndexChars);
  if (skills.tool !== undefined) addFixed(skills.tool, "skills");
  if (skills.omitted.length > 0) out.push(notices.skillsIndexCapped(skills.omitted.length));

  const executas = activeExecutas(input.executas, resolved);
  out.push(...executas.notices);
  const toolsByExecuta = new Map<string, AgentTool[]>();
  const executaTools: AgentTool[] = [];
  for (const active of executas.active) {
    const tools = toolsOfExecuta(active, input.bindExecutaTool, namer);
    toolsByExecuta.set(active.executa.toolId, tools);
    executaTools.push(...tools);
  }
  const allTools = [...fixed, ...executaTools];
  const tools = allTools.slice(0, limits.maxTools);
  if (allTools.length > tools.length) {
    out.push(
      notices.toolsCapped(
        allTools.slice(tools.length).map((t) => t.name),
        limits.maxTools,
      ),
    );
  }
  const offered = new Set(tools);
  const offeredByExecuta = new Map(
    [...toolsByExecuta].map(([id, list]) => [id, list.filter((t) => offered.has(t))]),
  );

  const sections: Section[] = [
    { label: undefined, text: input.baseSystem ?? "" },
    { label: "the skills list", text: skills.system },
    {
      label: "the documentation of the @mentioned executas",
      text: renderMentionedExecutasBlock(resolved.executas, resolved.skills, offeredByExecuta),
    },
    {
      label: "the #mentioned apps' instructions",
      text: renderAppsBlock(
        resolved.apps.map((app) => ({
          app,
          bundled: executas.bundled.get(app.appId) ?? [],
          toolsByExecuta: offeredByExecuta,
        })),
      ),
    },
  ];
  const system = fitSystem(sections, limits.maxSystemChars, out);

  const history = trimHistory(input.history, limits.maxHistoryChars);
  if (history.dropped > 0) out.push(notices.historyTrimmed(history.dropped));

  return {
    system,
    messages: [...history.kept, { role: "user", content: input.text }],
    tools,
    activatedApps: resolved.apps.map((a) => a.appId),
    notices: out,
  };
}

/**
 * Joins the non-empty sections; while the result is over `maxChars`, drops the lowest-priority
 * droppable section (skills first, apps last) and says so.
 */
function fitSystem(sections: Section[], maxChars: number, out: string[]): string {
  const live = sections.filter((s) => s.text !== "");
  const join = (): string => live.map((s) => s.text).join("\n\n");
  let text = join();
  while (text.length > maxChars) {
    const victim = live.findIndex((s) => s.label !== undefined);
    if (victim === -1) break;
    const [dropped] = live.splice(victim, 1);
    out.push(notices.systemSectionDropped(dropped?.label ?? "a section", maxChars));
    text = join();
  }
  return text;
}
