// OpenAI Chat Completions (`POST /v1/chat/completions`), also spoken by Ollama, vLLM and
// llama.cpp: `chat.completion.chunk` objects on `data:` lines, tool-call deltas keyed by `index`
// with the id and name in the first and argument fragments after, the finish chunk, the usage
// chunk (`choices: []`) when `stream_options.include_usage` is set, then `data: [DONE]`.
import type { ServerResponse } from "node:http";
import type { ScriptedFinish, ScriptedReply } from "./script.js";
import { DEFAULT_USAGE, finishOf, splitArgs, textChunks } from "./script.js";
import { endSse, holdRest, startSse, writeEvent } from "./sse.js";

const FINISH: Readonly<Record<ScriptedFinish, string>> = {
  stop: "stop",
  "stop-sequence": "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
};

interface Body {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

const CREATED_S = 1_700_000_000;

function toolCalls(reply: ScriptedReply, seq: number) {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${seq}_${index}`,
    name: call.name,
    args: call.args,
  }));
}

function usage(reply: ScriptedReply) {
  const u = reply.usage ?? DEFAULT_USAGE;
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
  };
}

/** Returns false when the reply stalls (the response is left open). */
export function renderChatCompletion(
  reply: ScriptedReply,
  body: Body,
  res: ServerResponse,
  seq: number,
): boolean {
  const id = `chatcmpl-fake-${seq}`;
  const model = body.model ?? "fake-model";
  const calls = toolCalls(reply, seq);
  const text = textChunks(reply).join("");
  if (body.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created: CREATED_S,
        model,
        system_fingerprint: "fp_fake",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: text === "" && calls.length > 0 ? null : text,
              refusal: null,
              ...(calls.length > 0
                ? {
                    tool_calls: calls.map((c) => ({
                      id: c.id,
                      type: "function",
                      function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
                    })),
                  }
                : {}),
            },
            logprobs: null,
            finish_reason: FINISH[finishOf(reply)],
          },
        ],
        usage: usage(reply),
      }),
    );
    return true;
  }

  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created: CREATED_S,
    model,
    system_fingerprint: "fp_fake",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  startSse(res);
  writeEvent(res, chunk({ role: "assistant", content: "", refusal: null }));
  for (const piece of textChunks(reply)) {
    writeEvent(res, chunk({ content: piece }));
    holdRest(res, reply);
  }
  if (reply.stall === true) return false;
  calls.forEach((call, index) => {
    const [head, tail] = splitArgs(call.args);
    writeEvent(
      res,
      chunk({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    writeEvent(res, chunk({ tool_calls: [{ index, function: { arguments: head } }] }));
    writeEvent(res, chunk({ tool_calls: [{ index, function: { arguments: tail } }] }));
  });
  writeEvent(res, chunk({}, FINISH[finishOf(reply)]));
  if (body.stream_options?.include_usage === true) {
    writeEvent(res, { ...chunk({}), choices: [], usage: usage(reply) });
  }
  writeEvent(res, "[DONE]");
  endSse(res);
  return true;
}

/** OpenAI's error body: `{"error": {message, type, param, code}}`. */
export function openAiError(status: number, message: string) {
  return {
    error: {
      message,
      type: status === 429 ? "requests" : status === 401 ? "invalid_request_error" : "server_error",
      param: null,
      code: status === 429 ? "rate_limit_exceeded" : status === 401 ? "invalid_api_key" : null,
    },
  };
}
