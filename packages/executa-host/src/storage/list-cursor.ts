// List cursors: the last key (or path) a page returned, base64url-encoded so clients treat it as
// opaque (R45). The next page starts strictly after it, so a cursor whose row was deleted in
// between still works, like a stale APS cursor (R135).
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../services/service-error.js";

const CURSOR_TAG = "k1:";

export function encodeCursor(lastKey: string): string {
  return Buffer.from(CURSOR_TAG + lastKey, "utf8").toString("base64url");
}

/** `undefined` for no cursor; -32028 for a cursor this service did not mint. */
export function decodeCursor(cursor: unknown, method: string): string | undefined {
  if (cursor === undefined || cursor === null || cursor === "") return undefined;
  if (typeof cursor === "string" && /^[A-Za-z0-9_-]+$/.test(cursor)) {
    const text = Buffer.from(cursor, "base64url").toString("utf8");
    if (text.startsWith(CURSOR_TAG)) return text.slice(CURSOR_TAG.length);
  }
  throw catalogError(
    STORAGE_ERRORS.INVALID_REQUEST,
    `${method}: 'cursor' is not a cursor this host returned; pass next_cursor from the previous page or omit it`,
  );
}
