// `sampling/createMessage` served by a real model through the gateway, against the fake provider.
import type { SamplingRequest } from "@anna-ai/app-schema";
import type { SamplingGrant, ServiceContext } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { MemoryUsageLedger, createGatewaySamplingService } from "../src/index.js";
import type { LlmConfigInput } from "../src/index.js";
import { harness, serviceCtx } from "./helpers.js";

function ctx(overrides: Partial<ServiceContext<SamplingGrant>> = {}) {
  return serviceCtx<SamplingGrant>({
    grant: { maxCalls: 8, maxTokensTotal: 32_000 } as SamplingGrant,
    ...overrides,
  });
}

function request(overrides: Partial<SamplingRequest> = {}): SamplingRequest {
  return {
    messages: [{ role: "user", content: { type: "text", text: "Summarize: the weather" } }],
    maxTokens: 256,
    includeContext: "none",
    onUnsupported: "error",
    ...overrides,
  };
}

const SCHEMA = {
  type: "object",
  properties: { summary: { type: "string" } },
  required: ["summary"],
  additionalProperties: false,
};
const JSON_SCHEMA_FORMAT = {
  type: "json_schema",
  json_schema: { name: "summary_analysis", strict: true, schema: SCHEMA },
} as const;

const OPENAI_CHAT: LlmConfigInput = { provider: "openai", model: "gpt-test", openaiApi: "chat" };

async function sampling(input: LlmConfigInput, options: { ledger?: MemoryUsageLedger } = {}) {
  const h = await harness(
    input,
    options.ledger ? { usage: options.ledger, quota: options.ledger } : {},
  );
  return { ...h, service: createGatewaySamplingService({ gateway: h.gateway }) };
}

async function rpcError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e as { code: number; message: string; data: Record<string, unknown> },
  );
  return error;
}

