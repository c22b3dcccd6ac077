// The one home of the `storage.*` key rules (and the `files.*` path rules built on them): what
// the platform's `validate_kv_key` accepts. The app dispatcher (app-core) and the plugin host's
// offline services (executa-host) both ask here, and each turns a problem into its own family's
// error (a Host API code, a catalogued JSON-RPC error). Lengths count code points, as the
// server's Python `len` does: an emoji is one character, not two UTF-16 units.
import { codePointLength } from "./app/text.js";
import { STORAGE_KEY_MAX_CHARS } from "./executa/storage.js";

export { STORAGE_KEY_MAX_CHARS };
/** Longest `/`-segment, in code points. */
export const STORAGE_KEY_SEGMENT_MAX_CHARS = 128;

/**
 * The characters a key may not hold: ASCII controls and DEL, backslash, zero-width characters
 * (U+200B–U+200D, U+2060–U+2064, U+FEFF) and BiDi controls (U+200E, U+200F, U+061C,
 * U+202A–U+202E, U+2066–U+2069).
 */
const FORBIDDEN_CHARS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f\\\u200b-\u200f\u2060-\u2064\ufeff\u061c\u202a-\u202e\u2066-\u2069]/u;

/** A lone surrogate has no UTF-8 form: the server could not store the key. */
const LONE_SURROGATE = /\p{Cs}/u;

export interface StorageKeyProblem {
  /** `too_long`: over STORAGE_KEY_MAX_CHARS in total; `shape`: any other rule. */
  kind: "too_long" | "shape";
  message: string;
}

/**
 * Why one `/`-segment is illegal, or undefined. Empty segments are the caller's call, and so is
 * the segment length: `files/*` paths (`validate_path`) have no per-segment limit.
 */
export function storageSegmentProblem(segment: string): string | undefined {
  if (segment === "." || segment === "..") return "'.' and '..' segments are not allowed";
  if (LONE_SURROGATE.test(segment)) return "keys must be well-formed Unicode (a lone surrogate)";
  if (FORBIDDEN_CHARS.test(segment)) {
    return "control characters, backslashes, zero-width and BiDi characters are not allowed";
  }
  if (segment !== segment.trim()) return "segments may not start or end with whitespace";
  return undefined;
}

/**
 * Why a non-empty `key` breaks the key rules, or undefined. `prefix: true` checks a list prefix,
 * which may end with one `/`.
 */
export function storageKeyProblem(
  key: string,
  options: { prefix?: boolean } = {},
): StorageKeyProblem | undefined {
  const length = codePointLength(key);
  if (length > STORAGE_KEY_MAX_CHARS) {
    return {
      kind: "too_long",
      message: `has ${length} characters; at most ${STORAGE_KEY_MAX_CHARS}`,
    };
  }
  const shape = (message: string): StorageKeyProblem => ({ kind: "shape", message });
  if (key.startsWith("/")) return shape("must be relative (no leading '/')");
  const segments = key.split("/");
  if (options.prefix === true && segments.length > 1 && segments.at(-1) === "") segments.pop();
  for (const segment of segments) {
    if (segment === "") return shape("empty segments ('//' or a trailing '/') are not allowed");
    const problem = storageSegmentProblem(segment);
    if (problem !== undefined) return shape(problem);
    if (codePointLength(segment) > STORAGE_KEY_SEGMENT_MAX_CHARS) {
      return shape(`a segment is longer than ${STORAGE_KEY_SEGMENT_MAX_CHARS} characters`);
    }
  }
  return undefined;
}
