// `tools.list` and sync `tools.invoke` (R143–R145, U56–U58) through the Executa pool, with the
// InvokeTimeoutPolicy; the async job methods live in tool-jobs.ts.
import type { InvokeOutcome } from "@anna-ai/executa-host";
import type { HostApiParsedArgs } from "@anna-ai/app-schema/host-api";
import { HostApiError } from "../errors/host-api-error.js";
import type { CallContext, MethodTable, ToolHost } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import type { ToolJobs } from "./tool-jobs.js";
import { allowedTool, declaredTools } from "./tool-resolution.js";

/** `InvokeTimeoutPolicy` (L6390–L6438, R145). */
export const TOOLS_INVOKE_TIMEOUT_MIN_MS = 1_000;
export const TOOLS_INVOKE_TIMEOUT_MAX_MS = 90_000;
export const TOOLS_INVOKE_TIMEOUT_DEFAULT_MS = 65_000;

export interface TimeoutDecision {
  timeoutMs: number;
  requestedMs: number | null;
}

/**
 * Below the minimum is `invalid_arg`, above the maximum is clamped; omitted uses the tool's
 * declared `timeout` (capped), else the 65 s default (R145 order, Z48).
 */
export function invokeTimeout(
  requested: number | null | undefined,
  declaredS: number | null | undefined,
): TimeoutDecision {
  if (requested === null || requested === undefined) {
    const declared =
      typeof declaredS === "number" && declaredS > 0
        ? Math.min(declaredS * 1000, TOOLS_INVOKE_TIMEOUT_MAX_MS)
        : TOOLS_INVOKE_TIMEOUT_DEFAULT_MS;
    return { timeoutMs: declared, requestedMs: null };
  }
  if (requested < TOOLS_INVOKE_TIMEOUT_MIN_MS) {
    throw new HostApiError(
      "invalid_arg",
      `timeoutMs must be at least ${TOOLS_INVOKE_TIMEOUT_MIN_MS} ms`,
      { requested_timeout_ms: requested, min_timeout_ms: TOOLS_INVOKE_TIMEOUT_MIN_MS },
    );
  }
  return { timeoutMs: Math.min(requested, TOOLS_INVOKE_TIMEOUT_MAX_MS), requestedMs: requested };
}

/** `plugin.tool` / `plugin__tool` legacy ids split on the first `__` or `.` (R145). */
export function splitToolId(toolId: string): { toolId: string; tool: string } | undefined {
  const dunder = toolId.indexOf("__");
  const dot = toolId.indexOf(".");
  const cut = [dunder, dot].filter((i) => i > 0).sort((a, b) => a - b)[0];
  if (cut === undefined) return undefined;
  const width = cut === dunder ? 2 : 1;
  const tool = toolId.slice(cut + width);
  return tool === "" ? undefined : { toolId: toolId.slice(0, cut), tool };
}

export interface ResolvedInvocation {
  host: ToolHost;
  toolId: string;
  tool: string;
  /** The tool's declared `timeout` in seconds, when the plugin has described itself. */
  declaredS: number | null | undefined;
}

/** tool_id/method → a granted, registered tool (R143, R145), or the documented error. */
export function resolveInvocation(
  ctx: CallContext,
  requestedId: string,
  requestedMethod: string | undefined,
): ResolvedInvocation {
  let toolId = requestedId;
  let tool = requestedMethod;
  if (tool === undefined) {
    const split = splitToolId(toolId);
    if (split === undefined) {
      throw new HostApiError("invalid_arg", "method required: this tool_id names no tool", {
        tool_id: toolId,
      });
    }
    toolId = split.toolId;
    tool = split.tool;
  }
  const declared = allowedTool(ctx.core, toolId);
  const host = ctx.core.host;
  const process = host?.get(ctx.window.userId, declared.toolId);
  if (host === undefined || process === undefined) {
    throw new HostApiError(
      "executa_unavailable",
      `executa ${JSON.stringify(declared.toolId)} is not running for this user`,
      { tool_id: declared.toolId },
    );
  }
  const declaredS = process.manifest?.tools.find((t) => t.name === tool)?.timeout;
  return { host, toolId: declared.toolId, tool, declaredS };
}

/** An invoke outcome as the Host API answers it: the payload, or the documented error. */
export function invokeResult(
  outcome: InvokeOutcome,
  target: { toolId: string; tool: string },
  timeout: TimeoutDecision,
): Record<string, unknown> {
  if (outcome.ok) {
    // R143: the payload, forced to an object.
    const data = outcome.data;
    return typeof data === "object" && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : { result: data };
  }
  if (outcome.kind === "tool_failed") {
    // A4: the plugin's `error` travels as the message and in details.
    throw new HostApiError("tool_failed", outcome.error, {
      tool_id: target.toolId,
      method: target.tool,
      error: outcome.error,
    });
  }
  const errorCode = outcome.error.errorCode;
  if (errorCode === "TIMEOUT") {
    throw new HostApiError(
      "tool_timeout",
      `${target.toolId}.${target.tool} did not answer within ${timeout.timeoutMs} ms`,
      {
        tool_id: target.toolId,
        timeout_ms: timeout.timeoutMs,
        requested_timeout_ms: timeout.requestedMs,
        max_timeout_ms: TOOLS_INVOKE_TIMEOUT_MAX_MS,
      },
      { cause: outcome.error },
    );
  }
  throw new HostApiError(
    "executa_unavailable",
    outcome.error.message,
    { tool_id: target.toolId, errorCode: errorCode ?? null, rpc_code: outcome.error.code },
    { cause: outcome.error },
  );
}

async function invoke(args: HostApiParsedArgs<"tools.invoke">, ctx: CallContext): Promise<unknown> {
  const target = resolveInvocation(ctx, args.tool_id, args.method);
  const timeout = invokeTimeout(args.timeoutMs, target.declaredS);
  const outcome = await target.host.invoke(
    ctx.window.userId,
    target.toolId,
    target.tool,
    args.args ?? undefined,
    {
      timeoutMs: timeout.timeoutMs,
      app: { appId: ctx.core.appId, appScopeGranted: true },
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    },
  );
  return invokeResult(outcome, target, timeout);
}

export function toolsMethods(jobs: ToolJobs): MethodTable {
  return {
    "tools.list": contractMethod("tools.list", async (_args, ctx) => {
      const tools = [];
      for (const tool of declaredTools(ctx.core)) {
        try {
          allowedTool(ctx.core, tool.toolId);
        } catch {
          continue;
        }
        const running = ctx.core.host?.get(ctx.window.userId, tool.toolId) !== undefined;
        tools.push({ tool_id: tool.toolId, status: running ? "available" : "unavailable" });
      }
      return { tools };
    }),
    "tools.invoke": contractMethod("tools.invoke", invoke),
    ...jobs.methods(),
  };
}
