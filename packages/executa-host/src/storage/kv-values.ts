// The rules of a `storage/set` row that do not depend on where rows live (R42–R45, R133, T23):
// the value as canonical JSON under the size cap, its etag, the TTL, the caller's metadata and
// tags, `if_match`, and the generation that counts every write of a key.
import { STORAGE_MAX_TAGS, STORAGE_TTL_MAX_S } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { isIntegerIn } from "../services/integer-range.js";
import { catalogError } from "../services/service-error.js";
import { canonicalJson, payloadEtag } from "./canonical-json.js";
import { ownMetadata } from "./limits.js";

/** A value as stored: its canonical JSON, the bytes charged for it and its etag. */
export interface KvPayload {
  payload: string;
  sizeBytes: number;
  etag: string;
}

/**
 * `value` checked and canonicalised: required (null is a value), JSON, at most `maxBytes` as
 * canonical UTF-8 (-32025 VALUE_TOO_LARGE, R43).
 */
export function kvPayload(
  value: unknown,
  key: string,
  maxBytes: number,
  method: string,
): KvPayload {
  if (value === undefined) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'value' is required (any JSON value; null is allowed)`,
    );
  }
  let payload: string;
  try {
    payload = canonicalJson(value);
  } catch (error) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'value' is not JSON`,
      undefined,
      {
        cause: error,
      },
    );
  }
  const sizeBytes = Buffer.byteLength(payload, "utf8");
  if (sizeBytes > maxBytes) {
    throw catalogError(
      STORAGE_ERRORS.VALUE_TOO_LARGE,
      `${method}: value of ${JSON.stringify(key)} is ${sizeBytes} bytes as canonical JSON; at most ${maxBytes}. Store large data with files/* instead`,
      { sizeBytes, maxBytes },
    );
  }
  return { payload, sizeBytes, etag: payloadEtag(payload) };
}

/** `ttl_seconds`: absent, or an integer 1..31 536 000 (R133). */
export function readKvTtlSeconds(value: unknown, method: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isIntegerIn(value, 1, STORAGE_TTL_MAX_S)) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'ttl_seconds' must be an integer from 1 to ${STORAGE_TTL_MAX_S}`,
    );
  }
  return value;
}

/** When a row written at `nowMs` with `ttlSeconds` stops existing; `undefined` = never. */
export function expiresAtMs(nowMs: number, ttlSeconds: number | undefined): number | undefined {
  return ttlSeconds === undefined ? undefined : nowMs + ttlSeconds * 1000;
}

/** An expired row behaves as missing for every call (R42), from its expiry instant on. */
export function isExpired(expiresAt: number | undefined, nowMs: number): boolean {
  return expiresAt !== undefined && expiresAt <= nowMs;
}

/** The caller's metadata as canonical JSON, without the correlation keys; empty = none. */
export function readKvMetadata(
  value: unknown,
  method: string,
): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'metadata' must be an object or null`,
    );
  }
  const own = ownMetadata(value as Record<string, unknown>);
  return Object.keys(own).length === 0
    ? undefined
    : (JSON.parse(canonicalJson(own)) as Record<string, unknown>);
}

/** At most 32 string tags (R133); empty = none. Stored, not indexed. */
export function readKvTags(value: unknown, method: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    value.length > STORAGE_MAX_TAGS ||
    !value.every((t) => typeof t === "string")
  ) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'tags' must be an array of at most ${STORAGE_MAX_TAGS} strings`,
    );
  }
  return value.length === 0 ? undefined : [...(value as string[])];
}

/**
 * `if_match` on set and delete: absent or null = unconditional; otherwise the live row must
 * exist with that etag, else -32023 PRECONDITION_FAILED (a missing row fails too, R133).
 * `currentEtag` is the live row's etag, `undefined` when there is none (or it expired).
 */
export function checkIfMatch(
  ifMatch: unknown,
  currentEtag: string | undefined,
  key: string,
  method: string,
): void {
  if (ifMatch === undefined || ifMatch === null) return;
  if (typeof ifMatch !== "string") {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'if_match' must be an etag string or null`,
    );
  }
  if (currentEtag === ifMatch) return;
  throw catalogError(
    STORAGE_ERRORS.PRECONDITION_FAILED,
    currentEtag === undefined
      ? `${method}: if_match ${JSON.stringify(ifMatch)} but key ${JSON.stringify(key)} does not exist; pass if_match: null to create it`
      : `${method}: if_match ${JSON.stringify(ifMatch)} does not match the current etag of ${JSON.stringify(key)}; re-read and retry`,
    { key, currentEtag: currentEtag ?? null },
  );
}

/**
 * The generation of the next write of a key: one more than the live row's, or than the last
 * generation the key had before it was deleted or expired (a store remembers it as long as it
 * can), or 1. Generations never go back for a key the store still remembers.
 */
export function nextGeneration(previous: number | undefined): number {
  return (previous ?? 0) + 1;
}

/** `storage/delete` of a key with no live row: -32022 NOT_FOUND. */
export function kvNotFound(key: string, method: string) {
  return catalogError(
    STORAGE_ERRORS.NOT_FOUND,
    `${method}: key ${JSON.stringify(key)} does not exist`,
    { key },
  );
}
