import type { SamplingCreateMessageResult } from "@anna-ai/app-schema";
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import { InvokeBudget } from "../../../src/router/invoke-budget.js";
import { DEFAULT_ROUTER_LIMITS } from "../../../src/router/limits.js";
import type { SamplingGrant } from "../../../src/services/grants.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import {
  SAMPLING_DISABLED_MESSAGE,
  createOfflineSamplingService,
} from "../../../src/services/offline/sampling-offline.js";
import { MOCK_ERROR_CODE } from "../../../src/services/offline/sampling-fixture.js";
import { T0_MS, expectRpcError, request, schemaIssues, serviceCtx } from "./helpers.js";

const ctx = serviceCtx<SamplingGrant>();
const mock = (options: Parameters<typeof createOfflineSamplingService>[0] = { mode: "mock" }) =>
  createOfflineSamplingService({ clock: () => T0_MS, ...options });

const SUMMARY_SCHEMA = {
  type: "object",
  properties: {
    summary: { type: "string" },
    keywords: { type: "array", items: { type: "string" }, minItems: 2 },
    sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
  },
  required: ["summary", "keywords", "sentiment"],
  additionalProperties: false,
};
const JSON_SCHEMA_FORMAT = {
  type: "json_schema",
  json_schema: { name: "summary_analysis", strict: true, schema: SUMMARY_SCHEMA },
} as const;

function textOf(result: SamplingCreateMessageResult): string {
  return result.content.text;
}

describe("offline sampling, off", () => {
  it("fails every call with -32008 sampling_disabled", async () => {
    const service = createOfflineSamplingService({ mode: "off" });
    const entry = SAMPLING_ERRORS.NOT_NEGOTIATED;
    const error = await expectRpcError(
      service.createMessage(request("hi"), ctx),
      entry.code,
      "SAMPLING_NOT_NEGOTIATED",
    );
    expect(error.message).toBe(SAMPLING_DISABLED_MESSAGE);
    // The catalog names the harness alias the message uses.
    expect(entry.alias).toBe(SAMPLING_DISABLED_MESSAGE);
  });
});

