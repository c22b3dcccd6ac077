// The bridge's two halves: the Executa plugin side (answers the host's initialize, describe,
// invoke, health, shutdown on an RpcPeer) and an MCP client (the official SDK) of one server.
//   describe  ← tools/list (input schemas mapped by mapInputSchema)
//   invoke    → tools/call (result mapped by toolAnswerOf); `executa/cancel` → MCP cancellation
//   MCP progress notifications → `executa/progress` for the invoke
//   MCP sampling/createMessage → the host's reverse `sampling/createMessage`, so the user's
//     grants and the per-invoke budgets apply as for any plugin
import {
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  RpcError,
  type Logger,
  type RpcPeer,
} from "@anna-ai/jsonrpc";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ErrorCode,
  McpError,
  type CreateMessageRequest,
  type CreateMessageResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { toolAnswerOf, type McpCallResult } from "./call-result.js";
import { mapInputSchema, UnmappableSchemaError } from "./schema-to-parameters.js";
import { McpWireError } from "./wire-error.js";

/** Sampling may take a while; the host clamps its own budget (R29), this only bounds the wait. */
export const BRIDGE_SAMPLING_TIMEOUT_MS = 300_000;
/** How long `health` waits for the server's `ping`. */
export const BRIDGE_PING_TIMEOUT_MS = 5_000;
/** Pages of tools/list read at most: a server that never ends its cursor cannot hang describe. */
const MAX_TOOL_PAGES = 100;
/** Extra time the MCP request gets past the invoke deadline, so the host's timeout speaks first. */
const DEADLINE_GRACE_MS = 1_000;

export interface McpBridgeOptions {
  toolId: string;
  peer: RpcPeer;
  client: Client;
  /** Resolves once the client is connected; describe and invoke wait for it. */
  connected: Promise<void>;
  logger: Logger;
  /** Called after the `shutdown` reply went out. */
  onShutdown: () => void;
}

interface RunningInvoke {
  invokeId: string;
  tool: string;
  controller: AbortController;
}

type JsonObject = Record<string, unknown>;

