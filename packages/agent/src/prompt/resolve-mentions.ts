// From mentions to what a turn activates (A37): an app only when the user has it installed and
// enabled, an executa only when installed and enabled. Anything else is left out with a notice
// that says how to fix it. Order is mention order throughout (A41).

import type { SkillSummary } from "@anna-ai/skills";
import type { PromptLimits } from "./limits.js";
import { parseMentions } from "./mentions.js";
import { notices } from "./notices.js";
import type { PromptApp, PromptExecuta, PromptInput } from "./prompt-input.js";

export interface ResolvedMentions {
  apps: PromptApp[];
  executas: PromptExecuta[];
  /** Skills named with `@` (a skill is an executa too, L59). */
  skills: SkillSummary[];
  notices: string[];
}

export function resolveMentions(input: PromptInput, limits: PromptLimits): ResolvedMentions {
  const parsed = parseMentions(input.text);
  const appNames = unique([
    ...parsed.apps.map((m) => m.name),
    ...(input.mentions?.apps ?? []).map((n) => n.toLowerCase()),
  ]);
  const executaNames = unique([
    ...parsed.executas.map((m) => m.name),
    ...(input.mentions?.executas ?? []).map((n) => n.toLowerCase()),
  ]);
  const skills = input.skills?.list() ?? [];
  const out: ResolvedMentions = { apps: [], executas: [], skills: [], notices: [] };

  const skippedApps: string[] = [];
  for (const name of appNames) {
    const app = input.apps.find((a) => a.slug === name || a.appId.toLowerCase() === name);
    if (app === undefined) {
      const executa = input.executas.find((e) => e.slug === name);
      out.notices.push(notices.appNotInstalled(name, executa?.slug));
    } else if (!app.enabled) {
      out.notices.push(notices.appDisabled(app.slug));
    } else if (out.apps.some((a) => a.appId === app.appId)) {
      continue;
    } else if (out.apps.length >= limits.maxMentionedApps) {
      skippedApps.push(app.slug);
    } else {
      out.apps.push(app);
    }
  }
  if (skippedApps.length > 0)
    out.notices.push(notices.tooManyApps(skippedApps, limits.maxMentionedApps));

  const skippedExecutas: string[] = [];
  for (const name of executaNames) {
    const byId = input.executas.filter((e) => e.toolId.toLowerCase() === name);
    const matches = byId.length > 0 ? byId : input.executas.filter((e) => e.slug === name);
    if (matches.length === 0) {
      const skill = skills.find((s) => s.id.toLowerCase() === name || s.name === name);
      if (skill !== undefined) {
        if (!out.skills.includes(skill)) out.skills.push(skill);
        continue;
      }
      const app = input.apps.find((a) => a.slug === name);
      out.notices.push(notices.executaNotInstalled(name, app?.slug));
      continue;
    }
    for (const executa of matches) {
      if (!executa.enabled) {
        out.notices.push(notices.executaDisabled(name, executa.toolId));
      } else if (out.executas.includes(executa)) {
        continue;
      } else if (out.executas.length >= limits.maxMentionedExecutas) {
        skippedExecutas.push(executa.slug);
      } else {
        out.executas.push(executa);
      }
    }
  }
  if (skippedExecutas.length > 0) {
    out.notices.push(notices.tooManyExecutas(skippedExecutas, limits.maxMentionedExecutas));
  }
  return out;
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
