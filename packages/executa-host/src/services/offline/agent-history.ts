// The transcript an offline agent session keeps for `agent/session.history` (R35): MCP-shaped
// messages, oldest first, paged with an opaque offset cursor.
import type { AgentHistoryMessage } from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../service-error.js";
import type { FrameDraft } from "./agent-frames.js";
import { finalText } from "./agent-frames.js";

const HISTORY_CURSOR_TAG = "h1:";

/**
 * What a run adds to the checkpoint: the user turn, an assistant `tool_use` and a `tool`
 * `tool_result` per tool call (R35: "1 + 2N" per turn), and the assistant's answer.
 */
export function transcriptOf(
  content: string,
  frames: readonly FrameDraft[],
): AgentHistoryMessage[] {
  const messages: AgentHistoryMessage[] = [
    { role: "user", content: { type: "text", text: content } },
  ];
  for (const frame of frames) {
    if (frame.event === "tool_call") {
      messages.push({
        role: "assistant",
        content: {
          type: "tool_use",
          id: frame["call_id"] ?? null,
          name: frame["name"] ?? null,
          input: frame["args"] ?? {},
        },
      });
    } else if (frame.event === "tool_result") {
      messages.push({
        role: "tool",
        content: {
          type: "tool_result",
          tool_use_id: frame["call_id"] ?? null,
          is_error: frame["ok"] === false,
          content: frame["data"] ?? null,
        },
      });
    }
  }
  const answer = finalText(frames);
  if (answer !== null)
    messages.push({ role: "assistant", content: { type: "text", text: answer } });
  return messages;
}

export function encodeHistoryCursor(offset: number): string {
  return Buffer.from(`${HISTORY_CURSOR_TAG}${offset}`, "utf8").toString("base64url");
}

export function decodeHistoryCursor(cursor: unknown, method: string): number {
  if (cursor === undefined || cursor === null || cursor === "") return 0;
  if (typeof cursor === "string" && /^[A-Za-z0-9_-]+$/.test(cursor)) {
    const text = Buffer.from(cursor, "base64url").toString("utf8");
    const offset = text.startsWith(HISTORY_CURSOR_TAG)
      ? Number(text.slice(HISTORY_CURSOR_TAG.length))
      : NaN;
    if (Number.isSafeInteger(offset) && offset >= 0) return offset;
  }
  throw catalogError(
    AGENT_ERRORS.INVALID_REQUEST,
    `${method}: 'cursor' is not one this host returned; pass next_cursor verbatim or omit it`,
  );
}
