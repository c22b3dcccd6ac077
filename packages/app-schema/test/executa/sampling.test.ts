import { describe, expect, it } from "vitest";
import {
  SamplingCreateMessageParamsSchema,
  SamplingCreateMessageResultSchema,
  normalizeSamplingParams,
} from "../../src/executa/sampling.js";

const messages = [{ role: "user", content: { type: "text", text: "hi" } }];

describe("sampling/createMessage params", () => {
  it("accepts the Python SDK's camelCase request with _clientTimeoutS", () => {
    const parsed = SamplingCreateMessageParamsSchema.parse({
      messages,
      maxTokens: 256,
      includeContext: "none",
      systemPrompt: "Be brief.",
      temperature: 0.2,
      stopSequences: ["\n\n"],
      modelPreferences: { hints: [{ name: "claude" }], costPriority: 0.5 },
      metadata: { executa_invoke_id: "inv", tool: "summarize" },
      responseFormat: {
        type: "json_schema",
        json_schema: { name: "Summary", strict: true, schema: { type: "object" } },
      },
      onUnsupported: "json_object",
      _clientTimeoutS: 90,
    });
    expect(normalizeSamplingParams(parsed)).toEqual({
      messages,
      maxTokens: 256,
      systemPrompt: "Be brief.",
      temperature: 0.2,
      stopSequences: ["\n\n"],
      modelPreferences: { hints: [{ name: "claude" }], costPriority: 0.5 },
      includeContext: "none",
      responseFormat: {
        type: "json_schema",
        json_schema: { name: "Summary", strict: true, schema: { type: "object" } },
      },
      onUnsupported: "json_object",
      clientTimeoutS: 90,
      metadata: { executa_invoke_id: "inv", tool: "summarize" },
    });
  });

  it("normalizes snake_case params to camelCase", () => {
    const parsed = SamplingCreateMessageParamsSchema.parse({
      messages,
      max_tokens: 100,
      system_prompt: "sys",
      stop_sequences: ["x"],
      model_preferences: { hints: [] },
      include_context: "none",
      response_format: { type: "json_object" },
      on_unsupported: "text",
      metadata: { invoke_id: "inv" },
    });
    expect(normalizeSamplingParams(parsed)).toMatchObject({
      maxTokens: 100,
      systemPrompt: "sys",
      stopSequences: ["x"],
      modelPreferences: { hints: [] },
      responseFormat: { type: "json_object" },
      onUnsupported: "text",
    });
  });

  it("defaults onUnsupported to error and drops a null temperature", () => {
    const parsed = SamplingCreateMessageParamsSchema.parse({
      messages,
      maxTokens: 1,
      temperature: null,
    });
    const request = normalizeSamplingParams(parsed);
    expect(request.onUnsupported).toBe("error");
    expect("temperature" in request).toBe(false);
  });

  it("accepts a bare string content", () => {
    expect(
      SamplingCreateMessageParamsSchema.safeParse({
        messages: [{ role: "user", content: "hi" }],
        maxTokens: 5,
      }).success,
    ).toBe(true);
  });

  it.each([
    ["no maxTokens", { messages }],
    ["empty messages", { messages: [], maxTokens: 5 }],
    ["includeContext other than none", { messages, maxTokens: 5, includeContext: "thisServer" }],
    ["a bad role", { messages: [{ role: "tool", content: "x" }], maxTokens: 5 }],
    ["a negative maxTokens", { messages, maxTokens: -1 }],
    [
      "a json_schema name with spaces",
      {
        messages,
        maxTokens: 5,
        responseFormat: { type: "json_schema", json_schema: { name: "a b", schema: {} } },
      },
    ],
    ["an unknown onUnsupported", { messages, maxTokens: 5, onUnsupported: "ignore" }],
  ])("rejects %s", (_label, params) => {
    expect(SamplingCreateMessageParamsSchema.safeParse(params).success).toBe(false);
  });
});

describe("sampling/createMessage result", () => {
  const result = {
    role: "assistant",
    content: { type: "text", text: "…" },
    model: "claude-3-5-sonnet-20241022",
    stopReason: "endTurn",
    usage: { inputTokens: 312, outputTokens: 187, totalTokens: 499 },
    _meta: {
      provider: "anthropic",
      latencyMs: 1432,
      responseFormat: {
        requested: "json_schema",
        applied: null,
        structuredValid: false,
        downgraded: true,
      },
    },
  };

  it("accepts the documented result", () => {
    expect(SamplingCreateMessageResultSchema.parse(result)).toEqual(result);
  });

  it("rejects content as an array and fractional usage", () => {
    expect(
      SamplingCreateMessageResultSchema.safeParse({ ...result, content: [result.content] }).success,
    ).toBe(false);
    expect(
      SamplingCreateMessageResultSchema.safeParse({
        ...result,
        usage: { ...result.usage, inputTokens: 1.5 },
      }).success,
    ).toBe(false);
  });
});

describe("sampling params with nulls", () => {
  it("reads null optional fields as absent", () => {
    const parsed = SamplingCreateMessageParamsSchema.parse({
      messages,
      maxTokens: 10,
      systemPrompt: null,
      stopSequences: null,
      modelPreferences: null,
      responseFormat: null,
      includeContext: null,
      onUnsupported: null,
      _clientTimeoutS: null,
      metadata: null,
      context: null,
    });
    expect(normalizeSamplingParams(parsed)).toEqual({
      messages,
      maxTokens: 10,
      includeContext: "none",
      onUnsupported: "error",
    });
  });

  it("still requires a number for maxTokens", () => {
    expect(SamplingCreateMessageParamsSchema.safeParse({ messages, maxTokens: null }).success).toBe(
      false,
    );
    expect(
      SamplingCreateMessageParamsSchema.safeParse({ messages, maxTokens: null, max_tokens: 5 })
        .success,
    ).toBe(true);
  });
});
