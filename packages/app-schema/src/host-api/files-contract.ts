// `files.*` (R136–R142): two-phase uploads and presigned downloads at scope `app`. Paths and
// prefixes are checked by the handler with the key rules (`invalid_path` with the reason).
import { z } from "zod";
import {
  checkedByHandler,
  hostMethod,
  JsonObjectSchema,
  SERVICE_ERROR_CODES,
  lazySchema,
} from "./method-contract.js";

const ownScope = () => ({
  scope: z.literal("app").optional(),
  /** Another app's files; only this app's own are served today. */
  owner: z.string().optional(),
});

const objectFields = () => ({
  etag: z.string().nullish(),
  size_bytes: z.number().optional(),
  content_type: z.string().optional(),
});

export const AppFilesListResultSchema = lazySchema(() =>
  z.looseObject({
    items: z.array(
      z.looseObject({
        path: z.string(),
        ...objectFields(),
        metadata: JsonObjectSchema().nullish(),
        tags: z.array(z.string()).nullish(),
        updated_at: z.string().nullish(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
);

const FILES_ERRORS = [
  ...SERVICE_ERROR_CODES,
  "invalid_path",
  "quota_exceeded",
  "value_too_large",
] as const;

export const FILES_CONTRACT = {
  "files.upload_init": hostMethod(
    () =>
      z.looseObject({
        path: checkedByHandler<string>(),
        content_type: z.string().min(1),
        size: z.int().nonnegative(),
        ttl_seconds: z.int().positive().optional(),
        ...ownScope(),
      }),
    () =>
      z.looseObject({
        upload_id: z.string(),
        put_url: z.string(),
        headers: z.record(z.string(), z.string()),
        expires_at: z.string(),
        r2_key: z.string(),
      }),
    FILES_ERRORS,
  ),
  "files.upload_finalize": hostMethod(
    () =>
      z.looseObject({
        path: checkedByHandler<string>(),
        etag: z.string().nullish(),
        size: z.int().nonnegative().optional(),
        size_bytes: z.int().nonnegative().optional(),
        ...ownScope(),
      }),
    () => z.looseObject({ path: z.string(), ...objectFields(), generation: z.number().optional() }),
    [...FILES_ERRORS, "precondition_failed"],
  ),
  "files.download_url": hostMethod(
    () =>
      z.looseObject({
        path: checkedByHandler<string>(),
        ttl_seconds: z.number().positive().optional(),
        ttl: z.number().positive().optional(),
        ...ownScope(),
      }),
    () => z.looseObject({ get_url: z.string(), expires_at: z.string(), ...objectFields() }),
    FILES_ERRORS,
  ),
  /** R140: the host page strips `get_url` before the iframe sees the answer, and clicks it. */
  "files.download": hostMethod(
    () =>
      z.looseObject({
        path: checkedByHandler<string>(),
        filename: z.string().min(1).optional(),
        ttl_seconds: z.number().positive().optional(),
        ...ownScope(),
      }),
    () =>
      z.looseObject({
        ok: z.literal(true),
        filename: z.string(),
        expires_at: z.string(),
        get_url: z.string().optional(),
        ...objectFields(),
      }),
    FILES_ERRORS,
  ),
  /** Out-of-range limits are clamped to 1…1000, not refused (R141, Z13). */
  "files.list": hostMethod(
    () =>
      z.looseObject({
        prefix: checkedByHandler<string>().optional(),
        cursor: z.string().nullish(),
        limit: z.number().int().optional(),
        ...ownScope(),
      }),
    AppFilesListResultSchema,
    FILES_ERRORS,
  ),
  "files.delete": hostMethod(
    () =>
      z.looseObject({
        path: checkedByHandler<string>(),
        if_match: z.string().nullish(),
        ...ownScope(),
      }),
    () => z.looseObject({ deleted: z.boolean() }),
    [...FILES_ERRORS, "precondition_failed"],
  ),
} as const;
