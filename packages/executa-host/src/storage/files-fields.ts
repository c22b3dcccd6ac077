// The rules of `files/*` fields that do not depend on where objects live (R46–R49, T24): the
// content type, the declared size against the object cap and the grant, the caller's string
// metadata, and the lifetime of a download URL.
import { FILES_DOWNLOAD_TTL_DEFAULT_S, FILES_DOWNLOAD_TTL_MAX_S } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import type { StorageGrant } from "../services/grants.js";
import { isIntegerIn } from "../services/integer-range.js";
import { catalogError } from "../services/service-error.js";
import { FILES_CONTENT_TYPE_MAX_CHARS, ownMetadata } from "./limits.js";

/** `content_type`: required, 1..120 characters (R46); the PUT must send the same one. */
export function readFilesContentType(value: unknown, method: string): string {
  if (value === undefined || value === null || typeof value !== "string") {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'content_type' is required (e.g. "text/plain"); the PUT must send the same Content-Type`,
    );
  }
  if (value.trim() === "" || value.length > FILES_CONTENT_TYPE_MAX_CHARS) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: 'content_type' must be 1..${FILES_CONTENT_TYPE_MAX_CHARS} characters`,
    );
  }
  return value;
}

/**
 * The declared `size_bytes` (optional): over the host's object cap is -32025, over the grant's
 * `objectMaxBytes` is -32024 (the guide's quota table, L2364).
 */
export function readFilesSize(
  value: unknown,
  objectMaxBytes: number,
  grant: StorageGrant,
  method: string,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'size_bytes' must be a non-negative integer`,
    );
  }
  if (value > objectMaxBytes) {
    throw catalogError(
      STORAGE_ERRORS.VALUE_TOO_LARGE,
      `${method}: ${value} bytes is over the ${objectMaxBytes}-byte object limit`,
      { sizeBytes: value, maxBytes: objectMaxBytes },
    );
  }
  const grantMax = grant.objectMaxBytes;
  if (grantMax !== undefined && Number.isFinite(grantMax) && value > grantMax) {
    throw catalogError(
      STORAGE_ERRORS.QUOTA_EXCEEDED,
      `${method}: ${value} bytes is over this tool's storage grant (objectMaxBytes ${grantMax})`,
      { sizeBytes: value, maxBytes: grantMax },
    );
  }
  return value;
}

/** String-valued metadata without the correlation keys; keys starting `__` are reserved. */
export function readFilesMetadata(
  value: unknown,
  method: string,
): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  const bad = (why: string) =>
    catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'metadata' ${why}`);
  if (typeof value !== "object" || Array.isArray(value)) throw bad("must be an object");
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ownMetadata(value as Record<string, unknown>))) {
    if (k.startsWith("__")) throw bad(`key '${k}' is reserved (keys starting '__')`);
    if (typeof v !== "string") throw bad(`value of '${k}' must be a string`);
    out[k] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `ttl_seconds` 1..max, else the SDKs' `expires_in` clamped (Nexus ignores it, R48), else 300. */
export function readFilesDownloadTtl(params: Record<string, unknown>, method: string): number {
  const ttl = params["ttl_seconds"];
  if (ttl !== undefined && ttl !== null) {
    if (!isIntegerIn(ttl, 1, FILES_DOWNLOAD_TTL_MAX_S)) {
      throw catalogError(
        STORAGE_ERRORS.INVALID_REQUEST,
        `${method}: 'ttl_seconds' must be an integer from 1 to ${FILES_DOWNLOAD_TTL_MAX_S}`,
      );
    }
    return ttl;
  }
  const expiresIn = params["expires_in"];
  if (typeof expiresIn === "number" && Number.isFinite(expiresIn)) {
    return Math.min(FILES_DOWNLOAD_TTL_MAX_S, Math.max(1, Math.floor(expiresIn)));
  }
  return FILES_DOWNLOAD_TTL_DEFAULT_S;
}
