// One Executa served as an MCP server (the official SDK's low-level `Server`): its described
// tools are the MCP tools (their parameters as the JSON Schema the model sees, toLlmToolSchema),
// tools/call is an invoke. Each MCP session gets its own Server; they share one plugin process.
// The calls in flight are kept by invoke id so the plugin's progress and sampling find the MCP
// request they belong to.
import { toLlmToolSchema } from "@anna-ai/app-schema";
import type { InvokeOutcome, PluginProcess } from "@anna-ai/executa-host";
import { callResultOf, McpWireError } from "@anna-ai/executa-host";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** One tools/call being served: what the plugin's progress and sampling are routed back to. */
export interface RunningCall {
  server: Server;
  extra: CallExtra;
  progressToken: string | number | undefined;
  /** executa/progress seen so far, for a progress number when the plugin sends none. */
  progressCount: number;
}

/** Calls in flight, by the invoke id the host sends the plugin. Bounded by the plugin's own. */
export class RunningCalls {
  readonly #calls = new Map<string, RunningCall>();

  get(invokeId: string): RunningCall | undefined {
    return this.#calls.get(invokeId);
  }

  add(invokeId: string, call: RunningCall): void {
    this.#calls.set(invokeId, call);
  }

  delete(invokeId: string): void {
    this.#calls.delete(invokeId);
  }
}

export interface ExecutaMcpServerOptions {
  plugin: PluginProcess;
  calls: RunningCalls;
  /** serverInfo.name; the plugin's tool id. */
  name: string;
  version: string;
  instructions?: string;
}

export function createExecutaMcpServer(options: ExecutaMcpServerOptions): Server {
  const { plugin, calls } = options;
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const manifest = await plugin.describe(extra.signal);
    const tools: Tool[] = manifest.tools.map((tool) => ({
      name: tool.name,
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
      inputSchema: toLlmToolSchema(tool).schema,
    }));
    return { tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const invokeId = randomUUID().replaceAll("-", "");
    calls.add(invokeId, {
      server,
      extra,
      progressToken: request.params._meta?.progressToken,
      progressCount: 0,
    });
    try {
      const outcome = await plugin.invoke(request.params.name, request.params.arguments, {
        invokeId,
        signal: extra.signal,
      });
      return callToolResultOf(outcome);
    } finally {
      calls.delete(invokeId);
    }
  });
  return server;
}

/**
 * A tool failure (`success: false`) is the model's business: `isError`. A JSON-RPC error from
 * the plugin or the host (unknown tool -32601, bad arguments -32602, timeout, crash) stays an
 * MCP error with the same code, so clients tell "the tool said no" from "the call broke".
 */
export function callToolResultOf(outcome: InvokeOutcome): CallToolResult {
  if (outcome.ok) return callResultOf({ success: true, data: outcome.data }) as CallToolResult;
  if (outcome.kind === "tool_failed") {
    return callResultOf({ success: false, error: outcome.error }) as CallToolResult;
  }
  const { code, message, data } = outcome.error;
  throw new McpWireError(Number.isInteger(code) ? code : ErrorCode.InternalError, message, data, {
    cause: outcome.error,
  });
}
