import { HostClient, compact, type CallControl } from "./host-client.js";

/** SDK default (`timeout=30.0`, R54). */
export const EMBEDDINGS_TIMEOUT_MS = 30_000;

export interface EmbeddingsOptions extends CallControl {
  input: string | readonly string[];
  /** Host alias, e.g. "anna-managed-v1"; omit for the default. */
  model?: string;
}

export interface EmbeddingsResult {
  object?: "list";
  model: string;
  data: { index: number; embedding: number[] }[];
  usage?: { prompt_tokens?: number; total_tokens?: number };
  _meta?: Record<string, unknown>;
}

/** `embeddings/create` (R54). */
export class EmbeddingsClient extends HostClient {
  protected readonly family = "embeddings";
  protected readonly defaultTimeoutMs = EMBEDDINGS_TIMEOUT_MS;

  create(options: EmbeddingsOptions): Promise<EmbeddingsResult> {
    const input = typeof options.input === "string" ? [options.input] : [...options.input];
    return this.call("embeddings/create", compact({ input, model: options.model }), options);
  }
}
