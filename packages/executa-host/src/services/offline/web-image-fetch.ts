// `web.image_fetch` offline: one guarded GET, the bytes checked to be an image by their magic
// bytes (not the server's Content-Type, R156), then stored in the files service under a
// content-hash path and answered with a download URL valid WEB_IMAGE_GET_URL_TTL_S.
import { createHash } from "node:crypto";
import type {
  FilesUploadBeginResult,
  WebImageFetchParams,
  WebImageFetchResult,
} from "@anna-ai/app-schema";
import { WEB_ERRORS } from "@anna-ai/app-schema/errors";
import type { FilesService } from "../files-service.js";
import { catalogError } from "../service-error.js";
import type { WebServiceContext } from "../web-service.js";
import { checkCount, invalid, requireGrant } from "./web-checks.js";
import { guardedFetch, WebItemError } from "./web-fetcher.js";
import { sniffImage } from "./web-image-sniff.js";
import {
  WEB_IMAGE_FETCH_DEFAULT_MAX_BYTES,
  WEB_IMAGE_FETCH_MAX_BYTES,
  WEB_IMAGE_FETCH_TIMEOUT_MS,
  WEB_IMAGE_GET_URL_TTL_S,
  WEB_URL_MAX_CHARS,
} from "./web-limits.js";
import type { SsrfPolicy } from "./web-ssrf.js";

/** `files` is where the image is stored (APS files); without one `image_fetch` fails. */
export async function webImageFetch(
  params: WebImageFetchParams,
  ctx: WebServiceContext,
  policy: SsrfPolicy,
  files: FilesService | undefined,
): Promise<WebImageFetchResult> {
  requireGrant(ctx.grant, "allowImageFetch", "web/image_fetch");
  const maxBytes = checkCount(
    params.max_bytes,
    WEB_IMAGE_FETCH_DEFAULT_MAX_BYTES,
    WEB_IMAGE_FETCH_MAX_BYTES,
    "max_bytes",
  );
  if (typeof params.url !== "string" || params.url.length > WEB_URL_MAX_CHARS) {
    throw invalid(`web/image_fetch: 'url' must be a URL of 1 to ${WEB_URL_MAX_CHARS} chars`);
  }
  if (files === undefined) {
    throw catalogError(
      WEB_ERRORS.PROVIDER_ERROR,
      "web/image_fetch: this host has no files service to store the image in",
      { reason: "NO_FILES_SERVICE" },
    );
  }
  let fetched;
  try {
    fetched = await guardedFetch(params.url, {
      policy,
      timeoutMs: WEB_IMAGE_FETCH_TIMEOUT_MS,
      maxBytes,
      accept: "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1",
      signal: ctx.signal,
    });
  } catch (error) {
    throw imageFetchError(error, maxBytes);
  }
  const image = sniffImage(fetched.body);
  if (image === undefined) {
    throw invalid(
      `web/image_fetch: ${fetched.finalUrl} is not a JPEG, PNG, WebP or GIF image (checked by its bytes; the server said ${fetched.mediaType || "nothing"})`,
      { reason: "UNSUPPORTED_MEDIA_TYPE", final_url: fetched.finalUrl },
    );
  }
  const sha256 = createHash("sha256").update(fetched.body).digest("hex");
  const path = `web/images/${sha256.slice(0, 32)}.${image.extension}`;
  const scope = ctx.app === undefined ? "tool" : "app";
  const filesCtx = { ...ctx, grant: {} };
  const begun: FilesUploadBeginResult = await files.uploadBegin(
    { path, scope, size_bytes: fetched.body.length, content_type: image.mimeType },
    filesCtx,
  );
  const put = await fetch(begun.put_url, {
    method: "PUT",
    // The presigned headers carry the content type the upload was begun with.
    headers: begun.headers,
    body: fetched.body,
    // A cancelled call stops the store too, instead of leaving the upload running.
    signal: ctx.signal,
  });
  if (!put.ok) {
    throw catalogError(
      WEB_ERRORS.PROVIDER_ERROR,
      `web/image_fetch: storing the image failed (HTTP ${put.status} from the files store)`,
    );
  }
  await files.uploadComplete({ path, scope, size_bytes: fetched.body.length }, filesCtx);
  const got = await files.downloadUrl(
    { path, scope, ttl_seconds: WEB_IMAGE_GET_URL_TTL_S },
    filesCtx,
  );
  return {
    path,
    get_url: got.get_url,
    mime_type: image.mimeType,
    bytes_size: fetched.body.length,
    sha256,
    source_url: params.url,
    final_url: fetched.finalUrl,
    quota_consumed: 0,
  };
}

/** One image, one answer: the item codes of `fetch` become the call's error. */
function imageFetchError(error: unknown, maxBytes: number) {
  if (!(error instanceof WebItemError)) return error;
  const data = {
    reason: error.code,
    ...(error.finalUrl === undefined ? {} : { final_url: error.finalUrl }),
  };
  switch (error.code) {
    case "INVALID_URL":
    case "SSRF_BLOCKED":
      return catalogError(WEB_ERRORS.INVALID_REQUEST, `web/image_fetch: ${error.message}`, data);
    case "TOO_LARGE":
      return catalogError(
        WEB_ERRORS.INVALID_REQUEST,
        `web/image_fetch: ${error.message}; raise max_bytes (≤ ${WEB_IMAGE_FETCH_MAX_BYTES}) or pick a smaller image`,
        { ...data, max_bytes: maxBytes },
      );
    case "TIMEOUT":
      return catalogError(WEB_ERRORS.TIMEOUT, `web/image_fetch: ${error.message}`, data);
    default:
      return catalogError(WEB_ERRORS.PROVIDER_ERROR, `web/image_fetch: ${error.message}`, data);
  }
}
