import { HostApiError } from "../errors/host-api-error.js";

/** `validate_kv_key` (R131). */
export const KV_KEY_MAX_CHARS = 1024;
export const KV_SEGMENT_MAX_CHARS = 128;

// Control characters, backslash, zero-width and bidi marks.
/* eslint-disable no-control-regex -- rejecting control characters is the point */
const FORBIDDEN =
  /[\u0000-\u001f\u007f\\\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
/* eslint-enable no-control-regex */

function segmentProblem(segment: string): string | undefined {
  if (segment === "" || segment === "." || segment === "..") return "empty, '.' or '..' segment";
  if (segment.length > KV_SEGMENT_MAX_CHARS) return `a segment over ${KV_SEGMENT_MAX_CHARS} chars`;
  if (segment.trim() !== segment) return "a segment with leading or trailing whitespace";
  return undefined;
}

/** Missing/empty/non-string → `invalid_arg`; a bad shape → `invalid_path`. */
export function checkKvKey(key: unknown, label = "key"): string {
  if (typeof key !== "string" || key === "") {
    throw new HostApiError("invalid_arg", `${label} required`, { field: label });
  }
  const problem =
    key.length > KV_KEY_MAX_CHARS
      ? `longer than ${KV_KEY_MAX_CHARS} chars`
      : key.startsWith("/")
        ? "a leading '/'"
        : FORBIDDEN.test(key)
          ? "a control, backslash, zero-width or bidi character"
          : key
              .split("/")
              .map(segmentProblem)
              .find((p) => p !== undefined);
  if (problem !== undefined) {
    throw new HostApiError("invalid_path", `${label} ${JSON.stringify(key)} has ${problem}`, {
      field: label,
    });
  }
  return key;
}

/** A list prefix: plain startswith, may end with `/`; otherwise the key rules. */
export function checkKvPrefix(prefix: unknown): string {
  if (prefix === undefined || prefix === null || prefix === "") return "";
  if (typeof prefix !== "string") throw new HostApiError("invalid_arg", "prefix must be a string");
  checkKvKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix, "prefix");
  return prefix;
}
