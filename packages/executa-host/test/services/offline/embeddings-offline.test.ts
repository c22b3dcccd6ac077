import { EMBEDDINGS_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import type { EmbeddingsGrant } from "../../../src/services/grants.js";
import {
  EMBEDDINGS_DISABLED_MESSAGE,
  SYNTHETIC_EMBEDDING_BACKEND,
  createOfflineEmbeddingsService,
} from "../../../src/services/offline/embeddings-offline.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import { expectRpcError, serviceCtx } from "./helpers.js";

const ctx = serviceCtx<EmbeddingsGrant>();
const INVALID = EMBEDDINGS_ERRORS.INVALID_REQUEST;
type Params = Parameters<ReturnType<typeof createOfflineEmbeddingsService>["create"]>[0];
const params = (input: unknown, model?: string): Params =>
  ({ input, ...(model !== undefined ? { model } : {}) }) as Params;

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((sum, c) => sum + c * c, 0));
}

describe("offline embeddings, off", () => {
  it("fails every call with -32507 EMBED_NOT_NEGOTIATED", async () => {
    const service = createOfflineEmbeddingsService({ mode: "off" });
    const error = await expectRpcError(
      service.create(params(["a"]), ctx),
      EMBEDDINGS_ERRORS.NOT_NEGOTIATED.code,
      "EMBED_NOT_NEGOTIATED",
    );
    expect(error.message).toBe(EMBEDDINGS_DISABLED_MESSAGE);
  });
});

describe("offline embeddings, synthetic", () => {
  const service = createOfflineEmbeddingsService({ mode: "synthetic" });

  it("answers in the OpenAI shape with 1536-dimension unit vectors", async () => {
    const result = await service.create(params(["hello", "world!!"]), ctx);
    expect(result).toMatchObject({
      object: "list",
      model: "anna-managed-v1",
      usage: { prompt_tokens: 2 + 2, total_tokens: 4 },
      _meta: {
        alias: "anna-managed-v1",
        dimensions: 1536,
        backendModel: SYNTHETIC_EMBEDDING_BACKEND,
      },
    });
    expect(result.data.map((d) => [d.object, d.index, d.embedding.length])).toEqual([
      ["embedding", 0, 1536],
      ["embedding", 1, 1536],
    ]);
    for (const d of result.data) expect(Math.abs(norm(d.embedding) - 1)).toBeLessThan(1e-12);
  });

  it("wraps a bare string input", async () => {
    const result = await service.create(params("just one"), ctx);
    expect(result.data).toHaveLength(1);
  });

  it("gives equal texts equal vectors and different texts different ones", async () => {
    const result = await service.create(params(["same", "other", "same"]), ctx);
    const [a, b, c] = result.data.map((d) => d.embedding);
    expect(c).toEqual(a);
    expect(b).not.toEqual(a);
  });

  it("is byte-identical across services and calls", async () => {
    const again = createOfflineEmbeddingsService({ mode: "synthetic" });
    const first = JSON.stringify(await service.create(params(["déjà vu", "🙂"]), ctx));
    expect(JSON.stringify(await again.create(params(["déjà vu", "🙂"]), ctx))).toBe(first);
  });

  it("matches the pinned vector for 'hello' (the recipe reproduces in any language)", async () => {
    // sha256("anna-managed-v1\0hello") → sha256(seed ‖ u32be(block)) → u32 / 2³² · 2 − 1 → unit.
    const [first] = (await service.create(params(["hello"]), ctx)).data;
    expect(first?.embedding.slice(0, 3)).toEqual([
      0.014381574084970353, -0.002738621394196148, -0.03675497992550612,
    ]);
  });

  it("refuses more than 64 inputs, as Nexus does", async () => {
    await service.create(params(Array.from({ length: 64 }, (_, i) => `t${i}`)), ctx);
    await expectRpcError(
      service.create(params(Array.from({ length: 65 }, (_, i) => `t${i}`)), ctx),
      INVALID.code,
      INVALID.errorCode,
      "too many inputs: 65 > max=64",
    );
  });

  it("refuses an input over 32 000 characters, counted in code points", async () => {
    await service.create(params(["🙂".repeat(32_000)]), ctx);
    const error = await expectRpcError(
      service.create(params(["ok", "x".repeat(32_001)]), ctx),
      INVALID.code,
      INVALID.errorCode,
      /input\[1\] has 32001 characters/,
    );
    expect(error.data).toMatchObject({ index: 1, maxCharsPerInput: 32_000 });
  });

  it("refuses empty batches, blank items and non-strings", async () => {
    await expectRpcError(service.create(params([]), ctx), INVALID.code, INVALID.errorCode, /empty/);
    await expectRpcError(
      service.create(params(["a", "  "]), ctx),
      INVALID.code,
      INVALID.errorCode,
      /input\[1\] is empty/,
    );
    await expectRpcError(
      service.create(params(["a", 3]), ctx),
      INVALID.code,
      INVALID.errorCode,
      /not a string/,
    );
    await expectRpcError(
      service.create(params({ text: "a" }), ctx),
      INVALID.code,
      INVALID.errorCode,
    );
  });

  it("refuses an unknown alias, listing the known ones", async () => {
    const error = await expectRpcError(
      service.create(params(["a"], "text-embedding-3-small"), ctx),
      INVALID.code,
      INVALID.errorCode,
      /unknown embedding model alias 'text-embedding-3-small'; available aliases: anna-managed-v1/,
    );
    expect(error.data).toMatchObject({ aliases: ["anna-managed-v1"] });
  });

  it("takes another alias table and caps from its options", async () => {
    const custom = createOfflineEmbeddingsService({
      mode: "synthetic",
      aliases: { "anna-managed-v2": { dimensions: 8 } },
      maxInputs: 2,
    });
    const result = await custom.create(params(["a"], "anna-managed-v2"), ctx);
    expect(result.data[0]?.embedding).toHaveLength(8);
    await expectRpcError(custom.create(params(["a"]), ctx), INVALID.code, INVALID.errorCode);
    await expectRpcError(
      custom.create(params(["a", "b", "c"], "anna-managed-v2"), ctx),
      INVALID.code,
      INVALID.errorCode,
    );
  });
});

