import { describe, expect, it } from "vitest";
import {
  ImageEditParamsSchema,
  ImageGenerateParamsSchema,
  ImageResultSchema,
} from "../../src/executa/image.js";

describe("image/*", () => {
  it("accepts generate as the SDK sends it, n over the host cap included (-32106 is the service's)", () => {
    const parsed = ImageGenerateParamsSchema.parse({
      prompt: "a poster",
      n: 12,
      size: "1024x1024",
      reference_image_urls: ["https://x/a.png"],
      modelPreferences: { hints: [{ name: "dalle-3" }] },
      metadata: { executa_invoke_id: "inv" },
      _clientTimeoutS: 180,
    });
    expect(parsed.n).toBe(12);
  });

  it("rejects generate without a prompt and a fractional n", () => {
    expect(ImageGenerateParamsSchema.safeParse({ n: 1 }).success).toBe(false);
    expect(ImageGenerateParamsSchema.safeParse({ prompt: "p", n: 1.5 }).success).toBe(false);
  });

  it("accepts edit with a null mask and requires image_url", () => {
    expect(
      ImageEditParamsSchema.safeParse({ image_url: "https://x", prompt: "p", mask_url: null })
        .success,
    ).toBe(true);
    expect(ImageEditParamsSchema.safeParse({ prompt: "p" }).success).toBe(false);
  });

  it("describes the bare result", () => {
    const result = {
      images: [{ url: "https://r2/p.png", mimeType: "image/png", width: 1024, height: 1024 }],
      model: "dall-e-3",
      quota_used: { images_today: 3, images_quota: 50 },
    };
    expect(ImageResultSchema.parse(result)).toEqual(result);
    expect(ImageResultSchema.safeParse({ images: [{ mimeType: "image/png" }] }).success).toBe(
      false,
    );
  });
});
