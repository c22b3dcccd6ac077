// The offline image service behind `executa dev --no-image | --mock-image` (T27, R56–R60).
// `off` (the default) answers -32101 image_not_granted (R167). `mock` validates like the Agent,
// keeps the user's rolling 24 h image count (-32102, the one quota the router does not own),
// answers from the first matching fixture line, and otherwise draws deterministic solid-colour
// PNGs: served by the loopback blob server when there is one, else as `data:` URLs.
import { IMAGE_URL_TTL_S } from "@anna-ai/app-schema";
import type { ImageResult } from "@anna-ai/app-schema";
import { IMAGE_ERRORS } from "@anna-ai/app-schema/errors";
import type { ImageGrant } from "../grants.js";
import type { ImageService } from "../image-service.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import { hashHex } from "./agent-ids.js";
import { fixtureError, fixtureResult } from "./agent-mock-answer.js";
import type { LoopbackBlobServer } from "./blob-server.js";
import { solidPng, syntheticImageSize } from "./image-png.js";
import { checkFetchableUrl, checkImageParams, checkReferenceUrls } from "./image-validate.js";
import type { MockFixture } from "./mock-fixture.js";

/** `model` of synthetic results. */
export const IMAGE_MOCK_MODEL = "mock-image";
/** `max_images_per_day` when the grant sets none (the spec's example answers `images_quota: 50`). */
export const IMAGE_DEFAULT_DAILY_QUOTA = 50;
/** The daily counter is a rolling window (T27). */
export const IMAGE_DAILY_WINDOW_MS = 24 * 3600 * 1000;

/** What the image service needs from the blob server. */
export type ImageBlobStore = Pick<LoopbackBlobServer, "put" | "presignGet" | "origin">;

export interface OfflineImageOptions {
  mode: "off" | "mock";
  /** Mock-answer file (`ns:"image"` lines); calls no line answers get synthetic images. */
  fixture?: MockFixture;
  /** Serves synthetic images over HTTP; must be started. Without one URLs are `data:` URLs. */
  blobServer?: ImageBlobStore;
  /** Epoch ms for URL expiry and the daily window. Default `Date.now`. */
  clock?: () => number;
}

/** Synthetic results say what was drawn instead of what was asked. */
export type OfflineImageResult = ImageResult & {
  _meta: { synthetic: true; requested_size: string; output_format: "png" };
};

type Ctx = ServiceContext<ImageGrant>;
type Params = Record<string, unknown>;

