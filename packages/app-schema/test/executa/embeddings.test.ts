import { describe, expect, it } from "vitest";
import {
  EmbeddingsCreateParamsSchema,
  EmbeddingsCreateResultSchema,
  embeddingInputs,
} from "../../src/executa/embeddings.js";

describe("embeddings/create", () => {
  it("wraps a bare string input into a batch", () => {
    expect(embeddingInputs(EmbeddingsCreateParamsSchema.parse({ input: "hello" }))).toEqual([
      "hello",
    ]);
    expect(
      embeddingInputs(
        EmbeddingsCreateParamsSchema.parse({ input: ["a", "b"], model: "anna-managed-v1" }),
      ),
    ).toEqual(["a", "b"]);
  });

  it("rejects non-string items and a missing input", () => {
    expect(EmbeddingsCreateParamsSchema.safeParse({ input: [1] }).success).toBe(false);
    expect(EmbeddingsCreateParamsSchema.safeParse({}).success).toBe(false);
  });

  it("describes the OpenAI-shaped result", () => {
    const result = {
      object: "list",
      model: "anna-managed-v1",
      data: [{ index: 0, embedding: [0.1, -0.2] }],
      usage: { prompt_tokens: 2, total_tokens: 2 },
      _meta: {
        alias: "anna-managed-v1",
        dimensions: 1536,
        backendModel: "openai/text-embedding-3-small",
      },
    };
    expect(EmbeddingsCreateResultSchema.parse(result)).toEqual(result);
    expect(EmbeddingsCreateResultSchema.safeParse({ ...result, object: "embedding" }).success).toBe(
      false,
    );
  });
});
