// Reading one `POST /copilot/app/agent` answer (server-sent events) into the frames of a
// buffered `agent/session.run` result (spec L11619: "each agent/* SSE response is accumulated
// into the JSON-RPC result envelope"). Bounded three ways: frames (the production cap, 4096 →
// -32047 agent_run_too_large), bytes of one event, bytes of the whole answer. Going over a cap
// stops reading at once, so the server sees the client leave and cancels the run.
import { AGENT_RUN_MAX_FRAMES, type AgentFrame } from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "@anna-ai/executa-host";

/** One event's `data:` lines; a frame is a small JSON object (a delta, a tool call). */
export const MAX_SSE_EVENT_BYTES = 1024 * 1024;
/** The whole answer: 4096 frames of a few KiB each, with room to spare. */
export const MAX_SSE_ANSWER_BYTES = 32 * 1024 * 1024;

export interface ReadFramesOptions {
  maxFrames?: number;
  /** For messages: `POST /api/v1/copilot/app/agent`. */
  what: string;
  /** Each frame as it is read, before the answer ends (a window's live `rpc.stream`). */
  onFrame?: (frame: AgentFrame) => void;
}

export async function readAgentFrames(
  body: ReadableStream<Uint8Array>,
  options: ReadFramesOptions,
): Promise<AgentFrame[]> {
  const maxFrames = options.maxFrames ?? AGENT_RUN_MAX_FRAMES;
  const frames: AgentFrame[] = [];
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_SSE_ANSWER_BYTES) {
        throw tooLarge(`${options.what} sent more than ${MAX_SSE_ANSWER_BYTES} bytes`);
      }
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = parseEvent(buffer.slice(0, end), options.what);
        buffer = buffer.slice(end + 2);
        if (frame === undefined) continue;
        if (frames.length >= maxFrames) {
          throw tooLarge(
            `${options.what} streamed more than ${maxFrames} frames, the cap of one buffered run; ask for a shorter answer or split the task`,
          );
        }
        frames.push(frame);
        options.onFrame?.(frame);
      }
      if (buffer.length > MAX_SSE_EVENT_BYTES) {
        throw tooLarge(`${options.what} sent an event over ${MAX_SSE_EVENT_BYTES} bytes`);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const last = parseEvent(buffer, options.what);
  if (last !== undefined && frames.length < maxFrames) {
    frames.push(last);
    options.onFrame?.(last);
  }
  return frames;
}

function tooLarge(message: string) {
  return catalogError(AGENT_ERRORS.RUN_TOO_LARGE, message);
}

function parseEvent(block: string, what: string): AgentFrame | undefined {
  const data = block
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).replace(/^ /, ""))
    .join("\n");
  if (data === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    throw catalogError(
      AGENT_ERRORS.PROVIDER_ERROR,
      `${what} sent an event whose data is not JSON: ${data.slice(0, 80)}`,
      {},
      { cause: error },
    );
  }
  if (
    parsed === null ||
    typeof parsed !== "object" ||
    typeof (parsed as AgentFrame).event !== "string"
  ) {
    throw catalogError(
      AGENT_ERRORS.PROVIDER_ERROR,
      `${what} sent an event without an "event" name: ${data.slice(0, 80)}`,
    );
  }
  return parsed as AgentFrame;
}
