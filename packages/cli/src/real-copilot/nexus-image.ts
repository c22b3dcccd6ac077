// `image/generate` and `image/edit` in real mode. Our Nexus serves no image endpoint yet (its
// gateway generates no images over HTTP), so every call answers -32109 no_model_available naming
// what is missing and the offline alternative, instead of pretending to forward.
import { IMAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError, type ImageService } from "@anna-ai/executa-host";

export function unservedImageService(host: string): ImageService {
  const refuse = (method: string) => () =>
    Promise.reject(
      catalogError(
        IMAGE_ERRORS.NO_MODEL_AVAILABLE,
        `${method}: ${host} serves no image generation endpoint (/api/v1/copilot/app/image is not part of this Nexus yet); use --mock-image <fixture.jsonl> to answer image calls offline`,
      ),
    );
  return { generate: refuse("image/generate"), edit: refuse("image/edit") };
}
