// What the gateway needs from a model, whoever serves it: the AI SDK providers (ai-sdk-backend.ts)
// or the offline model (offline/offline-backend.ts). Backends throw whatever their transport
// throws; the gateway turns it into a GatewayError, retries, meters and enforces quotas once.
import type {
  ChatEvent,
  ChatRequest,
  ChatResult,
  EmbedResult,
  GeneratedImage,
  ImageEditRequest,
  ImageRequest,
  ModelInfo,
} from "./types.js";

export interface ChatBackend extends ModelInfo {
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatEvent>;
  generate(request: ChatRequest, signal: AbortSignal): Promise<Omit<ChatResult, "latencyMs">>;
}

export interface EmbedBackend extends ModelInfo {
  embed(
    values: readonly string[],
    signal: AbortSignal,
  ): Promise<Omit<EmbedResult, keyof ModelInfo | "dimensions">>;
}

export interface ImageBackend extends ModelInfo {
  generate(request: ImageRequest, signal: AbortSignal): Promise<GeneratedImage[]>;
  /** Absent when the backend cannot edit images (the offline model). */
  edit?(request: ImageEditRequest, signal: AbortSignal): Promise<GeneratedImage[]>;
}
