// `sampling/createMessage` (T17, R29). The router normalises snake_case params to the MCP
// camelCase wire names and enforces the per-invoke budgets before a call gets here.
import type { SamplingGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

export interface SamplingContent {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface SamplingMessage {
  role: string;
  content: SamplingContent | SamplingContent[] | string;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number | null;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: string;
  metadata?: Record<string, unknown>;
  responseFormat?: Record<string, unknown>;
  onUnsupported?: string;
  /** Python SDK wall clock (seconds); accepted, never rejected. */
  _clientTimeoutS?: number;
  [key: string]: unknown;
}

export interface CreateMessageResult {
  role: "assistant";
  /** An object, not an array (real-world-plugins.md). */
  content: { type: "text"; text: string };
  model: string;
  stopReason?: string;
  /** Integers; `totalTokens` is what the per-invoke token budget counts. */
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SamplingService {
  createMessage(
    params: CreateMessageParams,
    ctx: ServiceContext<SamplingGrant>,
  ): Promise<CreateMessageResult>;
}
