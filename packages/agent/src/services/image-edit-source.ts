// Where `image/edit` gets the picture to edit (and its mask): the caller passes URLs, the provider
// wants bytes. URLs this server minted (its blob store's signed URLs) are read back from it as
// they are; any other URL must be a public HTTPS one and is fetched through the SSRF guard, with
// a byte cap and a deadline. A URL that cannot be read is -32314 naming the field.
import { IMAGE_ERRORS } from "@anna-ai/app-schema/errors";
import {
  SsrfPolicy,
  WebItemError,
  catalogError,
  checkFetchableUrl,
  guardedFetch,
} from "@anna-ai/executa-host";
import type { ImageInput } from "../gateway/types.js";

/** OpenAI's edit endpoint takes images up to 25 MB; one more is not worth reading. */
export const IMAGE_EDIT_INPUT_MAX_BYTES = 25 * 1024 * 1024;
export const IMAGE_EDIT_FETCH_TIMEOUT_MS = 30_000;
/** What the providers' edit endpoints accept. */
export const IMAGE_EDIT_MEDIA_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/webp"];

export type ImageEditField = "image_url" | "mask_url";

/** Reads one input image of `image/edit`; rejects with the family's wire errors. */
export type ImageEditSource = (
  url: string,
  field: ImageEditField,
  signal: AbortSignal,
) => Promise<ImageInput>;

export interface ImageEditSourceOptions {
  /** Origins this server's own image URLs start with; fetched directly, loopback included. */
  trustedOrigins?: () => readonly string[];
  /** Test-only: lets the guarded fetch reach 127.0.0.1. */
  allowLoopback?: boolean;
}

export function imageEditSource(options: ImageEditSourceOptions = {}): ImageEditSource {
  const policy = new SsrfPolicy({ allowLoopback: options.allowLoopback === true });
  return async (url, field, signal) => {
    const trusted = options.trustedOrigins?.() ?? [];
    checkFetchableUrl(url, field, "image/edit", trusted);
    const own = trusted.includes(safeOrigin(url));
    let bytes: Buffer;
    let mediaType: string;
    try {
      if (own) {
        ({ bytes, mediaType } = await fetchOwn(url, signal));
      } else {
        const got = await guardedFetch(url, {
          policy,
          timeoutMs: IMAGE_EDIT_FETCH_TIMEOUT_MS,
          maxBytes: IMAGE_EDIT_INPUT_MAX_BYTES,
          accept: IMAGE_EDIT_MEDIA_TYPES.join(", "),
          signal,
        });
        bytes = got.body;
        mediaType = got.mediaType;
      }
    } catch (error) {
      const reason = error instanceof WebItemError ? error.code : "FETCH_FAILED";
      throw catalogError(
        IMAGE_ERRORS.REFERENCE_FETCH_FAILED,
        `image/edit: '${field}' could not be read (${(error as Error).message}); pass a public HTTPS image URL or one this server returned`,
        { field, reason },
      );
    }
    if (!IMAGE_EDIT_MEDIA_TYPES.includes(mediaType)) {
      throw catalogError(
        IMAGE_ERRORS.INVALID_REQUEST,
        `image/edit: '${field}' is ${mediaType || "of no declared type"}; edits take ${IMAGE_EDIT_MEDIA_TYPES.join(", ")}`,
        { field, allowed: [...IMAGE_EDIT_MEDIA_TYPES] },
      );
    }
    return { bytes: new Uint8Array(bytes), mediaType };
  };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

/** This server's own signed URL: no SSRF question, the same cap and deadline. */
async function fetchOwn(url: string, signal: AbortSignal) {
  const res = await fetch(url, {
    signal: AbortSignal.any([signal, AbortSignal.timeout(IMAGE_EDIT_FETCH_TIMEOUT_MS)]),
    redirect: "error",
  });
  if (!res.ok) throw new Error(`${url.split("?")[0] ?? url} answered HTTP ${res.status}`);
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > IMAGE_EDIT_INPUT_MAX_BYTES || res.body === null) {
    await res.body?.cancel();
    throw new Error(`the image is over ${IMAGE_EDIT_INPUT_MAX_BYTES} bytes`);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > IMAGE_EDIT_INPUT_MAX_BYTES) {
      throw new Error(`the image is over ${IMAGE_EDIT_INPUT_MAX_BYTES} bytes`);
    }
    parts.push(chunk);
  }
  const mediaType = (res.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  return { bytes: Buffer.concat(parts), mediaType: mediaType ?? "" };
}
