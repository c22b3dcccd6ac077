// An installed executa's tools as the model sees them (AgentTool), each calling through the
// pool with the tool's declared timeout. Failures come back as error results for the model,
// never as throws, so one broken plugin cannot fail a turn.

import { toolTimeoutMs } from "@anna-ai/app-schema";
import type { InvokeOutcome } from "@anna-ai/executa-host";
import type { BindExecutaTool } from "../prompt/prompt-input.js";
import { executaToolName } from "../prompt/tool-names.js";
import { toolJsonSchema } from "../prompt/tool-schema.js";
import type { AgentTool, ToolOutcome } from "../turns/types.js";
import type { ExecutaPool, PoolExecuta } from "./executa-pool.js";

/**
 * `<tool_id>__<tool>` in the characters providers accept, at most 64. Prompt assembly names the
 * tools of a turn by slug instead (`executaToolName`); this is for callers without one.
 */
export function modelToolName(toolId: string, tool: string): string {
  return executaToolName(toolId, tool);
}

export function outcomeToToolResult(outcome: InvokeOutcome): ToolOutcome {
  if (outcome.ok) return { output: outcome.data };
  if (outcome.kind === "tool_failed") return { output: { error: outcome.error }, isError: true };
  const data = outcome.error.data as { errorCode?: unknown } | undefined;
  return {
    output: {
      error: outcome.error.message,
      ...(typeof data?.errorCode === "string" ? { code: data.errorCode } : {}),
    },
    isError: true,
  };
}

function isArgs(input: unknown): input is Record<string, unknown> | undefined {
  return (
    input === undefined || (input !== null && typeof input === "object" && !Array.isArray(input))
  );
}

/** How one tool of `executa` runs for `userId`: through the pool, errors as results. */
export function poolExecute(
  pool: ExecutaPool,
  userId: string,
  executa: PoolExecuta,
  tool: string,
  timeoutMs: number,
): AgentTool["execute"] {
  return async (input, ctx): Promise<ToolOutcome> => {
    if (ctx.userId !== userId) {
      return {
        output: { error: `this tool was built for user "${userId}", not "${ctx.userId}"` },
        isError: true,
      };
    }
    if (!isArgs(input)) {
      return {
        output: {
          error: `the arguments of ${tool} must be a JSON object, got ${JSON.stringify(input)}`,
        },
        isError: true,
      };
    }
    try {
      const outcome = await pool.invoke(userId, executa, tool, input, {
        signal: ctx.signal,
        timeoutMs,
      });
      return outcomeToToolResult(outcome);
    } catch (error) {
      return { output: { error: (error as Error).message }, isError: true };
    }
  };
}

/**
 * The executor side of prompt assembly's seam: `assemblePrompt({bindExecutaTool})` names and
 * describes the tools, this runs them. `executas` are the user's, by tool id.
 */
export function poolBinder(
  pool: ExecutaPool,
  userId: string,
  executas: ReadonlyMap<string, PoolExecuta>,
): BindExecutaTool {
  return ({ toolId, tool, definition }) => {
    const executa = executas.get(toolId);
    if (executa === undefined) {
      return () =>
        Promise.resolve({
          output: { error: `executa ${toolId} is not installed for this user` },
          isError: true,
        });
    }
    return poolExecute(pool, userId, executa, tool, toolTimeoutMs(definition));
  };
}

export async function executaTools(
  pool: ExecutaPool,
  userId: string,
  executa: PoolExecuta,
): Promise<AgentTool[]> {
  const manifest = executa.manifest ?? (await pool.describe(userId, executa));
  const toolId = executa.spec.toolId;
  return manifest.tools.map((tool): AgentTool => {
    const timeoutMs = toolTimeoutMs(tool);
    return {
      name: modelToolName(toolId, tool.name),
      ...(tool.description == null ? {} : { description: tool.description }),
      parameters: toolJsonSchema(tool),
      source: { kind: "executa", toolId, tool: tool.name },
      timeoutMs,
      execute: poolExecute(pool, userId, executa, tool.name, timeoutMs),
    };
  });
}
