import { z } from "zod";
import { ClientTimeoutSchema, reverseCorrelationShape } from "./common.js";

/**
 * `host/uploadFile` (T28, R61–R63): one method, three modes. Purpose and MIME type are strings
 * here because the upload service answers bad ones with their own codes (-32206, -32205).
 */

export const UPLOAD_PURPOSES = Object.freeze([
  "image_input",
  "image_reference",
  "user_artifact",
] as const);
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
export const DEFAULT_UPLOAD_PURPOSE: UploadPurpose = "user_artifact";

/** Decoded bytes; checked after base64 decoding (-32204). */
export const INLINE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
export const UPLOAD_PUT_URL_TTL_S = 300;
export const UPLOAD_GET_URL_TTL_S = 1800;

const commonShape = {
  _clientTimeoutS: ClientTimeoutSchema.nullish(),
  ...reverseCorrelationShape,
} as const;

export const HostUploadInlineParamsSchema = z.looseObject({
  mode: z.literal("inline"),
  filename: z.string().min(1),
  mime_type: z.string().min(1),
  content_b64: z.string(),
  purpose: z.string().nullish(),
  ...commonShape,
});
export type HostUploadInlineParams = z.infer<typeof HostUploadInlineParamsSchema>;

export const HostUploadNegotiateParamsSchema = z.looseObject({
  mode: z.literal("negotiate"),
  filename: z.string().min(1),
  mime_type: z.string().min(1),
  /** Wire name; the SDK's `size_bytes` is accepted as well (Z23). */
  expected_bytes: z.number().int().positive().nullish(),
  size_bytes: z.number().int().positive().nullish(),
  purpose: z.string().nullish(),
  ...commonShape,
});
export type HostUploadNegotiateParams = z.infer<typeof HostUploadNegotiateParamsSchema>;

export const HostUploadConfirmParamsSchema = z.looseObject({
  mode: z.literal("confirm"),
  r2_key: z.string().min(1),
  ...commonShape,
});
export type HostUploadConfirmParams = z.infer<typeof HostUploadConfirmParamsSchema>;

export const HostUploadParamsSchema = z.discriminatedUnion("mode", [
  HostUploadInlineParamsSchema,
  HostUploadNegotiateParamsSchema,
  HostUploadConfirmParamsSchema,
]);
export type HostUploadParams = z.infer<typeof HostUploadParamsSchema>;

export function uploadExpectedBytes(params: HostUploadNegotiateParams): number | undefined {
  return params.expected_bytes ?? params.size_bytes ?? undefined;
}

/**
 * What inline and confirm return. Canonical fields and their legacy aliases (`url`, `bytes`,
 * `expires_in`) are always both present (L3150).
 */
export const HostUploadFileResultSchema = z.object({
  r2_key: z.string(),
  download_url: z.string(),
  url: z.string(),
  /** Echoed lower-cased. */
  mime_type: z.string(),
  size_bytes: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  expires_at: z.string(),
  expires_in: z.number().int().nonnegative(),
  _meta: z.object({ mode: z.enum(["inline", "confirm"]) }),
});
export type HostUploadFileResult = z.infer<typeof HostUploadFileResultSchema>;

/** What negotiate returns: PUT the bytes to `put_url` with `headers`, no Authorization. */
export const HostUploadNegotiateResultSchema = z.object({
  r2_key: z.string(),
  put_url: z.string(),
  headers: z.record(z.string(), z.string()),
  expires_at: z.string(),
  expires_in: z.number().int().nonnegative(),
  _meta: z.object({ mode: z.literal("presigned-put") }),
});
export type HostUploadNegotiateResult = z.infer<typeof HostUploadNegotiateResultSchema>;

export const HostUploadResultSchema = z.union([
  HostUploadFileResultSchema,
  HostUploadNegotiateResultSchema,
]);
export type HostUploadResult = z.infer<typeof HostUploadResultSchema>;
