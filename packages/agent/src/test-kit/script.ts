// What a fake provider answers to one request. Provider-neutral: each wire module renders the
// same reply in its provider's format, so one script drives an OpenAI, an Anthropic or an
// OpenAI-compatible test alike.

export interface ScriptedToolCall {
  /** Defaults to a provider-style id (`call_…`, `toolu_…`). */
  id?: string;
  name: string;
  args: unknown;
}

export type ScriptedFinish = "stop" | "length" | "tool-calls" | "stop-sequence" | "content-filter";

export interface ScriptedError {
  status: number;
  message?: string;
  /** Extra response headers, e.g. `{"retry-after": "0"}`. */
  headers?: Readonly<Record<string, string>>;
}

export interface ScriptedReply {
  /** The answer's text; a list is streamed one delta per element. */
  text?: string | readonly string[];
  /** Tool calls, streamed after the text, in order (several make parallel calls). */
  toolCalls?: readonly ScriptedToolCall[];
  /** Default: `tool-calls` when there are tool calls, else `stop`. */
  finish?: ScriptedFinish;
  /** The stop sequence reported with `finish: "stop-sequence"` (Anthropic reports it). */
  stopSequence?: string;
  usage?: { inputTokens: number; outputTokens: number };
  /** Answer an HTTP error in the provider's error format instead. */
  error?: ScriptedError;
  /**
   * Stream the text (and only the text), then send nothing more and keep the connection open
   * until the client goes away: a model that hangs mid-answer. A non-streaming request with
   * `stall` gets no answer at all.
   */
  stall?: boolean;
  /**
   * Streaming only: the first text delta goes out at once, everything after it (more text, tool
   * calls, the finish) this many milliseconds later. Time-to-first-token measurements use it.
   */
  restAfterMs?: number;
  /**
   * Streaming only: like `restAfterMs`, but the rest waits for this promise (then for
   * `restAfterMs`, when both are set): a test that asserts what arrived before the rest gates
   * the model instead of timing it.
   */
  restAfter?: PromiseLike<unknown>;
  /** Vectors for an embeddings request; default: deterministic ones of the asked dimensions. */
  embeddings?: readonly (readonly number[])[];
  /** Base64 images for an image request; default: one small PNG per image asked. */
  images?: readonly string[];
}

export const DEFAULT_USAGE = { inputTokens: 12, outputTokens: 8 } as const;

export function textChunks(reply: ScriptedReply): string[] {
  if (reply.text === undefined) return [];
  return typeof reply.text === "string" ? [reply.text] : [...reply.text];
}

export function finishOf(reply: ScriptedReply): ScriptedFinish {
  return reply.finish ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop");
}

/** Tool-call arguments cut in two, so clients must join argument deltas. */
export function splitArgs(args: unknown): [string, string] {
  const json = JSON.stringify(args ?? {});
  const half = Math.ceil(json.length / 2);
  return [json.slice(0, half), json.slice(half)];
}
