// Each provider adapter against the fake server speaking its real wire format over HTTP.
import { describe, expect, it } from "vitest";
import { GatewayError } from "../src/index.js";
import type { ChatRequest, LlmConfigInput } from "../src/index.js";
import { ACCOUNT, TEST_KEY, collect, harness, textOf } from "./helpers.js";

const PROVIDERS: readonly { name: string; input: LlmConfigInput; path: string }[] = [
  {
    name: "openai (responses)",
    input: { provider: "openai", model: "gpt-test" },
    path: "/v1/responses",
  },
  {
    name: "openai (chat completions)",
    input: { provider: "openai", model: "gpt-test", openaiApi: "chat" },
    path: "/v1/chat/completions",
  },
  {
    name: "anthropic",
    input: { provider: "anthropic", model: "claude-sonnet-4-5" },
    path: "/v1/messages",
  },
  {
    name: "openai-compatible",
    input: { provider: "openai-compatible", model: "llama-test" },
    path: "/v1/chat/completions",
  },
];

const CALL = { account: ACCOUNT, purpose: "chat" } as const;

const WEATHER_TOOLS: ChatRequest["tools"] = [
  {
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  {
    name: "get_time",
    parameters: { type: "object", properties: { zone: { type: "string" } } },
  },
];

function authOf(headers: Readonly<Record<string, string>>): string | undefined {
  return headers["x-api-key"] ?? headers["authorization"];
}

describe.each(PROVIDERS)("the $name adapter", ({ name, input, path }) => {
  const anthropic = name === "anthropic";

  it("streams text deltas, then one finish with the usage, and sends the key and the prompt", async () => {
    const { fake, gateway, ledger } = await harness(input);
    fake.enqueue({ text: ["Hel", "lo, ", "Alice"], usage: { inputTokens: 21, outputTokens: 3 } });
    const events = await collect(
      gateway.streamChat(
        { system: "Be brief.", messages: [{ role: "user", content: "Say hello" }], maxTokens: 64 },
        CALL,
      ),
    );
    expect(
      events.filter((e) => e.type === "text-delta").map((e) => e.type === "text-delta" && e.text),
    ).toEqual(["Hel", "lo, ", "Alice"]);
    const finish = events.at(-1);
    expect(finish).toMatchObject({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 21, outputTokens: 3, totalTokens: 24 },
      provider: input.provider,
      model: input.model,
    });
    const [request] = fake.requests;
    expect(request?.path).toBe(path);
    expect(authOf(request?.headers ?? {})).toBe(anthropic ? TEST_KEY : `Bearer ${TEST_KEY}`);
    const sent = JSON.stringify(request?.body);
    expect(sent).toContain("Say hello");
    expect(sent).toContain("Be brief.");
    expect((request?.body as { stream?: boolean }).stream).toBe(true);
    expect(ledger.list()).toEqual([
      expect.objectContaining({
        userId: "u_alice",
        appId: "app_notes",
        purpose: "chat",
        totalTokens: 24,
      }),
    ]);
  });

  it("yields parallel tool calls with their parsed arguments and sends the tool schemas", async () => {
    const { fake, gateway } = await harness(input);
    fake.enqueue({
      text: "Checking.",
      toolCalls: [
        { id: "call_a", name: "get_weather", args: { city: "Paris" } },
        { id: "call_b", name: "get_time", args: { zone: "Europe/Paris" } },
      ],
    });
    const events = await collect(
      gateway.streamChat(
        {
          messages: [{ role: "user", content: "Weather and time in Paris?" }],
          tools: WEATHER_TOOLS,
        },
        CALL,
      ),
    );
    expect(textOf(events)).toBe("Checking.");
    expect(events.filter((e) => e.type === "tool-call")).toEqual([
      { type: "tool-call", id: "call_a", name: "get_weather", input: { city: "Paris" } },
      { type: "tool-call", id: "call_b", name: "get_time", input: { zone: "Europe/Paris" } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
    const sent = JSON.stringify(fake.requests[0]?.body);
    expect(sent).toContain("get_weather");
    expect(sent).toContain("Weather for a city");
  });

  it("sends tool results back on the next turn under the call's id", async () => {
    const { fake, gateway } = await harness(input);
    fake.enqueue({ text: "It is sunny in Paris." });
    const result = await gateway.complete(
      {
        messages: [
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "call_a", name: "get_weather", input: { city: "Paris" } }],
          },
          { role: "tool", toolCallId: "call_a", toolName: "get_weather", output: { sky: "sunny" } },
        ],
        tools: WEATHER_TOOLS,
      },
      CALL,
    );
    expect(result.text).toBe("It is sunny in Paris.");
    const sent = JSON.stringify(fake.requests[0]?.body);
    expect(sent).toContain("call_a");
    expect(sent).toContain("sunny");
  });

  it("completes without streaming: text, tool calls, finish reason and usage", async () => {
    const { fake, gateway } = await harness(input);
    fake.enqueue({
      toolCalls: [{ id: "call_x", name: "get_weather", args: { city: "Oslo" } }],
      usage: { inputTokens: 30, outputTokens: 9 },
    });
    const result = await gateway.complete(
      { messages: [{ role: "user", content: "Oslo?" }], tools: WEATHER_TOOLS, temperature: 0.2 },
      CALL,
    );
    expect(result).toMatchObject({
      toolCalls: [{ id: "call_x", name: "get_weather", input: { city: "Oslo" } }],
      finishReason: "tool-calls",
      usage: { inputTokens: 30, outputTokens: 9, totalTokens: 39 },
      provider: input.provider,
    });
    expect((fake.requests[0]?.body as { stream?: boolean }).stream).not.toBe(true);
    expect((fake.requests[0]?.body as { temperature?: number }).temperature).toBe(0.2);
  });

  it("retries a 429 after the retry-after the provider sent", async () => {
    const { fake, gateway, sleeps } = await harness(input);
    fake.enqueue(
      { error: { status: 429, headers: { "retry-after": "2" } } },
      { text: "after the wait" },
    );
    const events = await collect(
      gateway.streamChat({ messages: [{ role: "user", content: "hi" }] }, CALL),
    );
    expect(textOf(events)).toBe("after the wait");
    expect(sleeps).toEqual([2000]);
    expect(fake.requests).toHaveLength(2);
  });

  it("gives up on 5xx after the bounded retries and says what the provider answered", async () => {
    const { fake, gateway, sleeps } = await harness({ ...input, maxRetries: 2 });
    const boom = { error: { status: 503, message: "overloaded right now" } };
    fake.enqueue(boom, boom, boom, { text: "never reached" });
    const error = await gateway
      .complete({ messages: [{ role: "user", content: "hi" }] }, CALL)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: "provider_error", status: 503, attempts: 3 });
    expect((error as Error).message).toContain("HTTP 503");
    expect(sleeps).toHaveLength(2);
    expect(fake.requests).toHaveLength(3);
  });

  it("does not retry a 401 and never puts the key in the message", async () => {
    const { fake, gateway } = await harness({ ...input, apiKey: "sk-wrong-key-9876543210" });
    const error = await collect(
      gateway.streamChat({ messages: [{ role: "user", content: "hi" }] }, CALL),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "provider_error", status: 401, attempts: 1 });
    expect((error as Error).message).toContain("check the API key");
    expect((error as Error).message).not.toContain("sk-wrong-key-9876543210");
    expect(fake.requests).toHaveLength(1);
  });

  it("cancels mid-stream: the caller's abort ends the iteration and closes the provider connection", async () => {
    const { fake, gateway, ledger } = await harness(input);
    fake.enqueue({ text: ["first words", " then silence"], stall: true });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of gateway.streamChat(
        { messages: [{ role: "user", content: "talk" }] },
        { ...CALL, signal: controller.signal },
      )) {
        if (event.type === "text-delta") {
          seen.push(event.text);
          controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    expect(seen[0]).toBe("first words");
    expect(error).toMatchObject({ code: "aborted" });
    await fake.waitForStalledDisconnect();
    expect(ledger.list()).toHaveLength(0);
  });

  it("closes the provider connection when the consumer stops reading", async () => {
    const { fake, gateway } = await harness(input);
    fake.enqueue({ text: ["one", " two"], stall: true });
    for await (const event of gateway.streamChat(
      { messages: [{ role: "user", content: "talk" }] },
      CALL,
    )) {
      if (event.type === "text-delta") break;
    }
    await fake.waitForStalledDisconnect();
  });
});
