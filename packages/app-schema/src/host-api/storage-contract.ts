// `storage.*` (R129–R135): one contract for both backends (`legacy` runtime_state, `aps`). Keys and
// prefixes are checked by the handler with the key rules (`invalid_path` with the reason), so the
// argument schema only types them.
import { z } from "zod";
import { STORAGE_LIST_MAX_LIMIT, STORAGE_MAX_TAGS, STORAGE_TTL_MAX_S } from "../executa/storage.js";
import { checkedByHandler, hostMethod, JsonObjectSchema, lazySchema } from "./method-contract.js";

/** `tool` is refused (`not_implemented`); `user` needs `host_capabilities` (R130). */
export const AppStorageScopeSchema = lazySchema(() => z.enum(["app", "user", "tool"]));
export type AppStorageScope = z.infer<ReturnType<typeof AppStorageScopeSchema>>;

const where = () => ({
  scope: AppStorageScopeSchema().optional(),
  /** Another app's bucket; only this app's own is served today. */
  owner: z.string().optional(),
});

export const AppStorageGetResultSchema = lazySchema(() =>
  z.looseObject({
    value: z.unknown(),
    exists: z.boolean().optional(),
    etag: z.string().nullish(),
    generation: z.number().optional(),
  }),
);

export const AppStorageSetResultSchema = lazySchema(() =>
  z.looseObject({
    ok: z.boolean().optional(),
    etag: z.string().optional(),
    generation: z.number().optional(),
    size_bytes: z.number().optional(),
  }),
);

export const AppStorageListResultSchema = lazySchema(() =>
  z.looseObject({
    items: z.array(
      z.looseObject({
        key: z.string(),
        etag: z.string().nullish(),
        size_bytes: z.number().optional(),
        metadata: JsonObjectSchema().nullish(),
        tags: z.array(z.string()).nullish(),
        updated_at: z.string().nullish(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
);

const STORAGE_ERRORS = ["invalid_path", "not_implemented"] as const;

export const STORAGE_CONTRACT = {
  "storage.get": hostMethod(
    () => z.looseObject({ key: checkedByHandler<string>(), ...where() }),
    AppStorageGetResultSchema,
    STORAGE_ERRORS,
  ),
  "storage.set": hostMethod(
    () =>
      z.looseObject({
        key: checkedByHandler<string>(),
        value: z.unknown().optional(),
        ...where(),
        if_match: z.string().nullish(),
        metadata: JsonObjectSchema().nullish(),
        tags: z.array(z.string()).max(STORAGE_MAX_TAGS).nullish(),
        ttl_seconds: z.number().int().min(1).max(STORAGE_TTL_MAX_S).nullish(),
      }),
    AppStorageSetResultSchema,
    [
      ...STORAGE_ERRORS,
      "precondition_failed",
      "value_too_large",
      "state_too_large",
      "quota_exceeded",
    ],
  ),
  /** Legacy silently no-ops a missing key and ignores `if_match` (R134). */
  "storage.delete": hostMethod(
    () =>
      z.looseObject({
        key: checkedByHandler<string>(),
        ...where(),
        if_match: z.string().nullish(),
      }),
    () => z.looseObject({ ok: z.boolean().optional(), deleted: z.boolean().optional() }),
    [...STORAGE_ERRORS, "precondition_failed"],
  ),
  "storage.list": hostMethod(
    () =>
      z.looseObject({
        prefix: checkedByHandler<string>().optional(),
        cursor: z.string().nullish(),
        limit: z.int().min(1).max(STORAGE_LIST_MAX_LIMIT).optional(),
        ...where(),
      }),
    AppStorageListResultSchema,
    STORAGE_ERRORS,
  ),
} as const;
