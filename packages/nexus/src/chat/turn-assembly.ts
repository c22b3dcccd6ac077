// The server's prompt assembler for chat turns: for the turn's user it reads the installed apps
// (at their installed version), executas and skills, prepares the executas the turn can reach
// through the executa runtime, and hands all of it to @anna-ai/agent's `assemblePrompt` with the
// platform tools and, when an activated app has views, the app view tools. Executa tools run in
// the runtime's pool (one warm process per user and tool). What assembly could not use reaches
// the user as notices, never as a failed turn.
import {
  appViewTools,
  assemblePrompt,
  poolBinder,
  type AgentTool,
  type AppViews,
  type AssembledPrompt,
  type BindExecutaTool,
  type PoolExecuta,
  type PromptApp,
  type PromptExecuta,
  type PromptLimits,
} from "@anna-ai/agent";
import type { Kysely } from "kysely";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import type { ExecutaRuntime, ResolvedExecuta } from "../executas/executa-runtime.js";
import type { PromptAssembler, PromptInput } from "./chat-service.js";
import { installedApps, installedExecutas, type InstalledExecuta } from "./installed-for-turn.js";
import { PREPARE_CONCURRENCY, prepareExecutas } from "./prepare-executas.js";
import { turnNeeds } from "./turn-needs.js";
import { turnSkills } from "./turn-skills.js";

export interface TurnAssemblerOptions {
  db: Kysely<Database>;
  /** Installs and runs executas; without it, executa tools are left out with a notice. */
  executas: ExecutaRuntime | undefined;
  /** The platform built-ins every turn has (chat-platform-tools.ts builds them once at start). */
  platformTools?: readonly AgentTool[];
  /** Opens app windows for `open_app_view`; without it, the app view tools are not offered. */
  appViews?: AppViews;
  logger: Logger;
  /** Executas one turn prepares at once. */
  prepareConcurrency?: number;
  limits?: Partial<PromptLimits>;
}

export function turnAssembler(options: TurnAssemblerOptions): PromptAssembler {
  return async (input: PromptInput): Promise<AssembledPrompt> => {
    const { db } = options;
    const [apps, installed] = await Promise.all([
      installedApps(db, input.user.id),
      installedExecutas(db, input.user.id),
    ]);
    const needs = turnNeeds(input.text, apps, installed);
    const reachable = (e: InstalledExecuta) => e.enabled && needs.toolIds.has(e.toolId);
    const tools = installed.filter((e) => e.type === "tool");
    const prepared = await prepareExecutas(
      options.executas,
      tools.filter(reachable),
      input.signal,
      options.prepareConcurrency ?? PREPARE_CONCURRENCY,
    );
    const notices: string[] = [];
    for (const [toolId, reason] of prepared.failed) {
      const e = tools.find((t) => t.toolId === toolId);
      notices.push(executaUnavailable(e?.slug ?? toolId, reason));
      options.logger.log("warn", "executa left out of a chat turn", {
        turn_id: input.turnId,
        tool_id: toolId,
        error: reason,
      });
    }
    const skills = turnSkills(installed.filter((e) => e.type === "skill" && reachable(e)));
    notices.push(...skills.notices);

    const userId = String(input.user.id);
    const assembled = assemblePrompt({
      text: input.text,
      history: input.history,
      baseSystem: input.system,
      ...(skills.catalog ? { skills: skills.catalog } : {}),
      alwaysSkills: skills.always,
      executas: tools.map((e) => promptExecuta(e, prepared.ready)),
      bindExecutaTool: binder(options.executas, userId, prepared.ready),
      apps,
      platformTools: [...(options.platformTools ?? []), ...input.tools],
      appViewTools: options.appViews
        ? appViewTools({ views: options.appViews, apps: needs.apps.map(viewApp) })
        : [],
      ...(options.limits ? { limits: options.limits } : {}),
    });
    return { ...assembled, notices: [...notices, ...assembled.notices] };
  };
}

/**
 * An installed tool executa as assembly sees it. One that is not prepared (not reachable this
 * turn, or failed) keeps its row but offers no tools: assembly then neither offers it nor says
 * it is missing (the notice above says what really happened).
 */
function promptExecuta(
  e: InstalledExecuta,
  ready: ReadonlyMap<string, ResolvedExecuta>,
): PromptExecuta {
  return {
    toolId: e.toolId,
    slug: e.slug,
    name: e.name,
    ...(e.description ? { description: e.description } : {}),
    enabled: e.enabled,
    source: e.source,
    manifest: { tools: ready.get(e.toolId)?.manifest.tools ?? [] },
  };
}

function binder(
  runtime: ExecutaRuntime | undefined,
  userId: string,
  ready: ReadonlyMap<string, PoolExecuta>,
): BindExecutaTool {
  if (runtime !== undefined) return poolBinder(runtime.pool, userId, ready);
  // Unreachable in practice: without a runtime nothing is prepared, so no tool is offered.
  return ({ toolId }) =>
    () =>
      Promise.resolve({
        output: { error: `executa ${toolId} cannot run: this server runs no plugins` },
        isError: true,
      });
}

function viewApp(app: PromptApp): { appId: string; views: { name: string; default?: boolean }[] } {
  const views = app.manifest.schema === 2 ? (app.manifest.ui?.views ?? []) : [];
  return {
    appId: app.appId,
    views: views.map((v) => ({ name: v.name, ...(v.default ? { default: true } : {}) })),
  };
}

function executaUnavailable(slug: string, reason: string): string {
  return `@${slug} is not available in this turn: it could not be started (${reason}). Its tools are missing; try again later, or reinstall it if this persists.`;
}
