// Embeddings and images through the gateway against the fake provider, and the gateway-backed
// `embeddings/create` service with the offline service's input rules.
import type { EmbeddingsGrant, ImageGrant } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import {
  GatewayError,
  MemoryUsageLedger,
  createGatewayEmbeddingsService,
  createGatewayImageService,
} from "../src/index.js";
import { ACCOUNT, TEST_KEY, harness, serviceCtx } from "./helpers.js";

const EMBED = { account: ACCOUNT, purpose: "embeddings" } as const;
const IMAGES = { account: ACCOUNT, purpose: "images" } as const;

const ctx = () => serviceCtx<EmbeddingsGrant>();

describe("embeddings through the gateway", () => {
  it("asks OpenAI for the alias's dimensions with the default embeddings model", async () => {
    const { fake, gateway, ledger } = await harness({
      provider: "openai",
      model: "gpt-test",
      embeddings: { dimensions: 16 },
    });
    const result = await gateway.embed({ values: ["alpha", "beta"] }, EMBED);
    expect(result).toMatchObject({
      provider: "openai",
      model: "text-embedding-3-small",
      dimensions: 16,
    });
    expect(result.vectors).toHaveLength(2);
    const request = fake.requests[0];
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.headers["authorization"]).toBe(`Bearer ${TEST_KEY}`);
    expect(request?.body).toMatchObject({
      model: "text-embedding-3-small",
      input: ["alpha", "beta"],
      dimensions: 16,
    });
    expect(ledger.list({ purpose: "embeddings" })).toEqual([
      expect.objectContaining({ inputTokens: 12, outputTokens: 0 }),
    ]);
  });

  it("serves a local embeddings server under its own provider, without the chat key", async () => {
    const { fake, gateway } = await harness((baseUrl) => ({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      embeddings: {
        provider: "openai-compatible",
        baseUrl,
        model: "nomic-embed-text",
        dimensions: 8,
      },
    }));
    // The fake wants the key; an embeddings endpoint of another provider inherits none, so 401.
    const error = await gateway.embed({ values: ["x"] }, EMBED).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "provider_error", status: 401 });
    expect(fake.requests[0]?.headers["authorization"]).toBeUndefined();
    expect(fake.requests[0]?.headers["x-api-key"]).toBeUndefined();
  });

  it("says embeddings are not supported by anthropic, and what to set", async () => {
    const { gateway, fake } = await harness({ provider: "anthropic", model: "claude-sonnet-4-5" });
    const error = await gateway.embed({ values: ["x"] }, EMBED).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: "not_supported" });
    expect((error as Error).message).toBe(
      "embeddings are not supported by anthropic; set ANNA_EMBEDDINGS_PROVIDER to openai or openai-compatible (with its own base URL, key and model) to serve them",
    );
    expect(fake.requests).toHaveLength(0);
  });

  it("says which variable names the model when a local server has none", async () => {
    const { gateway } = await harness({ provider: "openai-compatible", model: "llama-test" });
    const error = await gateway.embed({ values: ["x"] }, EMBED).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "not_configured" });
    expect((error as Error).message).toContain("set ANNA_EMBEDDINGS_MODEL");
  });
});

