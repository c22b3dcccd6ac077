// `image/generate` and `image/edit` (and the app-side image calls) served through the gateway
// (T27, R56–R60). The parameters are checked by the offline service's function, so both refuse
// the same requests with the same codes; the router has already checked `n` against the caps and
// budgets. The user's image quota is the gateway's QuotaPolicy (-32102). `image/edit` reads the
// image (and mask) from their URLs and sends the bytes to the images model's edit endpoint; a
// provider that cannot edit answers -32311 naming one that can.
import type { ImageResult } from "@anna-ai/app-schema";
import { IMAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError, checkImageParams } from "@anna-ai/executa-host";
import type { ImageGrant, ImageService, ServiceContext } from "@anna-ai/executa-host";
import { GatewayError } from "../gateway/gateway-error.js";
import type { CallOptions, GeneratedImage, LlmGateway } from "../gateway/types.js";
import { familyError } from "./family-error.js";
import { type ImageEditSource, imageEditSource } from "./image-edit-source.js";

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
  /** Reads `image_url` and `mask_url` of an edit (default: public HTTPS through the SSRF guard). */
  source?: ImageEditSource;
}

const dataUrl: ImageStore = (image) =>
  Promise.resolve(`data:${image.mediaType};base64,${image.base64}`);

export function createGatewayImageService(options: GatewayImageOptions): ImageService {
  const { gateway } = options;
  const store = options.store ?? dataUrl;
  const source = options.source ?? imageEditSource();

  const call = (ctx: ServiceContext<ImageGrant>): CallOptions => ({
    account: {
      userId: ctx.userId,
      toolId: ctx.toolId,
      ...(ctx.app !== undefined ? { appId: ctx.app.appId } : {}),
    },
    purpose: "images",
    signal: ctx.signal,
  });

  async function answer(
    made: Promise<{ model: string; images: GeneratedImage[] }>,
    checked: { width: number; height: number },
    ctx: ServiceContext<ImageGrant>,
    edit: boolean,
  ): Promise<ImageResult> {
    let result;
    try {
      result = await made;
    } catch (error) {
      throw imageError(error, edit);
    }
    const images = await Promise.all(
      result.images.map(async (image, index) => ({
        url: await store(image, index, ctx),
        mimeType: image.mediaType,
        width: checked.width,
        height: checked.height,
      })),
    );
    return { images, model: result.model };
  }

  return {
    async generate(params, ctx): Promise<ImageResult> {
      const checked = checkImageParams(params as Record<string, unknown>, "image/generate");
      const size = checked.size as `${number}x${number}`;
      return answer(
        gateway.generateImage({ prompt: checked.prompt, n: checked.n, size }, call(ctx)),
        checked,
        ctx,
        false,
      );
    },
    async edit(params, ctx): Promise<ImageResult> {
      const raw = params as Record<string, unknown>;
      const checked = checkImageParams(raw, "image/edit");
      const imageUrl = raw["image_url"];
      if (typeof imageUrl !== "string" || imageUrl.trim() === "") {
        throw catalogError(IMAGE_ERRORS.INVALID_REQUEST, "image/edit: 'image_url' is required", {
          field: "image_url",
        });
      }
      // Refused before any fetch: a provider that cannot edit need not see the picture.
      const { provider } = gateway.modelFor("images");
      if (provider === "offline" || provider === "anthropic") {
        throw imageError(
          new GatewayError(
            "not_supported",
            `image/edit is not supported by the ${provider} images model; set the images provider to openai (ANNA_IMAGES_PROVIDER=openai, or images.provider in the config file or the admin settings), whose /v1/images/edits edits images`,
            { provider },
          ),
          true,
        );
      }
      const maskUrl = raw["mask_url"];
      const [image, mask] = await Promise.all([
        source(imageUrl, "image_url", ctx.signal),
        typeof maskUrl === "string" && maskUrl !== ""
          ? source(maskUrl, "mask_url", ctx.signal)
          : Promise.resolve(undefined),
      ]);
      const size = checked.size as `${number}x${number}`;
      return answer(
        gateway.editImage(
          {
            prompt: checked.prompt,
            n: checked.n,
            size,
            images: [image],
            ...(mask !== undefined ? { mask } : {}),
          },
          call(ctx),
        ),
        checked,
        ctx,
        true,
      );
    },
  };
}

/** No images model, or one that cannot edit: the codes plugins branch on. */
function imageError(error: unknown, edit: boolean): Error {
  if (error instanceof GatewayError && error.code === "not_supported" && edit) {
    return catalogError(IMAGE_ERRORS.EDIT_NOT_SUPPORTED, error.message, {
      provider: error.provider,
    });
  }
  if (
    error instanceof GatewayError &&
    (error.code === "not_supported" || error.code === "not_configured")
  ) {
    return catalogError(IMAGE_ERRORS.NO_MODEL_AVAILABLE, error.message, {
      provider: error.provider,
    });
  }
  return familyError(error, IMAGE_ERRORS);
}
