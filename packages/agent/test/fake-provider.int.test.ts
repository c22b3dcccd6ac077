// The fake providers' raw wire: what a client that is not the AI SDK would read.
import { describe, expect, it, onTestFinished } from "vitest";
import { FAKE_PROVIDER_MAX_BODY_BYTES, startFakeProvider } from "../src/test-kit/index.js";
import { TEST_KEY, fakeProvider } from "./helpers.js";

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${TEST_KEY}`,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

interface ToolDelta {
  index: number;
  id?: string;
  function: { name?: string; arguments?: string };
}
interface ChatChunk {
  object?: string;
  choices: { delta?: { tool_calls?: ToolDelta[] }; finish_reason?: string | null }[];
  usage?: unknown;
}
interface ResponsesEvent {
  type: string;
  sequence_number: number;
  response?: { output: { type: string }[]; usage: unknown };
}

const CALLS = {
  text: ["Hi"],
  toolCalls: [
    { id: "c1", name: "a", args: { x: 1 } },
    { id: "c2", name: "b", args: { y: "two" } },
  ],
};

describe("the fake provider's wire formats", () => {
  it("streams chat completions as data lines, tool calls by index, usage, then [DONE]", async () => {
    const fake = await fakeProvider();
    fake.enqueue(CALLS);
    const { text, headers } = await post(`${fake.baseUrl}/chat/completions`, {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(headers.get("content-type")).toContain("text/event-stream");
    const lines = text.split("\n\n").filter((l) => l !== "");
    expect(lines.every((l) => l.startsWith("data: "))).toBe(true);
    expect(lines.at(-1)).toBe("data: [DONE]");
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.slice(6)) as ChatChunk);
    expect(chunks[0]?.object).toBe("chat.completion.chunk");
    const toolDeltas = chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []);
    expect(
      toolDeltas.filter((d) => d.id !== undefined).map((d) => [d.index, d.id, d.function.name]),
    ).toEqual([
      [0, "c1", "a"],
      [1, "c2", "b"],
    ]);
    const args = (i: number) =>
      toolDeltas
        .filter((d) => d.index === i)
        .map((d) => d.function.arguments)
        .join("");
    expect(JSON.parse(args(1))).toEqual({ y: "two" });
    expect(chunks.find((c) => c.choices?.[0]?.finish_reason)?.choices[0]?.finish_reason).toBe(
      "tool_calls",
    );
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
    });
  });

  it("streams Responses events with names, sequence numbers and the completed response", async () => {
    const fake = await fakeProvider();
    fake.enqueue(CALLS);
    const { text } = await post(`${fake.baseUrl}/responses`, { model: "m", stream: true });
    const events = text
      .split("\n\n")
      .filter((b) => b !== "")
      .map((block) => {
        const [eventLine, dataLine] = block.split("\n");
        return {
          name: eventLine?.slice("event: ".length),
          data: JSON.parse(dataLine?.slice("data: ".length) ?? "") as ResponsesEvent,
        };
      });
    expect(events.every((e) => e.name === e.data.type)).toBe(true);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0]?.name).toBe("response.created");
    expect(events.filter((e) => e.name === "response.function_call_arguments.delta")).toHaveLength(
      4,
    );
    const last = events.at(-1);
    expect(last?.name).toBe("response.completed");
    expect(last?.data.response?.output.map((o) => o.type)).toEqual([
      "message",
      "function_call",
      "function_call",
    ]);
    expect(last?.data.response?.usage).toMatchObject({
      input_tokens: 12,
      output_tokens: 8,
      total_tokens: 20,
    });
  });

  it("streams Anthropic messages with tool_use blocks and input_json_delta", async () => {
    const fake = await fakeProvider();
    fake.enqueue(CALLS);
    const { text } = await post(
      `${fake.baseUrl}/messages`,
      { model: "m", stream: true },
      { "x-api-key": TEST_KEY },
    );
    const names = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(names[0]).toBe("message_start");
    expect(names.at(-2)).toBe("message_delta");
    expect(names.at(-1)).toBe("message_stop");
    expect(text).toContain('"content_block":{"type":"tool_use","id":"c2","name":"b","input":{}}');
    expect(text).toContain('"delta":{"type":"input_json_delta","partial_json":');
    expect(text).toContain(
      '"delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":8}',
    );
  });

  it("holds everything after the first text delta for restAfterMs, on every streaming route", async () => {
    const fake = await fakeProvider();
    // Long enough that a client descheduled on a loaded machine still reads the first delta
    // alone; the three routes run at once so the test waits for it only once.
    const HOLD_MS = 1_000;
    const paths = ["/chat/completions", "/responses", "/messages"];
    for (const _ of paths) fake.enqueue({ text: ["first", " rest"], restAfterMs: HOLD_MS });
    await Promise.all(
      paths.map(async (path) => {
        const started = performance.now();
        const response = await fetch(`${fake.baseUrl}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TEST_KEY}` },
          body: JSON.stringify({ model: "m", stream: true, max_tokens: 10 }),
        });
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let text = "";
        let sawFirstAlone = false;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          if (!sawFirstAlone && text.includes("first")) {
            expect(text, `${path}: nothing after the first delta comes with it`).not.toContain(
              " rest",
            );
            sawFirstAlone = true;
          }
        }
        expect(sawFirstAlone, path).toBe(true);
        expect(text, path).toContain(" rest");
        // The rest left the server HOLD_MS after the first delta, itself after the request.
        // (A timer may fire up to a millisecond early: Node rounds.)
        expect(performance.now() - started, path).toBeGreaterThanOrEqual(HOLD_MS - 2);
      }),
    );
  });

  it("answers errors in each provider's format, with the scripted headers", async () => {
    const fake = await fakeProvider();
    fake.enqueue(
      { error: { status: 429, headers: { "retry-after": "7" } } },
      { error: { status: 529 } },
    );
    const openai = await post(`${fake.baseUrl}/chat/completions`, { model: "m" });
    expect(openai.status).toBe(429);
    expect(openai.headers.get("retry-after")).toBe("7");
    expect(JSON.parse(openai.text)).toMatchObject({ error: { code: "rate_limit_exceeded" } });
    const anthropic = await post(`${fake.baseUrl}/messages`, { model: "m" });
    expect(JSON.parse(anthropic.text)).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "scripted HTTP 529" },
    });
  });

  it("refuses a wrong key, an unknown route and an oversized body", async () => {
    const fake = await fakeProvider();
    expect(
      (await post(`${fake.baseUrl}/chat/completions`, {}, { authorization: "Bearer nope" })).status,
    ).toBe(401);
    expect((await post(`${fake.baseUrl}/completions`, {})).status).toBe(404);
    const big = await post(
      `${fake.baseUrl}/chat/completions`,
      "x".repeat(FAKE_PROVIDER_MAX_BODY_BYTES + 1),
    );
    expect(big.status).toBe(413);
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/completions"]);
  });

  it("keeps no request log with recordRequests: false, and still answers", async () => {
    const fake = await startFakeProvider({ recordRequests: false });
    onTestFinished(() => fake.close());
    const answer = await post(`${fake.baseUrl}/chat/completions`, { model: "m" });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"content":"ok"');
    expect(fake.requests).toEqual([]);
  });
});
