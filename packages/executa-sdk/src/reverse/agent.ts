import { HostClient, compact, type CallControl } from "./host-client.js";
import type { ModelPreferences, SamplingMessage, SamplingRole } from "./sampling.js";

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
