import { HostClient, compact, type CallControl } from "./host-client.js";
import type { ModelPreferences } from "./sampling.js";

/** SDK default per call (`ImageClient.DEFAULT_TIMEOUT`, L9474). */
export const IMAGE_TIMEOUT_MS = 120_000;

interface ImageCommon extends CallControl {
  prompt: string;
  n?: number;
  size?: string;
  modelPreferences?: ModelPreferences;
  quality?: "low" | "medium" | "high";
  resolution?: "0.5K" | "1K" | "2K" | "4K";
  outputFormat?: "png" | "jpeg" | "webp";
  metadata?: Record<string, unknown>;
}

export interface ImageGenerateOptions extends ImageCommon {
  referenceImageUrls?: string[];
  enableWebSearch?: boolean;
  thinkingLevel?: "minimal" | "high";
}

export interface ImageEditOptions extends ImageCommon {
  imageUrl: string;
  maskUrl?: string | null;
}

export interface ImageResult {
  /** Transient URLs (about 30 minutes): persist bytes elsewhere if they must last. */
  images: { url: string; mimeType?: string; width?: number; height?: number }[];
  model?: string;
  quota_used?: Record<string, unknown>;
  [field: string]: unknown;
}

function common(options: ImageCommon): Record<string, unknown> {
  return {
    prompt: options.prompt,
    n: options.n ?? 1,
    size: options.size,
    modelPreferences: options.modelPreferences,
    quality: options.quality,
    resolution: options.resolution,
    output_format: options.outputFormat,
    metadata: options.metadata,
  };
}

/** `image/generate` and `image/edit` (T27). */
export class ImageClient extends HostClient {
  protected readonly family = "image";
  protected readonly defaultTimeoutMs = IMAGE_TIMEOUT_MS;
  protected override readonly sendsClientTimeout = true;

  generate(options: ImageGenerateOptions): Promise<ImageResult> {
    return this.call(
      "image/generate",
      compact({
        ...common(options),
        reference_image_urls: options.referenceImageUrls,
        enable_web_search: options.enableWebSearch,
        thinking_level: options.thinkingLevel,
      }),
      options,
    );
  }

  edit(options: ImageEditOptions): Promise<ImageResult> {
    return this.call(
      "image/edit",
      compact({ ...common(options), image_url: options.imageUrl, mask_url: options.maskUrl }),
      options,
    );
  }
}
