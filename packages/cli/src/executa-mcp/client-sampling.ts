// The plugin's reverse sampling/createMessage, answered by the MCP client's model when the
// client advertised `sampling`: sent as MCP sampling/createMessage on the tools/call it belongs
// to (over HTTP, on that call's stream). Clients without sampling get the service the
// `executa dev` flags chose (off by default, or --mock-sampling). The router in front still
// applies the grants and the per-invoke budgets.
import type {
  SamplingContentBlock,
  SamplingCreateMessageResult,
  SamplingRequest,
} from "@anna-ai/app-schema";
import type { SamplingService, ServiceContext, SamplingGrant } from "@anna-ai/executa-host";
import {
  CreateMessageResultSchema,
  type CreateMessageRequest,
  type SamplingMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { RunningCalls } from "./executa-mcp-server.js";

/** Rough tokens of a text for the budget when the client reports no usage (MCP has none). */
const CHARS_PER_TOKEN = 4;

export function clientSampling(
  calls: RunningCalls,
  fallback: SamplingService | undefined,
): SamplingService {
  return {
    async createMessage(request, ctx) {
      const call = calls.get(ctx.invokeId);
      if (call === undefined || call.server.getClientCapabilities()?.sampling === undefined) {
        if (fallback === undefined) throw new Error("sampling is not available on this host");
        return fallback.createMessage(request, ctx);
      }
      const answer = await call.extra.sendRequest(
        { method: "sampling/createMessage", params: mcpParams(request, ctx) },
        CreateMessageResultSchema,
        { signal: ctx.signal, timeout: Math.max(1, ctx.deadlineMs - Date.now()) },
      );
      const text = answer.content.type === "text" ? answer.content.text : "";
      const inputTokens = Math.ceil(promptChars(request) / CHARS_PER_TOKEN);
      const outputTokens = Math.ceil(text.length / CHARS_PER_TOKEN);
      const result: SamplingCreateMessageResult = {
        role: "assistant",
        content: { type: "text", text },
        model: answer.model,
        stopReason: answer.stopReason ?? "endTurn",
        usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
        _meta: { provider: "mcp-client" },
      };
      return result;
    },
  };
}

function mcpParams(
  request: SamplingRequest,
  _ctx: ServiceContext<SamplingGrant>,
): CreateMessageRequest["params"] {
  // MCP has no system role: system messages join the system prompt.
  const system = request.messages.filter((m) => m.role === "system").map((m) => textOf(m.content));
  const messages: SamplingMessage[] = request.messages
    .filter((m) => m.role !== "system")
    .map((m) => ({
      role: m.role as "user" | "assistant",
      content: { type: "text", text: textOf(m.content) },
    }));
  const systemPrompt = [request.systemPrompt, ...system].filter((s) => s !== undefined).join("\n");
  return {
    messages,
    maxTokens: request.maxTokens,
    ...(systemPrompt === "" ? {} : { systemPrompt }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.stopSequences === undefined ? {} : { stopSequences: request.stopSequences }),
    ...(request.modelPreferences === undefined
      ? {}
      : {
          modelPreferences:
            request.modelPreferences as CreateMessageRequest["params"]["modelPreferences"],
        }),
  };
}

function textOf(content: string | SamplingContentBlock | SamplingContentBlock[]): string {
  if (typeof content === "string") return content;
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => block.text ?? "").join("");
}

function promptChars(request: SamplingRequest): number {
  let chars = request.systemPrompt?.length ?? 0;
  for (const message of request.messages) chars += textOf(message.content).length;
  return chars;
}
