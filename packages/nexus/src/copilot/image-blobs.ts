// Where the server keeps the images the gateway makes (`image/generate`, the Host API
// `image.generate`): the server's blob store, under the user and the tool or app that asked, and
// answered as a signed GET URL (T27: a URL, never bytes inline), so images from a plugin and from
// a window land in one place with one lifetime.
import { randomBytes } from "node:crypto";
import type { ImageStore } from "@anna-ai/agent";
import type { BlobStore } from "../blobs/blob-store.js";

/** How long an image URL answers (the caller fetches or re-uploads it well within this). */
export const IMAGE_URL_TTL_S = 3600;
/** One generated image's bytes; a provider answering more is refused, not stored. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;

const EXTENSION: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
};

/** Keys keep to `[A-Za-z0-9._-]`: a tool id or `app:<id>` becomes a safe path segment. */
const segment = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128) || "_";

export function blobImageStore(blobs: BlobStore): ImageStore {
  return async (image, index, ctx) => {
    const bytes = Buffer.from(image.base64, "base64");
    const ext = EXTENSION[image.mediaType] ?? "bin";
    const key = `copilot-images/${segment(ctx.userId)}/${segment(ctx.toolId)}/${randomBytes(12).toString("hex")}-${index}.${ext}`;
    const out = await blobs.put(
      key,
      image.mediaType,
      (async function* () {
        yield new Uint8Array(bytes);
      })(),
      IMAGE_MAX_BYTES,
      bytes.byteLength,
    );
    if (!out.ok) {
      throw new Error(
        `the image provider answered an image of ${bytes.byteLength} bytes; at most ${IMAGE_MAX_BYTES} are kept`,
      );
    }
    return (await blobs.presignGet(key, { ttlSeconds: IMAGE_URL_TTL_S })).url;
  };
}