function asObject(value: unknown): JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as JsonObject)
    : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export class McpBridge {
  readonly #options: McpBridgeOptions;
  /** In start order: sampling is attributed to the earliest one still running. */
  readonly #running = new Map<string, RunningInvoke>();
  #tools: readonly Tool[] | undefined;

  constructor(options: McpBridgeOptions) {
    this.#options = options;
    const { peer, client } = options;
    peer.onRequest("initialize", (params) => this.#initialize(params));
    peer.onRequest("describe", () => this.#describe());
    peer.onRequest("invoke", (params) => this.#invoke(params));
    peer.onRequest("health", () => this.#health());
    peer.onRequest("shutdown", () => {
      setImmediate(options.onShutdown);
      return {};
    });
    peer.onNotification("executa/cancel", (params) => this.#cancel(params));
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      this.#sample(request, extra.signal),
    );
  }

  #initialize(params: unknown): JsonObject {
    const offered = asObject(params).protocolVersion;
    const info = { name: this.#options.toolId, version: this.#serverVersion() };
    return {
      protocolVersion: typeof offered === "string" ? offered : "1.1",
      serverInfo: info,
      server_info: info,
      // The server may ask for sampling at any time: MCP servers do not declare it up front.
      capabilities: { sampling: {} },
    };
  }

  #serverVersion(): string {
    return this.#options.client.getServerVersion()?.version ?? "0.0.0";
  }

  async #listTools(): Promise<readonly Tool[]> {
    if (this.#tools !== undefined) return this.#tools;
    await this.#options.connected;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const listed = await this.#options.client.listTools(
        cursor === undefined ? undefined : { cursor },
      );
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    this.#tools = tools;
    return tools;
  }

  async #describe(): Promise<JsonObject> {
    const server = this.#options.client.getServerVersion();
    const tools: JsonObject[] = [];
    for (const tool of await this.#listTools()) {
      let mapped;
      try {
        mapped = mapInputSchema(tool.inputSchema);
      } catch (error) {
        if (!(error instanceof UnmappableSchemaError)) throw error;
        // One tool the platform cannot call must not take the others down with it.
        this.#options.logger.error("MCP tool left out of describe", {
          tool: tool.name,
          error: error.message,
        });
        continue;
      }
      if (mapped.kind === "schema") {
        this.#options.logger.info("MCP tool schema passed through as JSON Schema parameters", {
          tool: tool.name,
          reason: mapped.reason,
        });
      }
      const entry: JsonObject = { name: tool.name, parameters: mapped.parameters };
      const description = tool.description ?? tool.title ?? tool.annotations?.title;
      if (description !== undefined) entry.description = description;
      tools.push(entry);
    }
    const instructions = this.#options.client.getInstructions();
    return {
      name: this.#options.toolId,
      display_name: server?.title ?? server?.name ?? this.#options.toolId,
      version: server?.version ?? "0.0.0",
      description: instructions ?? `MCP server ${server?.name ?? this.#options.toolId}`,
      tools,
      host_capabilities: ["llm.sample"],
    };
  }

  async #invoke(params: unknown): Promise<JsonObject> {
    const started = Date.now();
    const p = asObject(params);
    const tool = text(p.tool) ?? text(p.name) ?? "";
    const args = p.arguments ?? {};
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      throw new RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object");
    }
    const tools = await this.#listTools();
    if (!tools.some((t) => t.name === tool)) {
      throw new RpcError(METHOD_NOT_FOUND, `Unknown tool: ${tool}`, {
        tool,
        tools: tools.map((t) => t.name),
      });
    }
    const context = asObject(p.context);
    const invokeId = text(context.invoke_id) ?? text(p.invoke_id) ?? "";
    const deadline = typeof context.deadline_ms === "number" ? context.deadline_ms : undefined;
    const running: RunningInvoke = { invokeId, tool, controller: new AbortController() };
    if (invokeId !== "") this.#running.set(invokeId, running);
    try {
      const result = (await this.#options.client.callTool(
        { name: tool, arguments: args as JsonObject },
        undefined,
        {
          signal: running.controller.signal,
          // The host owns the deadline; without one the SDK default (60 s) applies.
          ...(deadline === undefined
            ? {}
            : { timeout: Math.max(1, deadline - Date.now() + DEADLINE_GRACE_MS) }),
          onprogress: (progress) => this.#progress(running, progress),
        },
      )) as McpCallResult;
      return { ...toolAnswerOf(result), tool, duration_ms: Date.now() - started };
    } catch (error) {
      if (error instanceof McpError) {
        // A JSON-RPC error from the server (unknown tool, invalid arguments): keep its code.
        throw new RpcError(error.code, error.message, error.data, { cause: error });
      }
      throw error;
    } finally {
      this.#running.delete(invokeId);
    }
  }

  #progress(
    running: RunningInvoke,
    progress: { progress: number; total?: number; message?: string },
  ): void {
    if (running.invokeId === "") return;
    const data: JsonObject = { progress: progress.progress };
    if (progress.total !== undefined) data.total = progress.total;
    if (progress.message !== undefined) data.message = progress.message;
    this.#options.peer.notify("executa/progress", {
      type: "progress",
      data,
      context: { invoke_id: running.invokeId },
      metadata: { executa_invoke_id: running.invokeId, tool: running.tool },
    });
  }

  /** The host gave up on an invoke (cancelled, timed out): the SDK tells the server. */
  #cancel(params: unknown): void {
    const p = asObject(params);
    const invokeId = text(asObject(p.context).invoke_id) ?? text(p.invoke_id);
    if (invokeId === undefined) return;
    const running = this.#running.get(invokeId);
    running?.controller.abort(new Error(text(p.reason) ?? "cancelled by the Executa host"));
  }

  async #health(): Promise<JsonObject> {
    try {
      await this.#options.connected;
      await this.#options.client.ping({ timeout: BRIDGE_PING_TIMEOUT_MS });
      return { status: "ready", message: "", details: { running: this.#running.size } };
    } catch (error) {
      return {
        status: "error",
        message: `the MCP server does not answer ping: ${error instanceof Error ? error.message : String(error)}`,
        details: {},
      };
    }
  }

  /**
   * MCP over stdio does not say which tools/call a sampling request belongs to. The bridge
   * attributes it to the earliest invoke still running (the only one, in the usual case); with
   * none running there is no grant or budget to charge it to, so it is refused.
   */
  async #sample(request: CreateMessageRequest, signal: AbortSignal): Promise<CreateMessageResult> {
    const [invoke] = this.#running.values();
    if (invoke === undefined) {
      throw new McpWireError(
        ErrorCode.InvalidRequest,
        "sampling/createMessage outside a tool call: the Anna host serves sampling only on behalf of a running tools/call, whose grant and budget it is charged to",
      );
    }
    const p = request.params;
    const params: JsonObject = {
      messages: p.messages.map((message) => ({ role: message.role, content: message.content })),
      maxTokens: p.maxTokens,
      // The host has no MCP context to add: only "none" is served (R29).
      includeContext: "none",
      context: { invoke_id: invoke.invokeId },
      metadata: { executa_invoke_id: invoke.invokeId, tool: invoke.tool },
    };
    if (p.systemPrompt !== undefined) params.systemPrompt = p.systemPrompt;
    if (p.temperature !== undefined) params.temperature = p.temperature;
    if (p.stopSequences !== undefined) params.stopSequences = p.stopSequences;
    if (p.modelPreferences !== undefined) params.modelPreferences = p.modelPreferences;
    // The server cancelling its request, or the invoke ending, stops the wait.
    const either = AbortSignal.any([signal, invoke.controller.signal]);
    try {
      const result = asObject(
        await this.#options.peer.request("sampling/createMessage", params, {
          timeoutMs: BRIDGE_SAMPLING_TIMEOUT_MS,
          signal: either,
        }),
      );
      const content = asObject(result.content);
      return {
        role: "assistant",
        content: { type: "text", text: typeof content.text === "string" ? content.text : "" },
        model: typeof result.model === "string" ? result.model : "unknown",
        ...(typeof result.stopReason === "string" ? { stopReason: result.stopReason } : {}),
      };
    } catch (error) {
      if (error instanceof RpcError) {
        throw new McpWireError(error.code, error.message, error.data, { cause: error });
      }
      throw error;
    }
  }
}
