// Canonical JSON for KV values: object keys sorted by code point, no whitespace, UTF-8. The
// size cap and the etag are computed on this form, so the same value always has the same etag
// and size whatever key order or spacing the plugin sent (R43: `sha256(payload)[:32]`).
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON form; NaN/Infinity would silently become null.
    if (text === undefined || (typeof value === "number" && !Number.isFinite(value))) {
      throw new TypeError(`not a JSON value: ${String(value)}`);
    }
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => compareCodePoints(a, b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** 32 hex characters of the SHA-256 of the canonical payload (R43, T23). */
export function payloadEtag(payload: string): string {
  return createHash("sha256").update(payload, "utf8").digest("hex").slice(0, 32);
}

/**
 * Code-point order, which is also UTF-8 byte order (R45: "byte-wise"). UTF-16 code units
 * disagree only when a surrogate (an astral character) meets a BMP character ≥ U+E000.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
