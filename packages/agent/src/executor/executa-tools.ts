// An installed executa's tools as the model sees them (AgentTool), each calling through the
// pool with the tool's declared timeout. Failures come back as error results for the model,
// never as throws, so one broken plugin cannot fail a turn.

import { toLlmToolSchema, toolTimeoutMs, type ToolDefinition } from "@anna-ai/app-schema";
import type { InvokeOutcome } from "@anna-ai/executa-host";
import type { AgentTool, ToolOutcome } from "../turns/types.js";
import type { ExecutaPool, PoolExecuta } from "./executa-pool.js";

/** Providers accept `^[a-zA-Z0-9_-]{1,64}$` for tool names. */
const MODEL_NAME_MAX = 64;

/** `<tool_id>__<tool>`, flattened to the characters providers accept and cut to 64. */
export function modelToolName(toolId: string, tool: string): string {
  return `${toolId}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MODEL_NAME_MAX);
}

/**
 * The tool's parameters as a JSON Schema object.
 * TODO(merge): replace with `toolJsonSchema` from packages/agent/src/prompt/ (T6), written
 * alongside; this one only wraps app-schema's converter and drops its warnings.
 */
function parametersSchema(tool: ToolDefinition): Record<string, unknown> {
  return toLlmToolSchema(tool).schema;
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
      parameters: parametersSchema(tool),
      source: { kind: "executa", toolId, tool: tool.name },
      timeoutMs,
      async execute(input, ctx): Promise<ToolOutcome> {
        if (ctx.userId !== userId) {
          return {
            output: { error: `this tool was built for user "${userId}", not "${ctx.userId}"` },
            isError: true,
          };
        }
        if (!isArgs(input)) {
          return {
            output: {
              error: `the arguments of ${tool.name} must be a JSON object, got ${JSON.stringify(input)}`,
            },
            isError: true,
          };
        }
        try {
          const outcome = await pool.invoke(userId, executa, tool.name, input, {
            signal: ctx.signal,
            timeoutMs,
          });
          return outcomeToToolResult(outcome);
        } catch (error) {
          return { output: { error: (error as Error).message }, isError: true };
        }
      },
    };
  });
}
