// `@anna-ai/executa-host/storage`: the rules every APS store shares, whatever holds the rows
// (the memory store of `executa dev` now, the SQL store of the server next). Pure functions and
// small types, no state: a store keeps its rows and ledgers its own way and asks these what a
// key, a value, a page or a quota change means, so every backend answers the same codes.
export { canonicalJson, compareCodePoints, payloadEtag } from "./canonical-json.js";
export { checkFilesPath, checkFilesPrefix } from "./files-path.js";
export {
  readFilesContentType,
  readFilesDownloadTtl,
  readFilesMetadata,
  readFilesSize,
} from "./files-fields.js";
export { checkKvKey, checkKvPrefix } from "./kv-keys.js";
export {
  checkIfMatch,
  expiresAtMs,
  isExpired,
  kvNotFound,
  kvPayload,
  nextGeneration,
  readKvMetadata,
  readKvTags,
  readKvTtlSeconds,
} from "./kv-values.js";
export type { KvPayload } from "./kv-values.js";
export {
  CORRELATION_METADATA_KEYS,
  DEFAULT_STORAGE_LIMITS,
  FILES_CONTENT_TYPE_MAX_CHARS,
  FILES_DOWNLOAD_TTL_DEFAULT_S,
  FILES_DOWNLOAD_TTL_MAX_S,
  FILES_LIST_DEFAULT_LIMIT,
  FILES_LIST_MAX_LIMIT,
  FILES_OBJECT_MAX_BYTES,
  FILES_PUT_URL_TTL_S,
  FILES_RESERVATION_TTL_S,
  KV_VALUE_MAX_BYTES,
  STORAGE_QUOTA_BYTES,
  ownMetadata,
} from "./limits.js";
export type { StorageLimits } from "./limits.js";
export { decodeCursor, encodeCursor } from "./list-cursor.js";
export { listsAfter, pageOfKeys, readFilesListLimit, readKvListLimit } from "./list-page.js";
export { namespaceId, resolveStorageOwner } from "./namespace.js";
export { storageOwner } from "../services/storage-service.js";
export type { Scoped, StorageOwner, StorageService } from "../services/storage-service.js";
export type { FilesService } from "../services/files-service.js";
export { checkQuotaBytes, checkQuotaEntries, effectiveQuota, quotaBytesExceeded } from "./quota.js";
export type { QuotaUsage } from "./quota.js";
