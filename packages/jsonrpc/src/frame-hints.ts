// Recovers `id` and `method` from the edges of a frame we refused to keep (H2): the decoder keeps
// only the first and last few KiB of an oversized line, and the peer needs the id to fail the
// right request instead of letting it hang until its timeout.

import type { JsonRpcId } from "./types.js";

export interface FrameHints {
  idHint?: JsonRpcId;
  methodHint?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Trailing `"id": <value> }` — serialisers that put `id` last (e.g. after a huge result). */
const TRAILING_ID = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*\}\s*$/;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipWhitespace(s: string, i: number): number {
  while (i < s.length && isWhitespace(s.charCodeAt(i))) i++;
  return i;
}

/** Index of the quote closing the string that opens at `start`, or -1 if the head ends first. */
function stringEnd(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

function parseScalar(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads a string or number value at `start`; undefined when it is anything else or truncated. */
function readScalar(s: string, start: number): { value: unknown; end: number } | undefined {
  const c = s.charCodeAt(start);
  if (c === QUOTE) {
    const end = stringEnd(s, start);
    if (end < 0) return undefined;
    return { value: parseScalar(s.slice(start, end + 1)), end: end + 1 };
  }
  let end = start;
  while (end < s.length && /[-+.\deE]/.test(s.charAt(end))) end++;
  // A number running into the end of the head may be cut short: do not guess.
  if (end === start || end === s.length) return undefined;
  return { value: parseScalar(s.slice(start, end)), end };
}

/** Scans the top-level keys of a (possibly truncated) JSON object for `id` and `method`. */
function scanHead(s: string, hints: FrameHints): void {
  let depth = 0;
  let expectKey = false;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(s, i);
      if (end < 0) return;
      if (depth !== 1 || !expectKey) {
        i = end + 1;
        continue;
      }
      const key = s.slice(i + 1, end);
      let k = skipWhitespace(s, end + 1);
      if (s.charCodeAt(k) !== COLON) return;
      k = skipWhitespace(s, k + 1);
      expectKey = false;
      i = k;
      if (key !== "id" && key !== "method") continue;
      const scalar = readScalar(s, k);
      if (scalar === undefined) continue;
      i = scalar.end;
      if (key === "id" && (typeof scalar.value === "string" || typeof scalar.value === "number")) {
        hints.idHint = scalar.value;
      } else if (key === "method" && typeof scalar.value === "string") {
        hints.methodHint = scalar.value;
      }
      if (hints.idHint !== undefined && hints.methodHint !== undefined) return;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      expectKey = depth === 1 && c === OPEN_BRACE;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && depth === 1) {
      expectKey = true;
    }
    i++;
  }
}

/**
 * Best-effort `id`/`method` of a frame from its first and (optionally) last few KiB. Only
 * top-level keys count, so an `"id"` nested inside params or a result is never mistaken for the
 * frame's id.
 */
export function recoverFrameHints(head: string, tail?: string): FrameHints {
  const hints: FrameHints = {};
  scanHead(head, hints);
  if (hints.idHint === undefined && tail !== undefined) {
    const match = TRAILING_ID.exec(tail);
    if (match?.[1] !== undefined) {
      const value = parseScalar(match[1]);
      if (typeof value === "string" || typeof value === "number") hints.idHint = value;
    }
  }
  return hints;
}
