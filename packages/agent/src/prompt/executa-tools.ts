// Which executas a turn activates and their tools as the model sees them. First the ones this
// turn asked for (the mentioned apps' bundled executas, required then optional in declared order
// (A38), then the `@`-mentioned ones), then the rest of what the user installed themselves, in
// tool-id order. That order is also the order tools are kept in when a turn has too many.

import { normalizeExecutaRef, toolTimeoutMs } from "@anna-ai/app-schema";
import type { AgentTool } from "../turns/types.js";
import { notices } from "./notices.js";
import type { BindExecutaTool, PromptApp, PromptExecuta } from "./prompt-input.js";
import type { ResolvedMentions } from "./resolve-mentions.js";
import { type ToolNamer, executaToolName } from "./tool-names.js";
import { toolJsonSchema } from "./tool-schema.js";

export interface ActiveExecuta {
  executa: PromptExecuta;
  /** The first activated app that bundles it; its tools run with that `appId` in their context. */
  appId: string | undefined;
}

export type BundledStatus = "active" | "disabled" | "not_installed";

export interface BundledExecuta {
  toolId: string;
  required: boolean;
  status: BundledStatus;
  executa: PromptExecuta | undefined;
}

export interface ActiveExecutas {
  /** In priority order. */
  active: ActiveExecuta[];
  /** How many of `active` this turn asked for (they come first). */
  requested: number;
  /** Per activated app id, its bundled executas in manifest order. */
  bundled: Map<string, BundledExecuta[]>;
  notices: string[];
}

export function activeExecutas(
  executas: readonly PromptExecuta[],
  resolved: ResolvedMentions,
): ActiveExecutas {
  const byId = new Map(executas.map((e) => [e.toolId, e]));
  const active = new Map<string, ActiveExecuta>();
  const bundled = new Map<string, BundledExecuta[]>();
  const out: string[] = [];

  for (const app of resolved.apps) {
    const entries: BundledExecuta[] = [];
    for (const { toolId, required } of bundledRefs(app)) {
      const executa = byId.get(toolId);
      const status: BundledStatus =
        executa === undefined ? "not_installed" : executa.enabled ? "active" : "disabled";
      entries.push({ toolId, required, status, executa });
      if (executa !== undefined && status === "active") {
        if (!active.has(toolId)) active.set(toolId, { executa, appId: app.appId });
      } else if (status === "disabled") {
        out.push(notices.bundledExecutaDisabled(app.slug, toolId));
      } else if (required) {
        // Optional executas the user never installed are expected (L4990); required ones are not.
        out.push(notices.requiredExecutaMissing(app.slug, toolId));
      }
    }
    bundled.set(app.appId, entries);
  }
  for (const executa of resolved.executas) {
    if (!active.has(executa.toolId)) active.set(executa.toolId, { executa, appId: undefined });
  }
  const requested = active.size;
  const rest = executas
    .filter((e) => e.enabled && e.source === "user" && !active.has(e.toolId))
    .sort((a, b) => (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0));
  for (const executa of rest) active.set(executa.toolId, { executa, appId: undefined });
  return { active: [...active.values()], requested, bundled, notices: out };
}

/** Required first, then optional, each in declared order; a tool id counts once (L4992). */
function bundledRefs(app: PromptApp): { toolId: string; required: boolean }[] {
  const seen = new Set<string>();
  const out: { toolId: string; required: boolean }[] = [];
  const lists = [
    [app.manifest.required_executas ?? [], true],
    [app.manifest.optional_executas ?? [], false],
  ] as const;
  for (const [refs, required] of lists) {
    for (const ref of refs.map(normalizeExecutaRef)) {
      if (seen.has(ref.tool_id)) continue;
      seen.add(ref.tool_id);
      out.push({ toolId: ref.tool_id, required });
    }
  }
  return out;
}

/** The model-facing tools of one executa, named through `namer` in manifest order. */
export function toolsOfExecuta(
  { executa, appId }: ActiveExecuta,
  bind: BindExecutaTool,
  namer: ToolNamer,
): AgentTool[] {
  return executa.manifest.tools.map((definition) => {
    const run = bind({ toolId: executa.toolId, tool: definition.name, definition });
    const description =
      typeof definition.description === "string" && definition.description.trim() !== ""
        ? definition.description
        : `${definition.name} (from ${executa.name})`;
    return {
      name: namer.claim(executaToolName(executa.slug, definition.name)),
      description,
      parameters: toolJsonSchema(definition),
      source: { kind: "executa", toolId: executa.toolId, tool: definition.name },
      timeoutMs: toolTimeoutMs(definition),
      execute: appId === undefined ? run : (input, ctx) => run(input, { ...ctx, appId }),
    };
  });
}
