// `embeddings/create` (R54–R55). The router wraps a bare string input into a list and enforces
// the bridge caps (128 inputs, 64 000 chars per input) before a call gets here.
import type { EmbeddingsGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

export interface EmbeddingsCreateParams {
  input: string[];
  model?: string;
  [key: string]: unknown;
}

export interface EmbeddingsCreateResult {
  object: "list";
  model: string;
  data: { index: number; embedding: number[]; object?: string }[];
  usage: { prompt_tokens: number; total_tokens: number };
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface EmbeddingsService {
  create(
    params: EmbeddingsCreateParams,
    ctx: ServiceContext<EmbeddingsGrant>,
  ): Promise<EmbeddingsCreateResult>;
}
