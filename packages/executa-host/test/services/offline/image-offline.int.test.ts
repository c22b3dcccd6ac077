// The offline image service with a real loopback blob server: validation codes, the daily
// quota, fixture answers and synthetic PNGs fetched over HTTP.
import { inflateSync } from "node:zlib";
import type { ImageResult } from "@anna-ai/app-schema";
import { IMAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImageGrant } from "../../../src/services/grants.js";
import type { ImageService } from "../../../src/services/image-service.js";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { createOfflineImageService } from "../../../src/services/offline/image-offline.js";
import { pngSize, solidPng } from "../../../src/services/offline/image-png.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import { ctxWith, expectCatalogError, manualClock } from "./helpers.js";

const ctx = ctxWith<ImageGrant>({ generate: true, edit: true });
const PNG_SIGNATURE = "89504e470d0a1a0a";

/** Checks a PNG: signature, IHDR size, and that every pixel has one colour. */
function readPng(bytes: Buffer): { width: number; height: number; rgb: number[] } {
  expect(bytes.subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
  const size = pngSize(bytes);
  if (size === undefined) throw new Error("no IHDR");
  const idatLength = bytes.readUInt32BE(33);
  expect(bytes.toString("latin1", 37, 41)).toBe("IDAT");
  const raw = inflateSync(bytes.subarray(41, 41 + idatLength));
  expect(raw.length).toBe((1 + size.width * 3) * size.height);
  const rgb = [raw[1] ?? -1, raw[2] ?? -1, raw[3] ?? -1];
  expect(raw.at(-1)).toBe(rgb[2]);
  expect(bytes.subarray(-12).toString("latin1", 4, 8)).toBe("IEND");
  return { ...size, rgb };
}

describe("createOfflineImageService", () => {
  const blobServer = new LoopbackBlobServer();
  beforeAll(() => blobServer.start());
  afterAll(() => blobServer.close());

  function newService(fixture?: string, clock = manualClock()): ImageService {
    return createOfflineImageService({
      mode: "mock",
      blobServer,
      clock: clock.now,
      ...(fixture !== undefined ? { fixture: MockFixture.parse(fixture, "image.jsonl") } : {}),
    });
  }

  it("answers -32101 image_not_granted when off", async () => {
    const image = createOfflineImageService({ mode: "off" });
    await expectCatalogError(image.generate({ prompt: "x", n: 1 }, ctx), IMAGE_ERRORS.NOT_GRANTED);
    await expectCatalogError(
      image.edit({ prompt: "x", image_url: "https://a.example/x.png", n: 1 }, ctx),
      IMAGE_ERRORS.NOT_GRANTED,
    );
    expect(IMAGE_ERRORS.NOT_GRANTED.alias).toBe("image_not_granted");
  });

  it("serves each synthetic image as a real PNG, scaled to fit 256 px", async () => {
    const image = newService();
    const result = await image.generate({ prompt: "a red poster", n: 2, size: "1024x512" }, ctx);
    expect(result).toMatchObject({
      model: "mock-image",
      quota_used: { images_today: 2, images_quota: 50 },
      _meta: { synthetic: true, requested_size: "1024x512", output_format: "png" },
    });
    expect(result.images).toHaveLength(2);
    const colours: string[] = [];
    for (const img of result.images) {
      expect(img).toMatchObject({ mimeType: "image/png", width: 256, height: 128 });
      expect(img.url.startsWith(blobServer.origin)).toBe(true);
      const response = await fetch(img.url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("content-disposition")).toMatch(/^inline/);
      const png = readPng(Buffer.from(await response.arrayBuffer()));
      expect({ width: png.width, height: png.height }).toEqual({ width: 256, height: 128 });
      colours.push(png.rgb.join(","));
    }
    expect(new Set(colours).size).toBe(2);
  });

  it("keeps small sizes as asked and is deterministic byte for byte", async () => {
    const params = { prompt: "tiny icon", n: 1, size: "64x96" };
    const one = await newService().generate(params, ctx);
    const two = await newService().generate(params, ctx);
    expect(one.images[0]).toMatchObject({ width: 64, height: 96 });
    const [a, b] = await Promise.all(
      [one, two].map(async (r) =>
        Buffer.from(await (await fetch(r.images[0]?.url ?? "")).arrayBuffer()),
      ),
    );
    expect(a?.equals(b ?? Buffer.alloc(0))).toBe(true);
    const other = await newService().generate({ ...params, prompt: "another icon" }, ctx);
    const c = Buffer.from(await (await fetch(other.images[0]?.url ?? "")).arrayBuffer());
    expect(c.equals(a ?? Buffer.alloc(0))).toBe(false);
  });

  it("answers with data: URLs when there is no blob server", async () => {
    const image = createOfflineImageService({ mode: "mock" });
    const result = await image.generate({ prompt: "offline", n: 1, size: "100x100" }, ctx);
    const url = result.images[0]?.url ?? "";
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    const png = readPng(Buffer.from(url.slice("data:image/png;base64,".length), "base64"));
    expect(png).toMatchObject({ width: 100, height: 100 });
    expect(solidPng(2, 2, { r: 1, g: 2, b: 3 }).equals(solidPng(2, 2, { r: 1, g: 2, b: 3 }))).toBe(
      true,
    );
  });

  it("validates prompt, size, n and the option enums with -32104", async () => {
    const image = newService();
    const bad: Record<string, unknown>[] = [
      { prompt: "  " },
      { prompt: "x", size: "big" },
      { prompt: "x", size: "1024x1024x2" },
      { prompt: "x", size: "32x1024" },
      { prompt: "x", size: "1024x8192" },
      { prompt: "x", n: 0 },
      { prompt: "x", n: 1.5 },
      { prompt: "x", quality: "ultra" },
      { prompt: "x", resolution: "8K" },
      { prompt: "x", output_format: "gif" },
      { prompt: "x", thinking_level: "deep" },
      { prompt: "x", enable_web_search: "yes" },
      { prompt: "x", reference_image_urls: Array(5).fill("https://a.example/x.png") },
      { prompt: "x", reference_image_urls: [42] },
    ];
    for (const params of bad) {
      await expectCatalogError(
        image.generate({ n: 1, ...params } as never, ctx),
        IMAGE_ERRORS.INVALID_REQUEST,
      );
    }
    await expectCatalogError(
      image.generate({ prompt: "x", n: 9 }, ctx),
      IMAGE_ERRORS.MAX_IMAGES_EXCEEDED,
    );
    const ok = await image.generate(
      {
        prompt: "x",
        n: 1,
        quality: "high",
        resolution: "2K",
        output_format: "webp",
        thinking_level: "minimal",
        enable_web_search: false,
        reference_image_urls: ["https://cdn.example.com/a.png"],
      },
      ctx,
    );
    // Synthetic images are always PNG (the documented fallback format).
    expect(ok.images[0]?.mimeType).toBe("image/png");
  });

  it("refuses reference URLs that are not public HTTPS with -32314, but trusts its own", async () => {
    const image = newService();
    for (const url of [
      "http://cdn.example.com/a.png",
      "file:///etc/passwd",
      "https://localhost/a.png",
      "https://10.1.2.3/a.png",
      "https://[::1]/a.png",
      "https://intranet/a.png",
      "not a url",
    ]) {
      await expectCatalogError(
        image.generate({ prompt: "x", n: 1, reference_image_urls: [url] }, ctx),
        IMAGE_ERRORS.REFERENCE_FETCH_FAILED,
      );
    }
    const made = await image.generate({ prompt: "base", n: 1 }, ctx);
    const own = made.images[0]?.url ?? "";
    expect(
      (await image.generate({ prompt: "x", n: 1, reference_image_urls: [own] }, ctx)).images,
    ).toHaveLength(1);
    expect(
      (await image.edit({ prompt: "brighter", image_url: own, n: 1 }, ctx)).images,
    ).toHaveLength(1);
  });

  it("edit needs image_url (-32104) and refuses masks synthetically (-32312) unless a fixture answers", async () => {
    const fixture = [
      '{"ns":"image","method":"edit","match":{"contentIncludes":"masked-ok"},"result":{"images":[{"url":"https://r2.example/edit.png","mimeType":"image/png","width":1024,"height":1024}],"model":"fixture-model"}}',
      '{"ns":"image","method":"generate","match":{"contentIncludes":"fail"},"error":{"code":-32109,"message":"no_model_available"}}',
      '{"ns":"image","method":"generate","match":{"prompt":"canned"},"result":{"images":[{"url":"https://r2.example/c.png"}],"model":"dall-e-3"}}',
    ].join("\n");
    const image = newService(fixture);
    await expectCatalogError(
      image.edit({ prompt: "x", image_url: "", n: 1 }, ctx),
      IMAGE_ERRORS.INVALID_REQUEST,
      /image_url/,
    );
    await expectCatalogError(
      image.edit({ prompt: "x", image_url: "http://insecure.example/a.png", n: 1 }, ctx),
      IMAGE_ERRORS.REFERENCE_FETCH_FAILED,
    );
    const base = "https://cdn.example.com/base.png";
    await expectCatalogError(
      image.edit(
        { prompt: "x", image_url: base, mask_url: "https://cdn.example.com/m.png", n: 1 },
        ctx,
      ),
      IMAGE_ERRORS.MASK_UNSUPPORTED,
    );
    const masked = await image.edit(
      { prompt: "masked-ok", image_url: base, mask_url: "https://cdn.example.com/m.png", n: 1 },
      ctx,
    );
    expect(masked.model).toBe("fixture-model");
    await expectCatalogError(
      image.generate({ prompt: "please fail", n: 1 }, ctx),
      IMAGE_ERRORS.NO_MODEL_AVAILABLE,
      "no_model_available",
    );
    expect(await image.generate({ prompt: "canned", n: 1 }, ctx)).toEqual({
      images: [{ url: "https://r2.example/c.png" }],
      model: "dall-e-3",
    });
  });

  it("answers a published image mock whose line matches on promptIncludes", async () => {
    // As published fixtures write it (real-world-plugins.md): a substring of `prompt` only.
    const image = newService(
      [
        '{"ns":"image","method":"generate","match":{"promptIncludes":"Mars","promptExcludes":"night"},"result":{"images":[{"url":"https://r2.example/mars.png"}],"model":"mars-model"}}',
      ].join("\n"),
    );
    const mars = await image.generate({ prompt: "a poster of Mars at dawn", n: 1 }, ctx);
    expect(mars).toEqual({ images: [{ url: "https://r2.example/mars.png" }], model: "mars-model" });
    // `promptExcludes` holds the line back; another field naming Mars does not count as the prompt.
    const night = await image.generate({ prompt: "Mars at night", n: 1 }, ctx);
    expect(night.model).not.toBe("mars-model");
    const elsewhere = await image.generate(
      { prompt: "a red planet", n: 1, style: "Mars" } as never,
      ctx,
    );
    expect(elsewhere.model).not.toBe("mars-model");
  });

  it("counts images per user over a rolling 24 h window (-32102)", async () => {
    const clock = manualClock();
    const image = newService(undefined, clock);
    const small = ctxWith<ImageGrant>({ maxImagesPerDay: 3 });
    const first: ImageResult = await image.generate({ prompt: "a", n: 2 }, small);
    expect(first.quota_used).toEqual({ images_today: 2, images_quota: 3 });
    const error = await expectCatalogError(
      image.generate({ prompt: "b", n: 2 }, small),
      IMAGE_ERRORS.QUOTA_EXCEEDED,
    );
    expect(error.data).toMatchObject({ images_today: 2, images_quota: 3 });
    // Another executa of the same user shares the count; another user does not.
    await expectCatalogError(
      image.generate(
        { prompt: "b", n: 2 },
        ctxWith<ImageGrant>({ maxImagesPerDay: 3 }, { toolId: "tool-b" }),
      ),
      IMAGE_ERRORS.QUOTA_EXCEEDED,
    );
    await image.generate(
      { prompt: "b", n: 2 },
      ctxWith<ImageGrant>({ maxImagesPerDay: 3 }, { userId: "user-2" }),
    );
    // Failed calls give their reservation back; concurrent ones cannot overshoot together.
    const other = ctxWith<ImageGrant>({ maxImagesPerDay: 3 }, { userId: "user-3" });
    await expectCatalogError(
      image.edit(
        {
          prompt: "x",
          n: 1,
          image_url: "https://cdn.example.com/a.png",
          mask_url: "https://cdn.example.com/m.png",
        },
        other,
      ),
      IMAGE_ERRORS.MASK_UNSUPPORTED,
    );
    const settled = await Promise.allSettled([
      image.generate({ prompt: "c", n: 2 }, other),
      image.generate({ prompt: "d", n: 2 }, other),
    ]);
    expect(settled.map((s) => s.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((await image.generate({ prompt: "e", n: 1 }, other)).quota_used).toEqual({
      images_today: 3,
      images_quota: 3,
    });
    clock.advance(24 * 3600 * 1000);
    expect((await image.generate({ prompt: "b", n: 2 }, small)).quota_used).toEqual({
      images_today: 2,
      images_quota: 3,
    });
  });
});
