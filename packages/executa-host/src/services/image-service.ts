// `image/generate` and `image/edit` (T27, R56–R60). The router checks `n` against the host cap,
// the grant's per-call cap and the per-invoke image budget before a call gets here.
import type { ImageGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

export interface ImageGenerateParams {
  prompt: string;
  /** Filled in by the router (default 1). */
  n: number;
  size?: string;
  reference_image_urls?: string[];
  modelPreferences?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ImageEditParams extends ImageGenerateParams {
  image_url: string;
  mask_url?: string | null;
}

export interface ImageResult {
  /** Bare result, no wrapper (T27); the router counts `images.length` against the budget. */
  images: { url: string; mimeType?: string; width?: number; height?: number }[];
  model?: string;
  quota_used?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ImageService {
  generate(params: ImageGenerateParams, ctx: ServiceContext<ImageGrant>): Promise<ImageResult>;
  edit(params: ImageEditParams, ctx: ServiceContext<ImageGrant>): Promise<ImageResult>;
}