describe("offline sampling, synthetic answers", () => {
  it("echoes the last user message with the MCP result shape", async () => {
    const result = await mock().createMessage(
      request("Summarize:\nthe weather", { systemPrompt: "Be brief." }),
      ctx,
    );
    const text = "[mock] Summarize:\nthe weather";
    const input = Math.ceil("Be brief.\nSummarize:\nthe weather".length / 4);
    const output = Math.ceil(text.length / 4);
    expect(result).toEqual({
      role: "assistant",
      content: { type: "text", text },
      model: "mock-default",
      stopReason: "endTurn",
      usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
      _meta: { provider: "mock", latencyMs: 0 },
    });
  });

  it("echoes at most 200 characters of the last user message, whatever its content form", async () => {
    const long = "é".repeat(300);
    const result = await mock().createMessage(
      {
        ...request("first question"),
        messages: [
          { role: "user", content: "first question" },
          {
            role: "user",
            content: [
              { type: "text", text: long.slice(0, 150) },
              { type: "text", text: long.slice(150) },
            ],
          },
          { role: "assistant", content: { type: "text", text: "an earlier answer" } },
        ],
      },
      ctx,
    );
    expect(textOf(result)).toBe(`[mock] ${"é".repeat(200)}`);
  });

  it("reads only the text blocks of a message, for the echo and the input count", async () => {
    const result = await mock().createMessage(
      {
        ...request(""),
        messages: [
          {
            role: "user",
            content: [
              { type: "image", data: "AAAA" },
              { type: "text", text: "caption this" },
            ],
          },
        ],
      },
      ctx,
    );
    expect(textOf(result)).toBe("[mock] caption this");
    expect(result.usage.inputTokens).toBe(Math.ceil("caption this".length / 4));
  });

  it("names the model after the first hint", async () => {
    const result = await mock().createMessage(
      request("hi", { modelPreferences: { hints: [{ name: "" }, { name: "claude-sonnet" }] } }),
      ctx,
    );
    expect(result.model).toBe("mock-claude-sonnet");
  });

  it("cuts at maxTokens (4 characters a token) and says so", async () => {
    const result = await mock().createMessage(
      request("a long enough question", { maxTokens: 3 }),
      ctx,
    );
    expect(textOf(result)).toBe("[mock] a lon");
    expect(result.stopReason).toBe("maxTokens");
    expect(result.usage.outputTokens).toBe(3);
  });

  it("stops at the earliest stop sequence", async () => {
    const result = await mock().createMessage(
      request("one. two### three", { stopSequences: ["###", ". ", ""] }),
      ctx,
    );
    expect(textOf(result)).toBe("[mock] one");
    expect(result.stopReason).toBe("stopSequence");
  });

  it("answers json_object with a JSON object and reports it in _meta", async () => {
    const result = await mock({ mode: "mock", unsupportedFormat: true }).createMessage(
      request("Reply in JSON", { responseFormat: { type: "json_object" } }),
      ctx,
    );
    expect(JSON.parse(textOf(result))).toEqual({ mock: true, reply: "[mock] Reply in JSON" });
    expect(result._meta?.responseFormat).toEqual({
      requested: "json_object",
      applied: "json_object",
      structuredValid: true,
      downgraded: false,
    });
  });

  it("answers json_schema with JSON that validates against the schema", async () => {
    const result = await mock().createMessage(
      request("Reply with a JSON object", { responseFormat: JSON_SCHEMA_FORMAT }),
      ctx,
    );
    expect(schemaIssues(SUMMARY_SCHEMA, JSON.parse(textOf(result)))).toEqual([]);
    expect(result._meta?.responseFormat).toEqual({
      requested: "json_schema",
      applied: "json_schema",
      structuredValid: true,
      downgraded: false,
    });
  });

  it("reports structuredValid false when maxTokens cuts the JSON", async () => {
    const result = await mock().createMessage(
      request("JSON please", { responseFormat: JSON_SCHEMA_FORMAT, maxTokens: 2 }),
      ctx,
    );
    expect(result.stopReason).toBe("maxTokens");
    expect(result._meta?.responseFormat?.structuredValid).toBe(false);
  });

  it("keeps text answers for a text responseFormat", async () => {
    const result = await mock().createMessage(
      request("plain", { responseFormat: { type: "text" } }),
      ctx,
    );
    expect(textOf(result)).toBe("[mock] plain");
    expect(result._meta?.responseFormat).toMatchObject({ requested: "text", applied: "text" });
  });
});

describe("offline sampling, a model without json_schema (--sampling-unsupported-format)", () => {
  const service = mock({ mode: "mock", unsupportedFormat: true });

  it("fails with -32010 {requested, modelName} when onUnsupported is error", async () => {
    const entry = SAMPLING_ERRORS.UNSUPPORTED_RESPONSE_FORMAT;
    const error = await expectRpcError(
      service.createMessage(
        request("x", {
          responseFormat: JSON_SCHEMA_FORMAT,
          modelPreferences: { hints: [{ name: "gpt" }] },
        }),
        ctx,
      ),
      entry.code,
      entry.errorCode,
    );
    expect(error.data).toEqual({
      requested: "json_schema",
      modelName: "mock-gpt",
      errorCode: entry.errorCode,
    });
  });

  it("downgrades to json_object and still answers in the schema's shape", async () => {
    const result = await service.createMessage(
      request("x", { responseFormat: JSON_SCHEMA_FORMAT, onUnsupported: "json_object" }),
      ctx,
    );
    expect(schemaIssues(SUMMARY_SCHEMA, JSON.parse(textOf(result)))).toEqual([]);
    expect(result._meta?.responseFormat).toEqual({
      requested: "json_schema",
      applied: "json_object",
      structuredValid: true,
      downgraded: true,
    });
  });

  it("drops the constraint for onUnsupported text", async () => {
    const result = await service.createMessage(
      request("x", { responseFormat: JSON_SCHEMA_FORMAT, onUnsupported: "text" }),
      ctx,
    );
    expect(textOf(result)).toBe("[mock] x");
    expect(result._meta?.responseFormat).toEqual({
      requested: "json_schema",
      applied: null,
      structuredValid: false,
      downgraded: true,
    });
  });

  it("checks the schema limits before the model gate", async () => {
    const deep = { a: { a: { a: { a: { a: { a: { a: { a: { a: {} } } } } } } } } };
    await expectRpcError(
      service.createMessage(
        request("x", {
          responseFormat: { type: "json_schema", json_schema: { name: "deep", schema: deep } },
        }),
        ctx,
      ),
      SAMPLING_ERRORS.INVALID_REQUEST.code,
      SAMPLING_ERRORS.INVALID_REQUEST.errorCode,
    );
  });
});