const FIXTURE = `
# embeddings answers
{"ns":"embeddings","method":"create","match":{"contentIncludes":"cat"},"result":{"data":[{"index":0,"embedding":[1,0]}]}}
{"ns":"llm","method":"embed","match":{"contentIncludes":"dog"},"result":{"object":"list","model":"fixture-model","data":[{"index":0,"embedding":[0,1]}],"usage":{"prompt_tokens":9,"total_tokens":9}}}
{"ns":"llm","method":"embed","match":{"contentIncludes":"down"},"error":{"code":-32503,"message":"provider_error"}}
{"ns":"embeddings","method":"create","match":{"contentIncludes":"frames"},"events":[{"text":"x"}]}
`;

describe("offline embeddings, mock", () => {
  const service = createOfflineEmbeddingsService({
    mode: "mock",
    fixture: MockFixture.parse(FIXTURE, "embed.jsonl"),
  });

  it("answers from an embeddings/create line, filling object, model and usage", async () => {
    expect(await service.create(params(["a cat"]), ctx)).toEqual({
      object: "list",
      model: "anna-managed-v1",
      data: [{ index: 0, embedding: [1, 0] }],
      usage: { prompt_tokens: 2, total_tokens: 2 },
    });
  });

  it("answers from an llm/embed line as written", async () => {
    const result = await service.create(params("a dog"), ctx);
    expect(result.model).toBe("fixture-model");
    expect(result.usage).toEqual({ prompt_tokens: 9, total_tokens: 9 });
  });

  it("turns an error line into the catalogued RpcError", async () => {
    await expectRpcError(service.create(params(["down"]), ctx), -32503, "EMBED_PROVIDER_ERROR");
  });

  it("refuses an events line, naming it", async () => {
    await expectRpcError(
      service.create(params(["frames"]), ctx),
      EMBEDDINGS_ERRORS.PROVIDER_ERROR.code,
      EMBEDDINGS_ERRORS.PROVIDER_ERROR.errorCode,
      /embed\.jsonl:6/,
    );
  });

  it("answers with synthetic vectors when no line matches", async () => {
    const result = await service.create(params(["a bird"]), ctx);
    expect(result._meta?.backendModel).toBe(SYNTHETIC_EMBEDDING_BACKEND);
    expect(result.data[0]?.embedding).toHaveLength(1536);
  });

  it("validates the batch before consulting the fixture", async () => {
    await expectRpcError(
      service.create(params(["cat"], "nope"), ctx),
      INVALID.code,
      INVALID.errorCode,
    );
  });
});
