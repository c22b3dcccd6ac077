// The catalogue's keyset cursor: the last row's sort key, bound to the query it came from, as
// opaque base64url text. A cursor carries positions, not offsets, so apps published between two
// page requests never shift a page or repeat a row; a cursor sent with another query is refused
// rather than silently walking the wrong list.
import { createHash } from "node:crypto";
import { NexusError } from "../core/errors.js";

/** `[rank, install_count, id]` of the last row of a page (rank 0 without a search). */
export type CursorKey = readonly [number, number, number];

const VERSION = 1;
/** A cursor is a short JSON object; anything longer was not made here. */
const MAX_CURSOR_CHARS = 200;

export function queryFingerprint(parts: readonly (string | undefined)[]): string {
  return createHash("sha256")
    .update(JSON.stringify(parts.map((p) => p ?? null)))
    .digest("base64url")
    .slice(0, 16);
}

export function encodeCursor(key: CursorKey, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ v: VERSION, k: key, q: fingerprint })).toString("base64url");
}

export function decodeCursor(text: string, fingerprint: string): CursorKey {
  const bad = (why: string) =>
    new NexusError(
      "validation_failed",
      `cursor: ${why}; pass the next_cursor of the previous page unchanged, with the same q and category`,
    );
  if (text.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) throw bad("malformed");
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw bad("malformed");
  }
  const c = value as { v?: unknown; k?: unknown; q?: unknown };
  const key = c.k;
  if (
    c.v !== VERSION ||
    !Array.isArray(key) ||
    key.length !== 3 ||
    !key.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)
  ) {
    throw bad("malformed");
  }
  if (c.q !== fingerprint) throw bad("it belongs to another search");
  return key as unknown as CursorKey;
}