describe("offline sampling, usage and the router's token budget", () => {
  it("settles the per-invoke budget on usage.totalTokens", async () => {
    const budget = new InvokeBudget(DEFAULT_ROUTER_LIMITS);
    const params = request("count me", { systemPrompt: "system" });
    const reservation = budget.sampling(params.maxTokens, {});
    const result = await mock().createMessage(params, ctx);
    reservation.settle(result);
    expect(Number.isInteger(result.usage.totalTokens)).toBe(true);
    expect(budget.usage().samplingTokens).toBe(result.usage.totalTokens);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });
});

describe("offline sampling, determinism", () => {
  it("answers the same params with byte-identical JSON from separate services", async () => {
    const params = () =>
      request("Reply with a JSON object about the weather", {
        responseFormat: JSON_SCHEMA_FORMAT,
        stopSequences: ["zzz"],
        modelPreferences: { hints: [{ name: "sonnet" }] },
      });
    const a = await mock().createMessage(params(), ctx);
    const b = await mock().createMessage(
      params(),
      serviceCtx<SamplingGrant>({ invokeId: "other" }),
    );
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});

describe("offline sampling, deadlines", () => {
  it("fails with -32005 when the invoke was already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await expectRpcError(
      mock().createMessage(
        request("gone"),
        serviceCtx<SamplingGrant>({ signal: controller.signal }),
      ),
      SAMPLING_ERRORS.TIMEOUT.code,
      SAMPLING_ERRORS.TIMEOUT.errorCode,
    );
    expect(error.data).toMatchObject({ reason: "ABORTED" });
  });

  it("fails with -32005 when the invoke's deadline has passed by the clock", async () => {
    const service = createOfflineSamplingService({ mode: "mock", clock: () => T0_MS + 60_001 });
    await expectRpcError(
      service.createMessage(request("late"), ctx),
      SAMPLING_ERRORS.TIMEOUT.code,
      SAMPLING_ERRORS.TIMEOUT.errorCode,
    );
  });
});

const FIXTURE = `
# Sampling answers for the tests. Comments and blank lines are skipped.

{"ns":"llm","method":"complete","match":{"contentIncludes":"weather"},"result":{"role":"assistant","content":{"type":"text","text":"sunny"},"model":"mock","stopReason":"endTurn"}}
{"ns":"sampling","method":"createMessage","match":{"contentIncludes":"weather"},"result":{"content":{"type":"text","text":"never: the first line wins"}}}
{"ns":"sampling","method":"createMessage","match":{"contentIncludes":["forecast","Berlin"]},"result":{"content":{"type":"text","text":"rain in Berlin"},"usage":{"inputTokens":11,"outputTokens":3,"totalTokens":14},"_meta":{"provider":"fixture"}}}
{"ns":"sampling","method":"createMessage","match":{"contentIncludes":"forecast"},"result":{"content":{"type":"text","text":"{\\"ok\\":true}"}}}
{"ns":"sampling","method":"createMessage","match":{"contentIncludes":"boom"},"error":{"code":-32003,"message":"provider_error","data":{"upstream":"503"}}}
{"ns":"llm","method":"complete","match":{"contentIncludes":"teapot"},"error":{"code":-32099,"message":"i am a teapot"}}
{"ns":"llm","method":"complete","match":{"contentIncludes":"named"},"error":{"code":-32003,"message":"custom","data":{"errorCode":"MY_CODE"}}}
{"ns":"llm","method":"complete","match":{"contentIncludes":"stream"},"events":[{"payload":{"event":"run_meta"}},{"payload":{"event":"token","text":"hel"}},{"payload":{"event":"token","text":"lo"}},{"delta":" world"}]}
{"ns":"llm","method":"complete","match":{"maxTokens":7},"result":"plain string answer"}
`;

