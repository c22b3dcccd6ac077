// Clients for the LLM families the host brokers on the user's behalf: sampling (T17),
// agent sessions (T21), image generation (T27) and embeddings (R54). They share one file to
// keep a plugin's import graph small (spawn time and idle memory are benchmarked).

import { HostClient, compact, localError, type CallControl } from "./channel.js";

// ---- sampling/createMessage ----------------------------------------------------------------

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

  async createMessage(options: CreateMessageOptions): Promise<CreateMessageResult> {
    const messages: SamplingMessage[] = (options.messages ?? []).map((m) =>
      typeof m.content === "string"
        ? { role: m.role, content: { type: "text", text: m.content } }
        : (m as SamplingMessage),
    );
    if (options.prompt !== undefined)
      messages.push({ role: "user", content: { type: "text", text: options.prompt } });
    if (messages.length === 0) {
      throw await localError(
        "sampling",
        "sampling/createMessage",
        (c) => c.SAMPLING_ERRORS.INVALID_REQUEST,
        "messages or prompt is required",
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

// ---- agent/* ---------------------------------------------------------------------------------

/** Session management calls (create, cancel, history, delete, complete). */
export const AGENT_TIMEOUT_MS = 90_000;
/** A run is buffered by the host until the agent finishes (T21), so it gets more room. */
export const AGENT_RUN_TIMEOUT_MS = 300_000;

export interface CreateSessionOptions extends CallControl {
  /** "agent" (multi-turn, default) or "fixed" (single tool; needs `fixedClientId`). */
  kind?: "agent" | "fixed";
  agentSubmode?: "auto";
  fixedClientId?: string;
  label?: string;
  systemPrompt?: string;
  ttlSeconds?: number;
  quotaCaps?: { inherit_host_tools?: boolean; allowed_tools?: string[] };
}

export interface AgentSession {
  /** Opaque `aps_…` handle; dies with the host process, never persist it (T21). */
  app_session_uuid: string;
  thread_id?: string;
  agent_submode?: string;
  granted_tools?: string[];
  expires_in?: number;
  [field: string]: unknown;
}

/** One frame of a run: `delta`/`token`/`message` carry `text`; `final` ends it. */
export interface AgentFrame {
  event: string;
  text?: string;
  [field: string]: unknown;
}

export interface RunOptions extends CallControl {
  recursionLimit?: number;
  runId?: string;
  allowedTools?: string[];
  system?: string;
  attachments?: unknown[];
  modelPreferences?: ModelPreferences;
}

export interface AgentRunResult {
  run_id?: string;
  frames: AgentFrame[];
  final?: unknown;
  /** The final answer: the `final` frame's text, else the concatenated deltas. */
  text: string;
}

export interface AgentCompleteOptions extends CallControl {
  messages?: readonly (SamplingMessage | { role: SamplingRole; content: string })[];
  prompt?: string;
  maxTokens?: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: ModelPreferences;
  metadata?: Record<string, unknown>;
}

function isFrame(value: unknown): value is AgentFrame {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { event?: unknown }).event === "string"
  );
}

function finalText(frames: readonly AgentFrame[], final: unknown): string {
  if (typeof final === "string") return final;
  if (
    final !== null &&
    typeof final === "object" &&
    typeof (final as { text?: unknown }).text === "string"
  ) {
    return (final as { text: string }).text;
  }
  const last = frames.findLast((f) => f.event === "final" && typeof f.text === "string");
  if (last?.text !== undefined) return last.text;
  return frames
    .filter((f) => (f.event === "delta" || f.event === "token") && typeof f.text === "string")
    .map((f) => f.text)
    .join("");
}

/** `agent/session.*` and `agent/complete` (T21): host-run, tool-using agent sessions. */
export class AgentSessionClient extends HostClient {
  protected readonly family = "agent";
  protected readonly defaultTimeoutMs = AGENT_TIMEOUT_MS;

  createSession(options: CreateSessionOptions = {}): Promise<AgentSession> {
    const kind = options.kind ?? "agent";
    return this.call(
      "agent/session.create",
      compact({
        kind,
        agent_submode: kind === "agent" ? (options.agentSubmode ?? "auto") : undefined,
        fixed_client_id: options.fixedClientId,
        label: options.label,
        system_prompt: options.systemPrompt,
        ttl_seconds: options.ttlSeconds,
        quota_caps: options.quotaCaps,
      }),
      options,
    );
  }

  /**
   * Sends a user message and resolves with every frame once the run ends. Hosts answer with
   * a bare frame array (guide, T21) or `{run_id, frames, final}` (real SDKs); both are read.
   */
  async run(
    appSessionUuid: string,
    content: string,
    options: RunOptions = {},
  ): Promise<AgentRunResult> {
    const result = await this.call<unknown>(
      "agent/session.run",
      compact({
        app_session_uuid: appSessionUuid,
        content,
        recursion_limit: options.recursionLimit,
        run_id: options.runId,
        allowed_tools: options.allowedTools,
        system: options.system,
        attachments: options.attachments,
        modelPreferences: options.modelPreferences,
      }),
      {
        ...options,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? AGENT_RUN_TIMEOUT_MS,
      },
    );
    const record = Array.isArray(result)
      ? { frames: result }
      : ((result ?? {}) as Record<string, unknown>);
    const frames = Array.isArray(record.frames) ? record.frames.filter(isFrame) : [];
    const runId = typeof record.run_id === "string" ? record.run_id : undefined;
    return {
      ...(runId === undefined ? {} : { run_id: runId }),
      frames,
      final: record.final,
      text: finalText(frames, record.final),
    };
  }

  /** Like `run`, as an async iterable of frames: code keeps working once hosts stream (v2.2). */
  async *runFrames(
    appSessionUuid: string,
    content: string,
    options: RunOptions = {},
  ): AsyncGenerator<AgentFrame> {
    const result = await this.run(appSessionUuid, content, options);
    yield* result.frames;
  }

  cancel(appSessionUuid: string, runId: string, control: CallControl = {}): Promise<unknown> {
    return this.call(
      "agent/session.cancel",
      { app_session_uuid: appSessionUuid, run_id: runId },
      control,
    );
  }

  history(
    appSessionUuid: string,
    options: CallControl & { limit?: number; cursor?: string } = {},
  ): Promise<unknown> {
    return this.call(
      "agent/session.history",
      compact({ app_session_uuid: appSessionUuid, limit: options.limit, cursor: options.cursor }),
      options,
    );
  }

  /** Idempotent; evicts the host's cached session token. */
  delete(appSessionUuid: string, control: CallControl = {}): Promise<unknown> {
    return this.call("agent/session.delete", { app_session_uuid: appSessionUuid }, control);
  }

  /** `agent/complete`: a stateless single-turn completion (gated by `llm.sample`). */
  complete(options: AgentCompleteOptions): Promise<Record<string, unknown>> {
    const messages = (options.messages ?? []).map((m) => ({ role: m.role, content: m.content }));
    if (options.prompt !== undefined) messages.push({ role: "user", content: options.prompt });
    return this.call(
      "agent/complete",
      compact({
        messages,
        maxTokens: options.maxTokens,
        systemPrompt: options.systemPrompt,
        temperature: options.temperature,
        stopSequences: options.stopSequences,
        modelPreferences: options.modelPreferences,
        metadata: options.metadata,
      }),
      options,
    );
  }
}

// ---- image/* ---------------------------------------------------------------------------------

/** SDK default per call (`ImageClient.DEFAULT_TIMEOUT`, L9474). */
export const IMAGE_TIMEOUT_MS = 120_000;

interface ImageCommon extends CallControl {
  prompt: string;
  n?: number;
  size?: string;
  modelPreferences?: ModelPreferences;
  quality?: "low" | "medium" | "high";
  resolution?: "0.5K" | "1K" | "2K" | "4K";
  outputFormat?: "png" | "jpeg" | "webp";
  metadata?: Record<string, unknown>;
}

export interface ImageGenerateOptions extends ImageCommon {
  referenceImageUrls?: string[];
  enableWebSearch?: boolean;
  thinkingLevel?: "minimal" | "high";
}

export interface ImageEditOptions extends ImageCommon {
  imageUrl: string;
  maskUrl?: string | null;
}

export interface ImageResult {
  /** Transient URLs (about 30 minutes): persist bytes elsewhere if they must last. */
  images: { url: string; mimeType?: string; width?: number; height?: number }[];
  model?: string;
  quota_used?: Record<string, unknown>;
  [field: string]: unknown;
}

function common(options: ImageCommon): Record<string, unknown> {
  return {
    prompt: options.prompt,
    n: options.n ?? 1,
    size: options.size,
    modelPreferences: options.modelPreferences,
    quality: options.quality,
    resolution: options.resolution,
    output_format: options.outputFormat,
    metadata: options.metadata,
  };
}

/** `image/generate` and `image/edit` (T27). */
export class ImageClient extends HostClient {
  protected readonly family = "image";
  protected readonly defaultTimeoutMs = IMAGE_TIMEOUT_MS;
  protected override readonly sendsClientTimeout = true;

  generate(options: ImageGenerateOptions): Promise<ImageResult> {
    return this.call(
      "image/generate",
      compact({
        ...common(options),
        reference_image_urls: options.referenceImageUrls,
        enable_web_search: options.enableWebSearch,
        thinking_level: options.thinkingLevel,
      }),
      options,
    );
  }

  edit(options: ImageEditOptions): Promise<ImageResult> {
    return this.call(
      "image/edit",
      compact({ ...common(options), image_url: options.imageUrl, mask_url: options.maskUrl }),
      options,
    );
  }
}

// ---- embeddings/create -----------------------------------------------------------------------

/** SDK default (`timeout=30.0`, R54). */
export const EMBEDDINGS_TIMEOUT_MS = 30_000;

export interface EmbeddingsOptions extends CallControl {
  input: string | readonly string[];
  /** Host alias, e.g. "anna-managed-v1"; omit for the default. */
  model?: string;
}

export interface EmbeddingsResult {
  object?: "list";
  model: string;
  data: { index: number; embedding: number[] }[];
  usage?: { prompt_tokens?: number; total_tokens?: number };
  _meta?: Record<string, unknown>;
}

/** `embeddings/create` (R54). */
export class EmbeddingsClient extends HostClient {
  protected readonly family = "embeddings";
  protected readonly defaultTimeoutMs = EMBEDDINGS_TIMEOUT_MS;

  create(options: EmbeddingsOptions): Promise<EmbeddingsResult> {
    const input = typeof options.input === "string" ? [options.input] : [...options.input];
    return this.call("embeddings/create", compact({ input, model: options.model }), options);
  }
}