export function createOfflineImageService(options: OfflineImageOptions): ImageService {
  if (options.mode === "off") return disabledImageService();
  const clock = options.clock ?? Date.now;
  const fixture = options.fixture;
  const blobs = options.blobServer;
  /** user → images made, with when (the window is per user, across executas, T27). */
  const daily = new Map<string, { atMs: number; count: number }[]>();

  function trustedOrigins(): string[] {
    if (blobs === undefined) return [];
    try {
      return [blobs.origin];
    } catch {
      return [];
    }
  }

  function usedToday(userId: string, now: number): number {
    const events = (daily.get(userId) ?? []).filter((e) => now - e.atMs < IMAGE_DAILY_WINDOW_MS);
    daily.set(userId, events);
    return events.reduce((sum, e) => sum + e.count, 0);
  }

  async function run(method: "image/generate" | "image/edit", params: Params, ctx: Ctx) {
    const checked = checkImageParams(params, method);
    const origins = trustedOrigins();
    let imageUrl = "";
    if (method === "image/generate") {
      checkReferenceUrls(params, method, origins);
    } else {
      const url = params["image_url"];
      if (typeof url !== "string" || url.trim() === "") {
        throw catalogError(IMAGE_ERRORS.INVALID_REQUEST, `${method}: 'image_url' is required`, {
          field: "image_url",
        });
      }
      checkFetchableUrl(url, "image_url", method, origins);
      imageUrl = url;
      const mask = params["mask_url"];
      if (typeof mask === "string" && mask !== "") {
        checkFetchableUrl(mask, "mask_url", method, origins);
      }
    }

    const now = clock();
    const quota = ctx.grant.maxImagesPerDay ?? IMAGE_DEFAULT_DAILY_QUOTA;
    const before = usedToday(ctx.userId, now);
    if (before + checked.n > quota) {
      throw catalogError(
        IMAGE_ERRORS.QUOTA_EXCEEDED,
        `${method}: daily image quota reached: ${before} of ${quota} images in the last 24 h and n=${checked.n}`,
        { images_today: before, images_quota: quota },
      );
    }

    // Reserve before awaiting anything, so concurrent calls cannot overshoot the quota together.
    const reservation = { atMs: now, count: checked.n };
    daily.set(ctx.userId, [...(daily.get(ctx.userId) ?? []), reservation]);
    try {
      const entry = fixture?.find(method, params);
      if (entry?.error !== undefined) throw fixtureError(entry, "image");
      let result: ImageResult;
      if (entry?.result !== undefined) {
        result = fixtureResult(entry) as ImageResult;
      } else {
        const mask = params["mask_url"];
        if (method === "image/edit" && typeof mask === "string" && mask !== "") {
          // No synthetic model can do masks; a fixture line can play one that does.
          throw catalogError(
            IMAGE_ERRORS.MASK_UNSUPPORTED,
            `${method}: no available model supports mask editing (mock images); drop mask_url or answer this call from the --mock-image fixture`,
          );
        }
        result = await synthetic(method, checked, imageUrl, ctx, before, quota);
      }
      // A fixture may answer with another number of images than asked: count what was made.
      if (Array.isArray(result.images)) reservation.count = result.images.length;
      return result;
    } catch (error) {
      reservation.count = 0;
      throw error;
    }
  }

  async function synthetic(
    method: string,
    checked: ReturnType<typeof checkImageParams>,
    imageUrl: string,
    ctx: Ctx,
    before: number,
    quota: number,
  ): Promise<OfflineImageResult> {
    const drawn = syntheticImageSize(checked.width, checked.height);
    const images: ImageResult["images"] = [];
    for (let index = 0; index < checked.n; index++) {
      const digest = hashHex([method, checked.prompt, checked.size, imageUrl, index]);
      const png = solidPng(drawn.width, drawn.height, {
        r: parseInt(digest.slice(0, 2), 16),
        g: parseInt(digest.slice(2, 4), 16),
        b: parseInt(digest.slice(4, 6), 16),
      });
      const url =
        blobs === undefined
          ? `data:image/png;base64,${png.toString("base64")}`
          : await serve(blobs, imageKey(ctx, digest, index), png, index);
      images.push({ url, mimeType: "image/png", width: drawn.width, height: drawn.height });
    }
    return {
      images,
      model: IMAGE_MOCK_MODEL,
      quota_used: { images_today: before + images.length, images_quota: quota },
      _meta: { synthetic: true, requested_size: checked.size, output_format: "png" },
    };
  }

  return {
    generate: (params, ctx) => run("image/generate", params, ctx),
    edit: (params, ctx) => run("image/edit", params, ctx),
  };
}

async function serve(blobs: ImageBlobStore, key: string, png: Buffer, index: number) {
  try {
    await blobs.put(key, png, { contentType: "image/png" });
    const signed = await blobs.presignGet(key, {
      ttlSeconds: IMAGE_URL_TTL_S,
      filename: `image-${index + 1}.png`,
    });
    return signed.url;
  } catch (error) {
    throw catalogError(
      IMAGE_ERRORS.STORAGE_ERROR,
      `could not store the generated image: ${error instanceof Error ? error.message : String(error)}`,
      undefined,
      { cause: error },
    );
  }
}

/** Scoped like upload keys; the digest makes the same picture land on the same key. */
function imageKey(ctx: Ctx, digest: string, index: number): string {
  const segment = (value: string) => encodeURIComponent(value).slice(0, 128) || "_";
  return [
    "exec-images",
    "dev",
    segment(ctx.userId),
    segment(ctx.toolId),
    segment(ctx.invokeId),
    `${digest}_${index + 1}.png`,
  ].join("/");
}

/** `--no-image` (the default): every call is -32101 `image_not_granted` (R167). */
function disabledImageService(): ImageService {
  const refuse = (method: string) => () =>
    Promise.reject(
      catalogError(
        IMAGE_ERRORS.NOT_GRANTED,
        `${method} is disabled on this host (image off); start executa dev with --mock-image <fixture.jsonl> to serve it`,
        { reason: "DISABLED" },
      ),
    );
  return { generate: refuse("image/generate"), edit: refuse("image/edit") };
}