describe("offline sampling, fixture answers", () => {
  const fixture = MockFixture.parse(FIXTURE, "sampling.jsonl");
  const service = mock({ mode: "mock", fixture });

  it("answers with the first matching line (llm/complete spelling), fields as written", async () => {
    const result = await service.createMessage(request("how is the weather?"), ctx);
    expect(result).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "sunny" },
      model: "mock",
      stopReason: "endTurn",
    });
  });

  it("fills in role, model, stopReason and integer usage the line leaves out", async () => {
    const result = await service.createMessage(request("the forecast?"), ctx);
    expect(textOf(result)).toBe('{"ok":true}');
    expect(result.role).toBe("assistant");
    expect(result.model).toBe("mock-default");
    expect(result.stopReason).toBe("endTurn");
    expect(result.usage).toEqual({
      inputTokens: Math.ceil("the forecast?".length / 4),
      outputTokens: Math.ceil('{"ok":true}'.length / 4),
      totalTokens: Math.ceil("the forecast?".length / 4) + Math.ceil('{"ok":true}'.length / 4),
    });
  });

  it("narrows with every contentIncludes needle and keeps the line's usage and _meta", async () => {
    const result = await service.createMessage(request("forecast for Berlin"), ctx);
    expect(textOf(result)).toBe("rain in Berlin");
    expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 3, totalTokens: 14 });
    expect(result._meta).toEqual({ provider: "fixture" });
  });

  it("adds _meta.responseFormat to a fixture answer when a format was asked for", async () => {
    const result = await service.createMessage(
      request("forecast", { responseFormat: { type: "json_object" } }),
      ctx,
    );
    expect(result._meta?.responseFormat).toEqual({
      requested: "json_object",
      applied: "json_object",
      structuredValid: true,
      downgraded: false,
    });
  });

  it("turns an error line into the RpcError with the catalog's errorCode", async () => {
    const error = await expectRpcError(
      service.createMessage(request("boom"), ctx),
      -32003,
      "SAMPLING_PROVIDER_ERROR",
      "provider_error",
    );
    expect(error.data).toMatchObject({ upstream: "503" });
    await expectRpcError(service.createMessage(request("teapot"), ctx), -32099, MOCK_ERROR_CODE);
    await expectRpcError(service.createMessage(request("named"), ctx), -32003, "MY_CODE");
  });

  it("concatenates the text of an events line", async () => {
    const result = await service.createMessage(request("stream it"), ctx);
    expect(textOf(result)).toBe("hello world");
    expect(result.usage.outputTokens).toBe(3);
  });

  it("matches on params and takes a bare string result as the text", async () => {
    const result = await service.createMessage(request("anything", { maxTokens: 7 }), ctx);
    expect(textOf(result)).toBe("plain string answer");
    expect(result.stopReason).toBe("endTurn");
  });

  it("falls back to the synthetic answer when no line matches", async () => {
    const result = await service.createMessage(request("nothing matches this"), ctx);
    expect(textOf(result)).toBe("[mock] nothing matches this");
  });

  it("refuses an unsupported json_schema before consulting the fixture", async () => {
    const strict = mock({ mode: "mock", fixture, unsupportedFormat: true });
    await expectRpcError(
      strict.createMessage(request("weather", { responseFormat: JSON_SCHEMA_FORMAT }), ctx),
      SAMPLING_ERRORS.UNSUPPORTED_RESPONSE_FORMAT.code,
      SAMPLING_ERRORS.UNSUPPORTED_RESPONSE_FORMAT.errorCode,
    );
  });

  it("hands out a fresh copy of a fixture result on every call", async () => {
    const first = await service.createMessage(request("weather"), ctx);
    first.content.text = "changed";
    const second = await service.createMessage(request("weather"), ctx);
    expect(textOf(second)).toBe("sunny");
  });
});