describe("the gateway-backed sampling service", () => {
  it("answers in the MCP result shape with the real model, usage and _meta", async () => {
    const { fake, service, ledger } = await sampling(OPENAI_CHAT);
    fake.enqueue({ text: "Sunny all week.", usage: { inputTokens: 40, outputTokens: 5 } });
    const result = await service.createMessage(
      request({
        systemPrompt: "You summarise.",
        messages: [
          { role: "system", content: "Be terse." },
          { role: "user", content: { type: "text", text: "Summarize: the weather" } },
        ],
        stopSequences: ["\n\n"],
      }),
      ctx(),
    );
    expect(result).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "Sunny all week." },
      model: "gpt-test",
      stopReason: "endTurn",
      usage: { inputTokens: 40, outputTokens: 5, totalTokens: 45 },
      _meta: { provider: "openai", latencyMs: expect.any(Number) },
    });
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: "gpt-test",
      max_tokens: 256,
      temperature: 0.7,
      stop: ["\n\n"],
    });
    expect(body["messages"]).toEqual([
      { role: "system", content: "You summarise.\n\nBe terse." },
      { role: "user", content: "Summarize: the weather" },
    ]);
    expect(ledger.list()).toEqual([
      expect.objectContaining({
        userId: "u_alice",
        appId: "app_notes",
        toolId: "tool_notes",
        purpose: "sampling",
        totalTokens: 45,
      }),
    ]);
  });

  it("uses the sampling purpose's own model when one is configured", async () => {
    const { fake, service } = await sampling({ ...OPENAI_CHAT, sampling: { model: "gpt-small" } });
    fake.enqueue({ text: "ok" });
    const result = await service.createMessage(request({ temperature: 0 }), ctx());
    expect(result.model).toBe("gpt-small");
    expect(fake.requests[0]?.body).toMatchObject({ model: "gpt-small", temperature: 0 });
  });

  it("sends a JSON Schema response format to a model that supports it", async () => {
    const { fake, service } = await sampling(OPENAI_CHAT);
    fake.enqueue({ text: '{"summary":"sunny"}' });
    const result = await service.createMessage(
      request({ responseFormat: JSON_SCHEMA_FORMAT }),
      ctx(),
    );
    expect(fake.requests[0]?.body).toMatchObject({
      response_format: {
        type: "json_schema",
        json_schema: { name: "summary_analysis", schema: SCHEMA },
      },
    });
    expect(result._meta?.responseFormat).toEqual({
      requested: "json_schema",
      applied: "json_schema",
      structuredValid: true,
      downgraded: false,
    });
  });

  it("refuses json_schema on a model without structured output (-32010), or downgrades on request", async () => {
    const compatible: LlmConfigInput = { provider: "openai-compatible", model: "llama-test" };
    const { fake, service } = await sampling(compatible);
    const refused = await rpcError(
      service.createMessage(request({ responseFormat: JSON_SCHEMA_FORMAT }), ctx()),
    );
    expect(refused).toMatchObject({
      code: -32010,
      data: {
        errorCode: "SAMPLING_UNSUPPORTED_RESPONSE_FORMAT",
        requested: "json_schema",
        modelName: "llama-test",
      },
    });
    expect(fake.requests).toHaveLength(0);

    fake.enqueue({ text: "not json at all" });
    const downgraded = await service.createMessage(
      request({ responseFormat: JSON_SCHEMA_FORMAT, onUnsupported: "json_object" }),
      ctx(),
    );
    expect(fake.requests[0]?.body).toMatchObject({ response_format: { type: "json_object" } });
    expect(downgraded._meta?.responseFormat).toEqual({
      requested: "json_schema",
      applied: "json_object",
      structuredValid: false,
      downgraded: true,
    });
  });

  it("applies the schema hard limits before any model call (-32004)", async () => {
    const { fake, service } = await sampling(OPENAI_CHAT);
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 10; i++) deep = { type: "object", properties: { x: deep } };
    const error = await rpcError(
      service.createMessage(
        request({
          responseFormat: { type: "json_schema", json_schema: { name: "deep", schema: deep } },
        }),
        ctx(),
      ),
    );
    expect(error).toMatchObject({
      code: -32004,
      data: { errorCode: "SAMPLING_INVALID_REQUEST", limit: "schema_depth" },
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("reports Anthropic's stop sequence and a max_tokens cut as MCP stop reasons", async () => {
    const { fake, service } = await sampling({ provider: "anthropic", model: "claude-sonnet-4-5" });
    fake.enqueue(
      { text: "Partial", finish: "stop-sequence", stopSequence: "END" },
      { text: "Cut", finish: "length" },
    );
    expect(
      (await service.createMessage(request({ stopSequences: ["END"] }), ctx())).stopReason,
    ).toBe("stopSequence");
    expect((await service.createMessage(request(), ctx())).stopReason).toBe("maxTokens");
    expect(fake.requests[0]?.body).toMatchObject({ stop_sequences: ["END"], max_tokens: 256 });
    expect(fake.requests[0]?.body).not.toHaveProperty("system");
  });

  it("answers -32003 with the status and retry-after once the retries are spent on 429s", async () => {
    const { fake, service, sleeps } = await sampling({ ...OPENAI_CHAT, maxRetries: 1 });
    const limited = {
      error: { status: 429, message: "slow down", headers: { "retry-after-ms": "40" } },
    };
    fake.enqueue(limited, limited);
    const error = await rpcError(service.createMessage(request(), ctx()));
    expect(error).toMatchObject({
      code: -32003,
      data: {
        errorCode: "SAMPLING_PROVIDER_ERROR",
        reason: "rate_limited",
        status: 429,
        retryAfterMs: 40,
        attempts: 2,
        provider: "openai",
      },
    });
    expect(sleeps).toEqual([40]);
  });

  it("answers -32002 when the user's quota is spent", async () => {
    const ledger = new MemoryUsageLedger({ tokensPerUser: 30 });
    const { fake, service } = await sampling(OPENAI_CHAT, { ledger });
    fake.enqueue({ text: "first", usage: { inputTokens: 25, outputTokens: 10 } });
    await service.createMessage(request(), ctx());
    const error = await rpcError(service.createMessage(request(), ctx()));
    expect(error).toMatchObject({
      code: -32002,
      data: { errorCode: "SAMPLING_QUOTA_EXCEEDED", reason: "quota_exceeded" },
    });
    expect(error.message).toContain("used 35 of 30 tokens");
    expect(fake.requests).toHaveLength(1);
    // Another user is not affected.
    fake.enqueue({ text: "yours" });
    expect((await service.createMessage(request(), ctx({ userId: "u_bob" }))).content.text).toBe(
      "yours",
    );
  });

  it("answers -32005 when the model stalls past the invoke's deadline, and cancels the request", async () => {
    const { fake, service } = await sampling(OPENAI_CHAT);
    fake.enqueue({ text: "never", stall: true });
    // A non-streaming call that stalls: the fake never answers; the deadline is the budget.
    const error = await rpcError(
      service.createMessage(request(), ctx({ deadlineMs: Date.now() + 300 })),
    );
    expect(error).toMatchObject({
      code: -32005,
      data: { errorCode: "SAMPLING_TIMEOUT", reason: "timeout" },
    });
    expect(error.message).toContain("did not answer within");
    await fake.waitForStalledDisconnect();
  });

  it("answers -32005 for an invoke that already ended, without calling the model", async () => {
    const { fake, service } = await sampling(OPENAI_CHAT);
    const controller = new AbortController();
    controller.abort();
    const error = await rpcError(
      service.createMessage(request(), ctx({ signal: controller.signal })),
    );
    expect(error).toMatchObject({ code: -32005, data: { errorCode: "SAMPLING_TIMEOUT" } });
    expect(fake.requests).toHaveLength(0);
  });
});
