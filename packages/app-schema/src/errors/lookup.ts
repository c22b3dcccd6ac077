import { AGENT_ERRORS } from "./agent.js";
import { CREDENTIALS_ERRORS } from "./credentials.js";
import { EMBEDDINGS_ERRORS } from "./embeddings.js";
import { HOST_ERRORS } from "./host.js";
import { IMAGE_ERRORS } from "./image.js";
import { PROTOCOL_ERRORS } from "./protocol.js";
import { SAMPLING_ERRORS } from "./sampling.js";
import { STORAGE_ERRORS } from "./storage.js";
import type { CatalogEntry, ErrorFamily } from "./types.js";
import { UPLOAD_ERRORS } from "./upload.js";
import { WEB_ERRORS } from "./web.js";

/** Every family table by family name. `files` is not a key: it shares `storage`. */
export const ERRORS_BY_FAMILY: Readonly<
  Record<ErrorFamily, Readonly<Record<string, CatalogEntry>>>
> = Object.freeze({
  protocol: PROTOCOL_ERRORS,
  host: HOST_ERRORS,
  sampling: SAMPLING_ERRORS,
  storage: STORAGE_ERRORS,
  agent: AGENT_ERRORS,
  image: IMAGE_ERRORS,
  upload: UPLOAD_ERRORS,
  embeddings: EMBEDDINGS_ERRORS,
  credentials: CREDENTIALS_ERRORS,
  web: WEB_ERRORS,
});

/** Every catalogued entry, each once. */
export const ALL_ERRORS: readonly CatalogEntry[] = Object.freeze(
  Object.values(ERRORS_BY_FAMILY).flatMap((table) => Object.values(table)),
);

const BY_ERROR_CODE = new Map<string, CatalogEntry>();
for (const entry of ALL_ERRORS) {
  BY_ERROR_CODE.set(entry.errorCode, entry);
  if (entry.alias !== undefined) BY_ERROR_CODE.set(entry.alias, entry);
  for (const other of entry.aka ?? []) BY_ERROR_CODE.set(other, entry);
}

/**
 * The entry for a numeric code within a family (`files` resolves to `storage`). Returns
 * `undefined` when nothing matches, and also when several `host` entries share the code:
 * those are told apart by `errorCode` only.
 */
export function findByCode(family: ErrorFamily | "files", code: number): CatalogEntry | undefined {
  const table = ERRORS_BY_FAMILY[family === "files" ? "storage" : family];
  const hits = Object.values(table).filter((entry) => entry.code === code);
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * The entry for a symbolic name: the canonical `errorCode`, the harness alias
 * (`sampling_disabled`) or another name the spec uses for it (`MASK_UNSUPPORTED`).
 */
export function findByErrorCode(errorCode: string): CatalogEntry | undefined {
  return BY_ERROR_CODE.get(errorCode);
}

/** The JSON-RPC error object for an entry: `{code, message, data: {errorCode, …data}}`. */
export interface WireError {
  code: number;
  message: string;
  data: { errorCode: string; [key: string]: unknown };
}

/** Builds the wire error for a catalog entry; `message` overrides the default short form. */
export function toWireError(
  entry: CatalogEntry,
  options: { message?: string; data?: Record<string, unknown> } = {},
): WireError {
  return {
    code: entry.code,
    message: options.message ?? entry.message,
    data: { ...options.data, errorCode: entry.errorCode },
  };
}
