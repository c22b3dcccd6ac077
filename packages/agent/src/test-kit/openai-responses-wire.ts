// OpenAI Responses (`POST /v1/responses`): named SSE events, each with its `type` and a
// `sequence_number` — `response.created`, `response.in_progress`, per output item
// `response.output_item.added` … `response.output_item.done` with `response.output_text.delta`
// or `response.function_call_arguments.delta` between, then `response.completed` (or
// `response.incomplete`) carrying the whole response and its usage.
import type { ServerResponse } from "node:http";
import type { ScriptedReply } from "./script.js";
import { DEFAULT_USAGE, finishOf, splitArgs, textChunks } from "./script.js";
import { endSse, holdRest, startSse, writeEvent } from "./sse.js";

interface Body {
  model?: string;
  stream?: boolean;
}

const CREATED_S = 1_700_000_000;

export function renderResponses(
  reply: ScriptedReply,
  body: Body,
  res: ServerResponse,
  seq: number,
): boolean {
  const id = `resp_fake_${seq}`;
  const model = body.model ?? "fake-model";
  const chunks = textChunks(reply);
  const text = chunks.join("");
  const messageId = `msg_fake_${seq}`;
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    type: "function_call",
    id: `fc_fake_${seq}_${index}`,
    call_id: call.id ?? `call_${seq}_${index}`,
    name: call.name,
    arguments: JSON.stringify(call.args ?? {}),
    status: "completed",
  }));
  const message = {
    type: "message",
    id: messageId,
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [], logprobs: [] }],
  };
  const output = [...(chunks.length > 0 || calls.length === 0 ? [message] : []), ...calls];
  const u = reply.usage ?? DEFAULT_USAGE;
  const incomplete = finishOf(reply) === "length";
  const response = (status: string, withOutput: boolean) => ({
    id,
    object: "response",
    created_at: CREATED_S,
    status,
    error: null,
    incomplete_details:
      incomplete && status !== "in_progress" ? { reason: "max_output_tokens" } : null,
    model,
    output: withOutput ? output : [],
    parallel_tool_calls: true,
    usage: withOutput
      ? {
          input_tokens: u.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: u.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: u.inputTokens + u.outputTokens,
        }
      : null,
  });

  if (body.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(response(incomplete ? "incomplete" : "completed", true)));
    return true;
  }

  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) =>
    writeEvent(res, { type, sequence_number: sequence++, ...data }, type);
  startSse(res);
  send("response.created", { response: response("in_progress", false) });
  send("response.in_progress", { response: response("in_progress", false) });
  let outputIndex = 0;
  if (output[0] === message) {
    const item = { ...message, status: "in_progress", content: [] };
    send("response.output_item.added", { output_index: outputIndex, item });
    const part = { type: "output_text", text: "", annotations: [] };
    send("response.content_part.added", {
      item_id: messageId,
      output_index: outputIndex,
      content_index: 0,
      part,
    });
    for (const delta of chunks) {
      send("response.output_text.delta", {
        item_id: messageId,
        output_index: outputIndex,
        content_index: 0,
        delta,
        logprobs: [],
      });
      holdRest(res, reply);
    }
    if (reply.stall === true) return false;
    send("response.output_text.done", {
      item_id: messageId,
      output_index: outputIndex,
      content_index: 0,
      text,
      logprobs: [],
    });
    send("response.content_part.done", {
      item_id: messageId,
      output_index: outputIndex,
      content_index: 0,
      part: { ...part, text },
    });
    send("response.output_item.done", { output_index: outputIndex, item: message });
    outputIndex += 1;
  } else if (reply.stall === true) {
    return false;
  }
  for (const call of calls) {
    const [head, tail] = splitArgs(JSON.parse(call.arguments));
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { ...call, arguments: "", status: "in_progress" },
    });
    for (const delta of [head, tail]) {
      send("response.function_call_arguments.delta", {
        item_id: call.id,
        output_index: outputIndex,
        delta,
      });
    }
    send("response.function_call_arguments.done", {
      item_id: call.id,
      output_index: outputIndex,
      arguments: call.arguments,
    });
    send("response.output_item.done", { output_index: outputIndex, item: call });
    outputIndex += 1;
  }
  const final = incomplete ? "incomplete" : "completed";
  send(`response.${final}`, { response: response(final, true) });
  endSse(res);
  return true;
}
