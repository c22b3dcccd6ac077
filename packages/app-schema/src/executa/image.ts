import { z } from "zod";
import { ClientTimeoutSchema, ModelPreferencesSchema, reverseCorrelationShape } from "./common.js";

/**
 * `image/generate` and `image/edit` (T27, R58, R59). Counts and sizes are checked by the image
 * service, not here: `n` over the caps is -32106, not an invalid request.
 */

export const IMAGE_HOST_MAX_N = 8;
export const IMAGE_MAX_REFERENCE_URLS = 4;
export const IMAGE_URL_TTL_S = 1800;

const imageOptionsShape = {
  n: z.number().int().positive().nullish(),
  /** `"WxH"`, default `1024x1024`. */
  size: z.string().nullish(),
  modelPreferences: ModelPreferencesSchema.nullish(),
  model_preferences: ModelPreferencesSchema.nullish(),
  quality: z.string().nullish(),
  resolution: z.string().nullish(),
  output_format: z.string().nullish(),
  _clientTimeoutS: ClientTimeoutSchema.nullish(),
  ...reverseCorrelationShape,
} as const;

export const ImageGenerateParamsSchema = z.looseObject({
  prompt: z.string(),
  reference_image_urls: z.array(z.string()).nullish(),
  enable_web_search: z.boolean().nullish(),
  thinking_level: z.string().nullish(),
  ...imageOptionsShape,
});
export type ImageGenerateParams = z.infer<typeof ImageGenerateParamsSchema>;

export const ImageEditParamsSchema = z.looseObject({
  image_url: z.string(),
  prompt: z.string(),
  mask_url: z.string().nullish(),
  ...imageOptionsShape,
});
export type ImageEditParams = z.infer<typeof ImageEditParamsSchema>;

/** The bare result of both methods (L2880). URLs expire; store them elsewhere if needed. */
export const ImageResultSchema = z.object({
  images: z.array(
    z.object({
      url: z.string(),
      mimeType: z.string().optional(),
      width: z.number().int().positive().optional(),
      height: z.number().int().positive().optional(),
    }),
  ),
  model: z.string().optional(),
  quota_used: z
    .object({
      images_today: z.number().int().nonnegative().optional(),
      images_quota: z.number().int().nonnegative().optional(),
    })
    .optional(),
});
export type ImageResult = z.infer<typeof ImageResultSchema>;
