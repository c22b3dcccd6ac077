// `image/generate` and `image/edit` (T27, R56–R60). The router checks `n` against the host cap,
// the grant's per-call cap and the per-invoke image budget before a call gets here.
import type { ImageEditParams, ImageGenerateParams, ImageResult } from "@anna-ai/app-schema";
import type { ImageGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

/** `n` is filled in by the router (default 1). */
export type WithN<P> = P & { n: number };

export interface ImageService {
  /** Bare result, no wrapper (T27); the router counts `images.length` against the budget. */
  generate(
    params: WithN<ImageGenerateParams>,
    ctx: ServiceContext<ImageGrant>,
  ): Promise<ImageResult>;
  edit(params: WithN<ImageEditParams>, ctx: ServiceContext<ImageGrant>): Promise<ImageResult>;
}
