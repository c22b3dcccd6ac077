// Frames of an offline `agent/session.run`: the synthetic run used when no fixture line answers,
// the frames of a fixture line's `events`, the host's `seq`/`stream_id` tags (R33), the
// 4096-frame cap.
import type { AgentFrame } from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import type { RpcError } from "@anna-ai/jsonrpc";
import { catalogError } from "../service-error.js";

/** Model name reported by synthetic runs and completions. */
export const AGENT_MOCK_MODEL = "mock-agent";

/** A frame before the host tags it with `seq` and `stream_id`. */
export type FrameDraft = Record<string, unknown> & { event: string };

/** Whitespace-preserving word tokens: joined back together they give the text exactly. */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

/** Rough token count (4 characters per token), as providers bill. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Characters of the caller's text a synthetic answer echoes: long inputs (a document to
 * summarise) must not turn into thousands of frames and hit the run cap only offline.
 */
export const SYNTHETIC_ECHO_MAX_CHARS = 200;

/** The caller's text, trimmed and cut to SYNTHETIC_ECHO_MAX_CHARS (marked with `…`). */
export function echoOf(text: string): string {
  const trimmed = text.trim();
  const chars = [...trimmed];
  return chars.length <= SYNTHETIC_ECHO_MAX_CHARS
    ? trimmed
    : `${chars.slice(0, SYNTHETIC_ECHO_MAX_CHARS).join("")}…`;
}

/** The reply a synthetic run gives: an echo, so tests can tell turns apart. */
export function syntheticReply(content: string): string {
  return `Mock agent reply: ${echoOf(content)}`;
}

/**
 * The frames real runs produce (real-world-plugins.md): `run_meta`, one `delta` per token of
 * the reply, `final` with the text and usage, then `complete`.
 */
export function syntheticFrames(run: {
  runId: string;
  threadId: string;
  content: string;
  grantedTools: readonly string[];
  recursionLimit: number;
}): FrameDraft[] {
  const reply = syntheticReply(run.content);
  const inputTokens = estimateTokens(run.content);
  const outputTokens = estimateTokens(reply);
  return [
    {
      event: "run_meta",
      run_id: run.runId,
      thread_id: run.threadId,
      model: AGENT_MOCK_MODEL,
      granted_tools: [...run.grantedTools],
      recursion_limit: run.recursionLimit,
    },
    ...tokenize(reply).map((text): FrameDraft => ({ event: "delta", text })),
    {
      event: "final",
      text: reply,
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    },
    { event: "complete", run_id: run.runId },
  ];
}

/**
 * A fixture line's `events` as frames: each event's `payload` (spec L7590), or the event itself
 * when it already looks like a frame. Anything else is a broken fixture, reported with its line.
 */
export function fixtureFrames(
  events: readonly unknown[],
  where: string,
): { frames: FrameDraft[] } | { error: RpcError } {
  const frames: FrameDraft[] = [];
  for (const [index, event] of events.entries()) {
    const candidate = isRecord(event) && isRecord(event["payload"]) ? event["payload"] : event;
    if (!isRecord(candidate) || typeof candidate["event"] !== "string") {
      return {
        error: catalogError(
          AGENT_ERRORS.PROVIDER_ERROR,
          `mock agent: ${where} events[${index}] is not a frame; write {"payload":{"event":"delta","text":"…"}}`,
          { reason: "MOCK_BAD_EVENT" },
        ),
      };
    }
    frames.push({ ...(candidate as FrameDraft) });
  }
  return { frames };
}

/** -32047 when a run has more frames than the host buffers (R33, catalog choice). */
export function checkFrameCap(count: number, maxFrames: number): void {
  if (count > maxFrames) {
    throw catalogError(
      AGENT_ERRORS.RUN_TOO_LARGE,
      `agent run produced ${count} frames; at most ${maxFrames} per run are buffered. Treat this as terminal: shrink the workload (fewer tools, lower max tokens) instead of retrying`,
      { maxFrames, frames: count },
    );
  }
}

/** The host tags every frame with its position and the run's stream (R33). */
export function tagFrames(frames: readonly FrameDraft[], streamId: string): AgentFrame[] {
  return frames.map((frame, seq) => ({ ...frame, seq, stream_id: streamId }));
}

/**
 * The result's `final`: the text of the `final` frame, else the streamed text (`delta`, `token`,
 * `message`), else `null` (nothing was said).
 */
export function finalText(frames: readonly FrameDraft[]): string | null {
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i];
    if (frame?.event === "final" && typeof frame["text"] === "string") return frame["text"];
  }
  const streamed = frames
    .filter((f) => f.event === "delta" || f.event === "token" || f.event === "message")
    .map((f) => (typeof f["text"] === "string" ? f["text"] : ""))
    .join("");
  return streamed === "" ? null : streamed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
