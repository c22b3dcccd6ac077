import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import { HostClient, compact, type CallControl } from "./host-client.js";
import { localError } from "./channel.js";

/** Host default for a completion (Ref `DEFAULT_SAMPLING_TIMEOUT`, T3/R29). */
export const SAMPLING_TIMEOUT_MS = 90_000;

export type SamplingRole = "user" | "assistant" | "system";

export interface SamplingMessage {
  role: SamplingRole;
  content: { type: "text"; text: string };
}

export interface ModelPreferences {
  hints?: { name: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** Structured output (T18): JSON mode, or a strict JSON Schema. */
export type ResponseFormat =
  | { type: "json_object" }
  | {
      type: "json_schema";
      json_schema: { name: string; strict?: boolean; schema: Record<string, unknown> };
    };

export interface CreateMessageOptions extends CallControl {
  /** The conversation; a `content` string is wrapped as a text block. */
  messages?: readonly (SamplingMessage | { role: SamplingRole; content: string })[];
  /** Shorthand for a single user message. */
  prompt?: string;
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: ModelPreferences;
  responseFormat?: ResponseFormat;
  /** What the host does when the model cannot honour `json_schema` (default "error" → -32010). */
  onUnsupported?: "error" | "json_object" | "text";
  metadata?: Record<string, unknown>;
}

export interface CreateMessageResult {
  role: "assistant";
  content: { type: "text"; text: string };
  model?: string;
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
  _meta?: Record<string, unknown>;
}

/** `sampling/createMessage` (T17): an LLM completion on the user's behalf. */
export class SamplingClient extends HostClient {
  protected readonly family = "sampling";
  protected readonly defaultTimeoutMs = SAMPLING_TIMEOUT_MS;
  protected override readonly sendsClientTimeout = true;

  createMessage(options: CreateMessageOptions): Promise<CreateMessageResult> {
    const messages: SamplingMessage[] = (options.messages ?? []).map((m) =>
      typeof m.content === "string"
        ? { role: m.role, content: { type: "text", text: m.content } }
        : (m as SamplingMessage),
    );
    if (options.prompt !== undefined)
      messages.push({ role: "user", content: { type: "text", text: options.prompt } });
    if (messages.length === 0) {
      return Promise.reject(
        localError(
          "sampling",
          "sampling/createMessage",
          SAMPLING_ERRORS.INVALID_REQUEST,
          "messages or prompt is required",
        ),
      );
    }
    const params = compact({
      messages,
      maxTokens: options.maxTokens,
      systemPrompt: options.systemPrompt,
      temperature: options.temperature,
      stopSequences: options.stopSequences,
      modelPreferences: options.modelPreferences,
      // Phase 1 accepts only "none" (T17); the real SDKs always send it.
      includeContext: "none",
      responseFormat: options.responseFormat,
      onUnsupported: options.onUnsupported,
      metadata: options.metadata,
    });
    return this.call<CreateMessageResult>("sampling/createMessage", params, options);
  }
}
