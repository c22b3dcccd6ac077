// `image/edit` through the gateway: the picture is read from its URL, sent to the fake OpenAI's
// /v1/images/edits as multipart form data (the real wire format), and the edited image comes back
// under the same limits and codes as image/generate. Providers that cannot edit answer -32311.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ImageGrant } from "@anna-ai/executa-host";
import { solidPng } from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import { createGatewayImageService, imageEditSource, MemoryUsageLedger } from "../src/index.js";
import type { FakeUploadedFile } from "../src/test-kit/index.js";
import { harness, serviceCtx } from "./helpers.js";

const PICTURE = solidPng(8, 8, { r: 10, g: 200, b: 30 });
const MASK = solidPng(8, 8, { r: 0, g: 0, b: 0 });

/** A server on 127.0.0.1 that serves the picture, the mask, and a text file. */
async function pictureServer(): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === "/picture.png" || req.url === "/mask.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(req.url === "/mask.png" ? MASK : PICTURE);
    } else if (req.url === "/notes.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("not a picture");
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const ctx = () => serviceCtx<ImageGrant>();

describe("image/edit through the gateway", () => {
  it("sends the picture and mask to OpenAI's /v1/images/edits and answers the edited image", async () => {
    const origin = await pictureServer();
    const ledger = new MemoryUsageLedger();
    const { gateway, fake } = await harness(
      { provider: "openai", model: "gpt-test" },
      { usage: ledger, quota: ledger },
    );
    const service = createGatewayImageService({
      gateway,
      source: imageEditSource({ trustedOrigins: () => [origin] }),
    });
    const result = await service.edit(
      {
        prompt: "paint the square blue",
        image_url: `${origin}/picture.png`,
        mask_url: `${origin}/mask.png`,
        n: 1,
        size: "512x512",
      },
      ctx(),
    );
    expect(result).toMatchObject({ model: "gpt-image-1" });
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ mimeType: "image/png", width: 512, height: 512 });
    expect(result.images[0]?.url).toMatch(/^data:image\/png;base64,iVBOR/);

    const request = fake.requests[0];
    expect(request?.path).toBe("/v1/images/edits");
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const body = request?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: "gpt-image-1",
      prompt: "paint the square blue",
      n: 1,
      size: "512x512",
    });
    const image = body["image"] as FakeUploadedFile;
    expect(image).toMatchObject({ sizeBytes: PICTURE.byteLength, sha256: sha(PICTURE) });
    expect(body["mask"]).toMatchObject({ sizeBytes: MASK.byteLength, sha256: sha(MASK) });
    expect(ledger.totals({ userId: "u_alice", purpose: "images" })).toMatchObject({
      images: 1,
      calls: 1,
    });
  });

  it("refuses an input that is not an image, or not public, before calling the provider", async () => {
    const origin = await pictureServer();
    const { gateway, fake } = await harness({ provider: "openai", model: "gpt-test" });
    const trusted = createGatewayImageService({
      gateway,
      source: imageEditSource({ trustedOrigins: () => [origin] }),
    });
    await expect(
      trusted.edit({ prompt: "x", image_url: `${origin}/notes.txt`, n: 1 }, ctx()),
    ).rejects.toMatchObject({
      code: -32104,
      message: expect.stringContaining("'image_url' is text/plain; edits take image/png"),
    });
    await expect(
      trusted.edit({ prompt: "x", image_url: `${origin}/gone.png`, n: 1 }, ctx()),
    ).rejects.toMatchObject({
      code: -32314,
      message: expect.stringContaining("answered HTTP 404"),
    });
    // Without trusting this origin, a loopback URL is an internal host.
    const untrusted = createGatewayImageService({ gateway });
    await expect(
      untrusted.edit({ prompt: "x", image_url: `${origin}/picture.png`, n: 1 }, ctx()),
    ).rejects.toMatchObject({ code: -32314, data: { field: "image_url" } });
    await expect(untrusted.edit({ prompt: "x", n: 1 } as never, ctx())).rejects.toMatchObject({
      code: -32104,
      data: { field: "image_url" },
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("maps a provider failure of the edit onto the image codes", async () => {
    const origin = await pictureServer();
    const { gateway, fake } = await harness({
      provider: "openai",
      model: "gpt-test",
      maxRetries: 0,
    });
    fake.enqueue({ error: { status: 400, message: "mask must match the image size" } });
    const service = createGatewayImageService({
      gateway,
      source: imageEditSource({ trustedOrigins: () => [origin] }),
    });
    await expect(
      service.edit({ prompt: "x", image_url: `${origin}/picture.png`, n: 1 }, ctx()),
    ).rejects.toMatchObject({
      code: -32103,
      data: { errorCode: "IMAGE_PROVIDER_ERROR", status: 400, provider: "openai" },
    });
  });

  it("keeps -32311 for models that cannot edit, naming the provider that can", async () => {
    for (const input of [
      { provider: "offline" as const },
      { provider: "anthropic" as const, model: "claude-sonnet-4-5" },
    ]) {
      const { gateway, fake } = await harness(input);
      const service = createGatewayImageService({ gateway });
      await expect(
        service.edit({ prompt: "x", image_url: "https://images.example.com/a.png", n: 1 }, ctx()),
      ).rejects.toMatchObject({
        code: -32311,
        data: { errorCode: "IMAGE_EDIT_NOT_SUPPORTED", provider: input.provider },
        message: expect.stringContaining("set the images provider to openai"),
      });
      expect(fake.requests).toHaveLength(0);
    }
    const offline = await harness({ provider: "offline" });
    await expect(
      offline.gateway.editImage(
        { prompt: "x", n: 1, images: [{ bytes: PICTURE, mediaType: "image/png" }] },
        { account: { userId: "u" }, purpose: "images" },
      ),
    ).rejects.toMatchObject({ code: "not_supported", provider: "offline" });
  });
});
