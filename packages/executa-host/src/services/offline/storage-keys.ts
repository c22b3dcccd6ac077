// Key and prefix rules for `storage/*` (`validate_kv_key`, R43/R131; prefix rules R45). Length
// problems (empty, over 1024, not a string) are INVALID_REQUEST (-32028, R43); an illegal shape
// is INVALID_PATH (-32027, R131). Segment rules are shared with `files/*` paths (R46).
import { STORAGE_KEY_MAX_CHARS } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../service-error.js";
import { KV_KEY_SEGMENT_MAX_CHARS } from "./storage-limits.js";

/** ASCII controls, backslash, zero-width characters and BiDi controls (R46, R131). */
const FORBIDDEN_CHARS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f\\\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069\u061c]/u;

const LONE_SURROGATE = /\p{Cs}/u;

/** Python's `len`: code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Why a `/`-segment is illegal, or undefined. Empty segments are the caller's call. */
export function segmentProblem(segment: string): string | undefined {
  if (segment === "." || segment === "..") return `'.' and '..' segments are not allowed`;
  // A lone surrogate has no UTF-8 form: the server could not store the key.
  if (LONE_SURROGATE.test(segment)) return "keys must be well-formed Unicode (a lone surrogate)";
  if (FORBIDDEN_CHARS.test(segment)) {
    return "control characters, backslashes, zero-width and BiDi characters are not allowed";
  }
  if (segment !== segment.trim()) return "segments may not start or end with whitespace";
  return undefined;
}

function keyShapeProblem(key: string, allowTrailingSlash: boolean): string | undefined {
  if (key.startsWith("/")) return "must be relative (no leading '/')";
  const segments = key.split("/");
  if (allowTrailingSlash && segments.length > 1 && segments[segments.length - 1] === "") {
    segments.pop();
  }
  for (const segment of segments) {
    if (segment === "") return "empty segments ('//' or a trailing '/') are not allowed";
    const problem = segmentProblem(segment);
    if (problem !== undefined) return problem;
    if (codePointLength(segment) > KV_KEY_SEGMENT_MAX_CHARS) {
      return `a segment is longer than ${KV_KEY_SEGMENT_MAX_CHARS} characters`;
    }
  }
  return undefined;
}

/** Validates a KV key; throws the catalogued error. */
export function checkKvKey(key: unknown, method: string): string {
  if (typeof key !== "string" || key === "") {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'key' is required (a non-empty string)`,
    );
  }
  const length = codePointLength(key);
  if (length > STORAGE_KEY_MAX_CHARS) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'key' has ${length} characters; at most ${STORAGE_KEY_MAX_CHARS}`,
    );
  }
  const problem = keyShapeProblem(key, false);
  if (problem !== undefined) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: key ${JSON.stringify(key)}: ${problem}`,
    );
  }
  return key;
}

/** Validates a `storage/list` prefix (R45): key rules, a trailing '/' allowed, '' = all. */
export function checkKvPrefix(prefix: unknown, method: string): string {
  if (prefix === undefined || prefix === null || prefix === "") return "";
  if (typeof prefix !== "string") {
    throw catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'prefix' must be a string`);
  }
  if (codePointLength(prefix) > STORAGE_KEY_MAX_CHARS) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: 'prefix' is longer than ${STORAGE_KEY_MAX_CHARS} characters`,
    );
  }
  const problem = keyShapeProblem(prefix, true);
  if (problem !== undefined) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: prefix ${JSON.stringify(prefix)}: ${problem}`,
    );
  }
  return prefix;
}
