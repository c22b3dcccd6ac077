// `image/generate` (and the app-side image calls) served through the gateway (T27, R56–R60). The
// parameters are checked by the offline service's function, so both refuse the same requests
// with the same codes; the router has already checked `n` against the caps and budgets. The
// user's image quota is the gateway's QuotaPolicy (-32102). `image/edit` needs a provider edit
// endpoint the gateway does not drive yet: -32311.
import type { ImageResult } from "@anna-ai/app-schema";
import { IMAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError, checkImageParams } from "@anna-ai/executa-host";
import type { ImageGrant, ImageService, ServiceContext } from "@anna-ai/executa-host";
import { GatewayError } from "../gateway/gateway-error.js";
import type { GeneratedImage, LlmGateway } from "../gateway/types.js";
import { familyError } from "./family-error.js";

/**
 * Where generated images go: Nexus puts them in its blob store and answers a signed URL. Without
 * one, images are `data:` URLs.
 */
export type ImageStore = (
  image: GeneratedImage,
  index: number,
  ctx: ServiceContext<ImageGrant>,
) => Promise<string>;

export interface GatewayImageOptions {
  gateway: LlmGateway;
  store?: ImageStore;
}

const dataUrl: ImageStore = (image) =>
  Promise.resolve(`data:${image.mediaType};base64,${image.base64}`);

export function createGatewayImageService(options: GatewayImageOptions): ImageService {
  const { gateway } = options;
  const store = options.store ?? dataUrl;
  return {
    async generate(params, ctx): Promise<ImageResult> {
      const checked = checkImageParams(params as Record<string, unknown>, "image/generate");
      let made;
      try {
        made = await gateway.generateImage(
          { prompt: checked.prompt, n: checked.n, size: checked.size as `${number}x${number}` },
          {
            account: {
              userId: ctx.userId,
              toolId: ctx.toolId,
              ...(ctx.app !== undefined ? { appId: ctx.app.appId } : {}),
            },
            purpose: "images",
            signal: ctx.signal,
          },
        );
      } catch (error) {
        if (
          error instanceof GatewayError &&
          (error.code === "not_supported" || error.code === "not_configured")
        ) {
          throw catalogError(IMAGE_ERRORS.NO_MODEL_AVAILABLE, error.message, {
            provider: error.provider,
          });
        }
        throw familyError(error, IMAGE_ERRORS);
      }
      const images = await Promise.all(
        made.images.map(async (image, index) => ({
          url: await store(image, index, ctx),
          mimeType: image.mediaType,
          width: checked.width,
          height: checked.height,
        })),
      );
      return { images, model: made.model };
    },
    edit() {
      const { provider, model } = gateway.modelFor("images");
      return Promise.reject(
        catalogError(
          IMAGE_ERRORS.EDIT_NOT_SUPPORTED,
          `image/edit is not supported by the gateway's ${provider} image model ${model} yet; use image/generate`,
          { provider },
        ),
      );
    },
  };
}