describe("the gateway-backed embeddings service", () => {
  it("answers the embeddings/create result under the alias, with the backend model in _meta", async () => {
    const { gateway } = await harness({
      provider: "openai",
      model: "gpt-test",
      embeddings: { dimensions: 8 },
    });
    const service = createGatewayEmbeddingsService({ gateway, dimensions: 8 });
    const result = await service.create({ input: ["one", "two"] }, ctx());
    expect(result).toMatchObject({
      object: "list",
      model: "anna-managed-v1",
      data: [
        { object: "embedding", index: 0, embedding: expect.any(Array) },
        { object: "embedding", index: 1, embedding: expect.any(Array) },
      ],
      usage: { prompt_tokens: 12, total_tokens: 12 },
      _meta: {
        alias: "anna-managed-v1",
        dimensions: 8,
        backendModel: "text-embedding-3-small",
        provider: "openai",
      },
    });
  });

  it("refuses the batches the offline service refuses, with -32504, before calling the model", async () => {
    const { gateway, fake } = await harness({ provider: "openai", model: "gpt-test" });
    const service = createGatewayEmbeddingsService({ gateway, dimensions: 1536 });
    const tooMany = Array.from({ length: 65 }, (_, i) => `t${i}`);
    await expect(service.create({ input: tooMany }, ctx())).rejects.toMatchObject({
      code: -32504,
      message: "too many inputs: 65 > max=64",
    });
    await expect(service.create({ input: ["ok", "  "] }, ctx())).rejects.toMatchObject({
      code: -32504,
      message: "input[1] is empty",
    });
    await expect(
      service.create({ input: ["x"], model: "text-embedding-ada-002" }, ctx()),
    ).rejects.toMatchObject({
      code: -32504,
      data: { errorCode: "EMBED_INVALID_REQUEST", aliases: ["anna-managed-v1"] },
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("fails with -32503 naming the fix when the model's vectors do not fit the alias", async () => {
    const { gateway, fake } = await harness({
      provider: "openai-compatible",
      model: "llama-test",
      embeddings: { model: "nomic-embed-text" },
    });
    fake.enqueue({ embeddings: [[0.1, 0.2, 0.3]] });
    const service = createGatewayEmbeddingsService({ gateway, dimensions: 1536 });
    await expect(service.create({ input: ["x"] }, ctx())).rejects.toMatchObject({
      code: -32503,
      message: expect.stringContaining("set ANNA_EMBEDDINGS_DIMENSIONS=3"),
    });
  });

  it("maps provider failures onto the embeddings codes", async () => {
    const { gateway, fake } = await harness({
      provider: "openai",
      model: "gpt-test",
      maxRetries: 0,
      embeddings: { dimensions: 8 },
    });
    fake.enqueue({ error: { status: 500, message: "embedding backend down" } });
    const service = createGatewayEmbeddingsService({ gateway, dimensions: 8 });
    await expect(service.create({ input: ["x"] }, ctx())).rejects.toMatchObject({
      code: -32503,
      data: { errorCode: "EMBED_PROVIDER_ERROR", status: 500, provider: "openai" },
    });
  });
});

describe("images through the gateway", () => {
  it("generates images with OpenAI and counts them against the user", async () => {
    const { fake, gateway, ledger } = await harness({ provider: "openai", model: "gpt-test" });
    const result = await gateway.generateImage(
      { prompt: "a lighthouse", n: 2, size: "1024x1024" },
      IMAGES,
    );
    expect(result).toMatchObject({ provider: "openai", model: "gpt-image-1" });
    expect(result.images).toHaveLength(2);
    expect(
      Buffer.from(result.images[0]?.base64 ?? "", "base64")
        .subarray(1, 4)
        .toString("latin1"),
    ).toBe("PNG");
    expect(fake.requests[0]).toMatchObject({
      path: "/v1/images/generations",
      body: { model: "gpt-image-1", prompt: "a lighthouse", n: 2, size: "1024x1024" },
    });
    expect(ledger.totals({ userId: "u_alice", purpose: "images" })).toMatchObject({
      images: 2,
      calls: 1,
    });
  });

  it("says images are not supported by anthropic", async () => {
    const { gateway } = await harness({ provider: "anthropic", model: "claude-sonnet-4-5" });
    await expect(gateway.generateImage({ prompt: "x", n: 1 }, IMAGES)).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining(
        "images are not supported by anthropic; set ANNA_IMAGES_PROVIDER",
      ),
    });
  });
});

describe("the gateway-backed image service", () => {
  const imageCtx = () => serviceCtx<ImageGrant>();

  it("answers image/generate with data URLs, or the URLs its store gives", async () => {
    const { gateway } = await harness({ provider: "openai", model: "gpt-test" });
    const service = createGatewayImageService({ gateway });
    const result = await service.generate(
      { prompt: "a lighthouse", n: 2, size: "512x512" },
      imageCtx(),
    );
    expect(result).toMatchObject({ model: "gpt-image-1" });
    expect(result.images).toHaveLength(2);
    expect(result.images[0]).toMatchObject({ mimeType: "image/png", width: 512, height: 512 });
    expect(result.images[0]?.url).toMatch(/^data:image\/png;base64,iVBOR/);

    const stored: string[] = [];
    const withStore = createGatewayImageService({
      gateway,
      store: (image, index, ctx) => {
        stored.push(image.base64);
        return Promise.resolve(`https://blobs.example/${ctx.userId}/${index}.png`);
      },
    });
    const urls = await withStore.generate({ prompt: "a cat", n: 1 }, imageCtx());
    expect(urls.images.map((i) => i.url)).toEqual(["https://blobs.example/u_alice/0.png"]);
    expect(stored).toHaveLength(1);
  });

  it("answers the image family's codes: quota, no model, invalid request, unreadable edit input", async () => {
    const ledger = new MemoryUsageLedger({ imagesPerUser: 1 });
    const { gateway, fake } = await harness(
      { provider: "openai", model: "gpt-test" },
      { usage: ledger, quota: ledger },
    );
    const service = createGatewayImageService({ gateway });
    await service.generate({ prompt: "one", n: 1 }, imageCtx());
    await expect(service.generate({ prompt: "two", n: 1 }, imageCtx())).rejects.toMatchObject({
      code: -32102,
      data: { errorCode: "IMAGE_QUOTA_EXCEEDED" },
    });
    await expect(service.generate({ prompt: " ", n: 1 }, imageCtx())).rejects.toMatchObject({
      code: -32104,
    });
    await expect(
      service.edit({ prompt: "x", image_url: "https://x/y.png", n: 1 }, imageCtx()),
    ).rejects.toMatchObject({
      code: -32314,
      data: { field: "image_url", reason: "internal or private host" },
    });
    expect(fake.requests).toHaveLength(1);

    const anthropic = await harness({ provider: "anthropic", model: "claude-sonnet-4-5" });
    await expect(
      createGatewayImageService({ gateway: anthropic.gateway }).generate(
        { prompt: "x", n: 1 },
        imageCtx(),
      ),
    ).rejects.toMatchObject({
      code: -32109,
      message: expect.stringContaining("not supported by anthropic"),
    });
  });
});
