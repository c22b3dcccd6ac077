// `embeddings/create` (R54–R55). The router wraps a bare string input into a list and enforces
// the bridge caps (128 inputs, 64 000 characters per input) before a call gets here.
import type { EmbeddingsCreateParams, EmbeddingsCreateResult } from "@anna-ai/app-schema";
import type { EmbeddingsGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

export interface EmbeddingsService {
  create(
    params: EmbeddingsCreateParams & { input: string[] },
    ctx: ServiceContext<EmbeddingsGrant>,
  ): Promise<EmbeddingsCreateResult>;
}
