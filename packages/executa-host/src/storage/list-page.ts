// Paging of `storage/list` (R45) and `files/list` (R49): keys in code-point order, a page starts
// strictly after the cursor's key, and `next_cursor` is set only when more keys follow. A store
// that pages in SQL applies the same order (`COLLATE "C"` / BLOB order is code-point order for
// UTF-8) and the same limits.
import { STORAGE_LIST_DEFAULT_LIMIT, clampStorageListLimit } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { isIntegerIn } from "../services/integer-range.js";
import { catalogError } from "../services/service-error.js";
import { FILES_LIST_DEFAULT_LIMIT, FILES_LIST_MAX_LIMIT } from "./limits.js";
import { compareCodePoints } from "./canonical-json.js";
import { encodeCursor } from "./list-cursor.js";

/** `storage/list` limit: a number, clamped into range (R45: never an error for a big limit). */
export function readKvListLimit(value: unknown, method: string): number {
  if (value !== undefined && value !== null && typeof value !== "number") {
    throw catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'limit' must be a number`);
  }
  return clampStorageListLimit(value ?? STORAGE_LIST_DEFAULT_LIMIT);
}

/** `files/list` limit: an integer 1..1000, not clamped (R49: -32027 outside it). */
export function readFilesListLimit(value: unknown, method: string): number {
  if (value === undefined || value === null) return FILES_LIST_DEFAULT_LIMIT;
  if (!isIntegerIn(value, 1, FILES_LIST_MAX_LIMIT)) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: 'limit' must be an integer from 1 to ${FILES_LIST_MAX_LIMIT}`,
    );
  }
  return value;
}

/** Whether `key` belongs on a page that lists `prefix` after the cursor key `after`. */
export function listsAfter(key: string, prefix: string, after: string | undefined): boolean {
  return key.startsWith(prefix) && (after === undefined || compareCodePoints(key, after) > 0);
}

/**
 * One page of `keys` (already filtered with listsAfter; sorted here). A store that fetches
 * `limit + 1` rows passes them all: the extra row only says that a next page exists.
 */
export function pageOfKeys(
  keys: readonly string[],
  limit: number,
): { page: string[]; nextCursor: string | null } {
  const sorted = [...keys].sort(compareCodePoints);
  const page = sorted.slice(0, limit);
  const last = page[page.length - 1];
  return {
    page,
    nextCursor: sorted.length > limit && last !== undefined ? encodeCursor(last) : null,
  };
}
