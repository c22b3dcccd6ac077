// Parameter checks of `image/generate` and `image/edit` as the Agent's `_validate_generate` and
// `parse_image_options` make them (R58, R59): -32104 for a bad value, -32314 for an image URL
// `validate_image_url` would refuse. The router already applies the `n` caps and budgets (R57);
// only the host cap is repeated here for callers that do not go through it.
import { IMAGE_HOST_MAX_N, IMAGE_MAX_REFERENCE_URLS } from "@anna-ai/app-schema";
import { IMAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { isIP } from "node:net";
import { catalogError } from "../service-error.js";

/** REST default size (R58). */
export const IMAGE_DEFAULT_SIZE = "1024x1024";
/** Sides a `WxH` size may have; providers top out at 4096 (4K). */
export const IMAGE_MIN_SIDE_PX = 64;
export const IMAGE_MAX_SIDE_PX = 4096;
export const IMAGE_QUALITIES: readonly string[] = ["low", "medium", "high"];
export const IMAGE_RESOLUTIONS: readonly string[] = ["0.5K", "1K", "2K", "4K"];
export const IMAGE_OUTPUT_FORMATS: readonly string[] = ["png", "jpeg", "webp"];
export const IMAGE_THINKING_LEVELS: readonly string[] = ["minimal", "high"];

type Params = Record<string, unknown>;

export interface CheckedImageParams {
  prompt: string;
  n: number;
  width: number;
  height: number;
  size: string;
  outputFormat: string;
}

function invalid(method: string, message: string, data?: Record<string, unknown>): never {
  throw catalogError(IMAGE_ERRORS.INVALID_REQUEST, `${method}: ${message}`, data);
}

function checkEnum(params: Params, key: string, allowed: readonly string[], method: string): void {
  const value = params[key];
  if (value === undefined || value === null) return;
  if (typeof value !== "string" || !allowed.includes(value)) {
    invalid(method, `'${key}' must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`, {
      field: key,
      allowed: [...allowed],
    });
  }
}

/** What both methods share: prompt, n, size and the option enums. */
export function checkImageParams(params: Params, method: string): CheckedImageParams {
  const prompt = params["prompt"];
  if (typeof prompt !== "string" || prompt.trim() === "") {
    invalid(method, "'prompt' must be a non-empty string", { field: "prompt" });
  }
  const n = params["n"] ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
    invalid(method, `'n' must be an integer ≥ 1, got ${JSON.stringify(n)}`, { field: "n" });
  }
  if (n > IMAGE_HOST_MAX_N) {
    throw catalogError(
      IMAGE_ERRORS.MAX_IMAGES_EXCEEDED,
      `${method}: n=${n} is over the host limit of ${IMAGE_HOST_MAX_N} images per call`,
      { hostCap: IMAGE_HOST_MAX_N },
    );
  }
  const size = params["size"] ?? IMAGE_DEFAULT_SIZE;
  const match = typeof size === "string" ? /^(\d{1,5})x(\d{1,5})$/.exec(size) : null;
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (
    match === null ||
    [width, height].some((side) => side < IMAGE_MIN_SIDE_PX || side > IMAGE_MAX_SIDE_PX)
  ) {
    invalid(
      method,
      `'size' must be "WxH" with sides from ${IMAGE_MIN_SIDE_PX} to ${IMAGE_MAX_SIDE_PX} (e.g. "1024x1024"), got ${JSON.stringify(size)}`,
      { field: "size" },
    );
  }
  checkEnum(params, "quality", IMAGE_QUALITIES, method);
  checkEnum(params, "resolution", IMAGE_RESOLUTIONS, method);
  checkEnum(params, "output_format", IMAGE_OUTPUT_FORMATS, method);
  checkEnum(params, "thinking_level", IMAGE_THINKING_LEVELS, method);
  const webSearch = params["enable_web_search"];
  if (webSearch !== undefined && webSearch !== null && typeof webSearch !== "boolean") {
    invalid(method, "'enable_web_search' must be a boolean", { field: "enable_web_search" });
  }
  const format = params["output_format"];
  return {
    prompt,
    n,
    width,
    height,
    size: `${width}x${height}`,
    outputFormat: typeof format === "string" ? format : "png",
  };
}

/** `reference_image_urls`: at most 4 strings (-32104), each one fetchable (-32314). */
export function checkReferenceUrls(
  params: Params,
  method: string,
  trustedOrigins: readonly string[],
): string[] {
  const urls = params["reference_image_urls"];
  if (urls === undefined || urls === null) return [];
  if (!Array.isArray(urls) || urls.some((u) => typeof u !== "string")) {
    invalid(method, "'reference_image_urls' must be a list of URL strings", {
      field: "reference_image_urls",
    });
  }
  if (urls.length > IMAGE_MAX_REFERENCE_URLS) {
    invalid(
      method,
      `'reference_image_urls' has ${urls.length} entries; at most ${IMAGE_MAX_REFERENCE_URLS}`,
      { field: "reference_image_urls", max: IMAGE_MAX_REFERENCE_URLS },
    );
  }
  urls.forEach((url: string, index) =>
    checkFetchableUrl(url, `reference_image_urls[${index}]`, method, trustedOrigins),
  );
  return urls as string[];
}

/**
 * `validate_image_url` (R58, R59): HTTPS to a public host. URLs this host minted (the loopback
 * blob server's origin) pass too, so a generated image can be edited or used as a reference
 * offline the way an R2 URL is in production.
 */
export function checkFetchableUrl(
  url: string,
  field: string,
  method: string,
  trustedOrigins: readonly string[],
): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(url, field, method, "not a URL");
  }
  if (trustedOrigins.includes(parsed.origin)) return;
  if (parsed.protocol !== "https:") return refuse(url, field, method, "not HTTPS");
  if (parsed.username !== "" || parsed.password !== "") {
    return refuse(url, field, method, "credentials in the URL");
  }
  if (isInternalHost(parsed.hostname)) {
    return refuse(url, field, method, "internal or private host");
  }
}

function refuse(url: string, field: string, method: string, reason: string): never {
  throw catalogError(
    IMAGE_ERRORS.REFERENCE_FETCH_FAILED,
    `${method}: '${field}' cannot be fetched (${reason}); pass a public HTTPS image URL`,
    { field, reason, url: url.length > 200 ? `${url.slice(0, 200)}…` : url },
  );
}

function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(host) !== 0) return isPrivateIp(host);
  // Single-label names only resolve inside a network.
  return (
    host === "localhost" ||
    !host.includes(".") ||
    [".localhost", ".local", ".internal"].some((suffix) => host.endsWith(suffix))
  );
}

function isPrivateIp(ip: string): boolean {
  if (isIP(ip) === 6) {
    return (
      ip === "::" ||
      ip === "::1" ||
      /^f[cd]/.test(ip) ||
      /^fe[89ab]/.test(ip) ||
      ip.startsWith("::ffff:")
    );
  }
  const [a = 0, b = 0] = ip.split(".").map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    a >= 224
  );
}
