// The gateway's own vocabulary: what the agent, the host services and Nexus pass in and get back.
// It is provider-neutral on purpose, so callers never import the AI SDK and a provider can be
// swapped without touching them.

/** Why a call is made; usage is accounted per (user, app, purpose). */
export type CallPurpose = "chat" | "agent" | "sampling" | "embeddings" | "images";

/** Who a call is for. */
export interface CallAccount {
  userId: string;
  /** The Anna App the call comes from, when it does. */
  appId?: string;
  /** The Executa whose reverse call this is (sampling, embeddings, images from plugins). */
  toolId?: string;
}

export interface CallOptions {
  account: CallAccount;
  purpose: CallPurpose;
  /** Aborts the call, mid-stream included. */
  signal?: AbortSignal;
}

export interface ToolCall {
  /** The provider's id for the call; tool results name it. */
  id: string;
  name: string;
  /** The parsed JSON arguments the model produced. */
  input: unknown;
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: readonly ToolCall[] }
  | { role: "tool"; toolCallId: string; toolName: string; output: unknown; isError?: boolean };

/** A tool the model may call; `parameters` is a JSON Schema object. */
export interface ChatTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export type ToolChoice = "auto" | "none" | "required" | { tool: string };

/** `json` asks for a JSON answer; with `schema`, one that validates against it. */
export interface JsonResponseFormat {
  type: "json";
  schema?: Record<string, unknown>;
  name?: string;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Added before `messages` as the system prompt. */
  system?: string;
  tools?: readonly ChatTool[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  stopSequences?: readonly string[];
  responseFormat?: JsonResponseFormat;
}

/** The provider-neutral reasons a model stops. */
export type FinishReason = "stop" | "length" | "tool-calls" | "content-filter" | "error" | "other";

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface ModelInfo {
  provider: string;
  model: string;
}

export type ChatEvent =
  | { type: "text-delta"; text: string }
  | ({ type: "tool-call" } & ToolCall)
  | ({
      type: "finish";
      finishReason: FinishReason;
      /** The provider's own reason (e.g. Anthropic's `stop_sequence`), when it gave one. */
      rawFinishReason: string | undefined;
      usage: Usage;
    } & ModelInfo);

export interface ChatResult extends ModelInfo {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  rawFinishReason: string | undefined;
  usage: Usage;
  latencyMs: number;
}

export interface EmbedRequest {
  values: readonly string[];
}

export interface EmbedResult extends ModelInfo {
  vectors: number[][];
  dimensions: number;
  usage: { inputTokens: number };
}

export interface ImageRequest {
  prompt: string;
  n: number;
  /** `WIDTHxHEIGHT`. */
  size?: `${number}x${number}`;
}

/** An image sent to the provider (the picture to edit, or its mask). */
export interface ImageInput {
  bytes: Uint8Array;
  mediaType: string;
}

/** `image/edit`: change `images` (usually one) as `prompt` says, only where `mask` is clear. */
export interface ImageEditRequest extends ImageRequest {
  images: readonly ImageInput[];
  mask?: ImageInput;
}

export interface GeneratedImage {
  base64: string;
  mediaType: string;
}

export interface ImageGenerationResult extends ModelInfo {
  images: GeneratedImage[];
}

/** What the rest of the agent and Nexus call. */
export interface LlmGateway {
  /** Text deltas and tool calls as they arrive, then exactly one `finish` event. */
  streamChat(request: ChatRequest, options: CallOptions): AsyncIterable<ChatEvent>;
  /** The whole answer at once (non-streaming on the wire). */
  complete(request: ChatRequest, options: CallOptions): Promise<ChatResult>;
  embed(request: EmbedRequest, options: CallOptions): Promise<EmbedResult>;
  /** Rejects with `not_supported` when the images provider cannot make images. */
  generateImage(request: ImageRequest, options: CallOptions): Promise<ImageGenerationResult>;
  /** Rejects with `not_supported` naming a provider that edits when this one cannot. */
  editImage(request: ImageEditRequest, options: CallOptions): Promise<ImageGenerationResult>;
  /** The model behind a purpose, for `_meta` and for choosing limits (never the key). */
  modelFor(purpose: CallPurpose): ModelInfo & { structuredOutput: boolean };
}
