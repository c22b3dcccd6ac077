// `tools.list` and sync `tools.invoke` (R143–R145, U56–U58) through the Executa pool, with the
// InvokeTimeoutPolicy. Async jobs answer `not_implemented` for now (a documented older-dispatcher
// answer, U59) — TODO(issue 5): invokeAsync/getJob/cancelJob/listJobs with tool_job events.
import { z } from "zod";
import { HostApiError } from "../errors/host-api-error.js";
import { method, type CallContext, type MethodTable } from "../dispatcher/types.js";
import { allowedTool, declaredTools } from "./tool-resolution.js";

/** `InvokeTimeoutPolicy` (L6390–L6438, R145). */
export const TOOLS_INVOKE_TIMEOUT_MIN_MS = 1_000;
export const TOOLS_INVOKE_TIMEOUT_MAX_MS = 90_000;
export const TOOLS_INVOKE_TIMEOUT_DEFAULT_MS = 65_000;

const InvokeArgs = z.looseObject({
  tool_id: z.string().min(1, "tool_id required"),
  method: z.string().min(1).optional(),
  args: z.record(z.string(), z.unknown()).nullish(),
  // Booleans are rejected (R145); numbers only.
  timeoutMs: z.number().finite().nullish(),
});

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

async function invoke(args: z.infer<typeof InvokeArgs>, ctx: CallContext): Promise<unknown> {
  const host = ctx.core.host;
  let toolId = args.tool_id;
  let tool = args.method;
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
  const userId = ctx.window.userId;
  if (host === undefined || host.get(userId, declared.toolId) === undefined) {
    throw new HostApiError(
      "executa_unavailable",
      `executa ${JSON.stringify(declared.toolId)} is not running for this user`,
      { tool_id: declared.toolId },
    );
  }
  const declaredS = host
    .get(userId, declared.toolId)
    ?.manifest?.tools.find((t) => t.name === tool)?.timeout;
  const timeout = invokeTimeout(args.timeoutMs, declaredS);
  const outcome = await host.invoke(userId, declared.toolId, tool, args.args ?? undefined, {
    timeoutMs: timeout.timeoutMs,
    app: { appId: ctx.core.appId, appScopeGranted: true },
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
  });
  if (outcome.ok) {
    // R143: the payload, forced to an object.
    const data = outcome.data;
    return typeof data === "object" && data !== null && !Array.isArray(data)
      ? data
      : { result: data };
  }
  if (outcome.kind === "tool_failed") {
    // A4: the plugin's `error` travels as the message and in details.
    throw new HostApiError("tool_failed", outcome.error, {
      tool_id: declared.toolId,
      method: tool,
      error: outcome.error,
    });
  }
  const errorCode = outcome.error.errorCode;
  if (errorCode === "TIMEOUT") {
    throw new HostApiError(
      "tool_timeout",
      `${declared.toolId}.${tool} did not answer within ${timeout.timeoutMs} ms`,
      {
        tool_id: declared.toolId,
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
    { tool_id: declared.toolId, errorCode: errorCode ?? null, rpc_code: outcome.error.code },
    { cause: outcome.error },
  );
}

export function toolsMethods(): MethodTable {
  const notYet = (name: string) =>
    method(z.looseObject({}), async () => {
      throw new HostApiError(
        "not_implemented",
        `tools.${name} (async tool jobs) is not implemented by this dispatcher yet`,
      );
    });
  return {
    "tools.list": method(z.looseObject({}), async (_args, ctx) => {
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
    "tools.invoke": method(InvokeArgs, invoke),
    "tools.invokeAsync": notYet("invokeAsync"),
    "tools.getJob": notYet("getJob"),
    "tools.cancelJob": notYet("cancelJob"),
    "tools.listJobs": notYet("listJobs"),
  };
}
