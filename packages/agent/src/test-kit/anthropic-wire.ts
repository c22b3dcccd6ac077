// Anthropic Messages (`POST /v1/messages`): named SSE events — `message_start` (input usage),
// per block `content_block_start` / `content_block_delta` (`text_delta`, or `input_json_delta`
// with `partial_json` for `tool_use`) / `content_block_stop`, a `ping`, `message_delta` with
// `stop_reason` and the output usage, then `message_stop`.
import type { ServerResponse } from "node:http";
import type { ScriptedFinish, ScriptedReply } from "./script.js";
import { DEFAULT_USAGE, finishOf, splitArgs, textChunks } from "./script.js";
import { endSse, holdRest, startSse, writeEvent } from "./sse.js";

const STOP_REASON: Readonly<Record<ScriptedFinish, string>> = {
  stop: "end_turn",
  "stop-sequence": "stop_sequence",
  length: "max_tokens",
  "tool-calls": "tool_use",
  "content-filter": "refusal",
};

interface Body {
  model?: string;
  stream?: boolean;
}

export function renderAnthropicMessage(
  reply: ScriptedReply,
  body: Body,
  res: ServerResponse,
  seq: number,
): boolean {
  const model = body.model ?? "fake-model";
  const chunks = textChunks(reply);
  const text = chunks.join("");
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    type: "tool_use",
    id: call.id ?? `toolu_fake_${seq}_${index}`,
    name: call.name,
    input: call.args ?? {},
  }));
  const u = reply.usage ?? DEFAULT_USAGE;
  const stopReason = STOP_REASON[finishOf(reply)];
  const stopSequence = finishOf(reply) === "stop-sequence" ? (reply.stopSequence ?? null) : null;
  const message = {
    id: `msg_fake_${seq}`,
    type: "message",
    role: "assistant",
    model,
  };

  if (body.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        ...message,
        content: [...(text !== "" ? [{ type: "text", text }] : []), ...calls],
        stop_reason: stopReason,
        stop_sequence: stopSequence,
        usage: { input_tokens: u.inputTokens, output_tokens: u.outputTokens },
      }),
    );
    return true;
  }

  const send = (type: string, data: Record<string, unknown>) =>
    writeEvent(res, { type, ...data }, type);
  startSse(res);
  send("message_start", {
    message: {
      ...message,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: u.inputTokens, output_tokens: 1 },
    },
  });
  let index = 0;
  if (chunks.length > 0 || calls.length === 0) {
    send("content_block_start", { index, content_block: { type: "text", text: "" } });
    send("ping", {});
    for (const piece of chunks) {
      send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
      holdRest(res, reply);
    }
    if (reply.stall === true) return false;
    send("content_block_stop", { index });
    index += 1;
  } else if (reply.stall === true) {
    return false;
  }
  for (const call of calls) {
    send("content_block_start", { index, content_block: { ...call, input: {} } });
    for (const partial of splitArgs(call.input)) {
      send("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: partial },
      });
    }
    send("content_block_stop", { index });
    index += 1;
  }
  send("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: stopSequence },
    usage: { output_tokens: u.outputTokens },
  });
  send("message_stop", {});
  endSse(res);
  return true;
}

/** Anthropic's error body: `{"type": "error", "error": {type, message}}`. */
export function anthropicError(status: number, message: string) {
  const type =
    status === 429
      ? "rate_limit_error"
      : status === 401
        ? "authentication_error"
        : status === 529
          ? "overloaded_error"
          : status >= 500
            ? "api_error"
            : "invalid_request_error";
  return { type: "error", error: { type, message } };
}
