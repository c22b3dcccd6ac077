// @anna-ai/executa-sdk — write Executa Tool plugins in TypeScript.

export { definePlugin } from "./define-plugin.js";
export type {
  CompiledTool,
  CredentialSpec,
  HealthReport,
  Manifest,
  ManifestInput,
  Plugin,
  PluginDefinition,
  ToolDefinition,
  ToolManifest,
} from "./define-plugin.js";
export { p, validateArguments, normalizeParameters, ArgumentError } from "./parameters.js";
export type {
  ArgsOf,
  Param,
  ParameterSpec,
  ParameterType,
  ParametersInput,
  NormalizedParameter,
} from "./parameters.js";
export type { ProgressType, ToolContext } from "./tool-context.js";
export { serve, divertConsoleToStderr, FILE_TRANSPORT_ABOVE_BYTES } from "./serve.js";
export type { ServeOptions } from "./serve.js";
export { createPluginRuntime, capabilitiesFor, PROTOCOL_VERSION } from "./runtime.js";
export type { PluginRuntime, PluginRuntimeOptions } from "./runtime.js";
export { bindInvoke, currentInvoke } from "./invoke-binding.js";
export type { InvokeBinding } from "./invoke-binding.js";
export { emitProgress } from "./reverse/channel.js";
export { StderrLogger } from "./logger.js";
export type { LogLevel, StderrLoggerOptions } from "./logger.js";
export { randomHexId } from "./runtime.js";
export {
  AgentError,
  CredentialsError,
  EmbeddingsError,
  HostCallError,
  ImageError,
  SamplingError,
  StorageError,
  UploadError,
  WebError,
} from "./errors.js";
export type { HostCallErrorInit, HostFamily } from "./errors.js";
// Re-exported so plugins throw the class the runtime (possibly bundled) recognises.
export { RpcError, RpcLocalError } from "@anna-ai/jsonrpc";
export type { HostPeer, ReverseChannel } from "./reverse/channel.js";
export type { CallControl, HostClientOptions, StorageScope } from "./reverse/channel.js";
export { SamplingClient, SAMPLING_TIMEOUT_MS } from "./reverse/llm-clients.js";
export type {
  CreateMessageOptions,
  CreateMessageResult,
  ModelPreferences,
  ResponseFormat,
  SamplingMessage,
  SamplingRole,
} from "./reverse/llm-clients.js";
export { StorageClient, STORAGE_TIMEOUT_MS } from "./reverse/data-clients.js";
export type {
  StorageGetResult,
  StorageListOptions,
  StorageListResult,
  StorageSetOptions,
  StorageSetResult,
} from "./reverse/data-clients.js";
export { FilesClient } from "./reverse/data-clients.js";
export type {
  DownloadUrlResult,
  FileEntry,
  UploadBeginOptions,
  UploadBeginResult,
  UploadCompleteOptions,
} from "./reverse/data-clients.js";
export {
  AgentSessionClient,
  AGENT_TIMEOUT_MS,
  AGENT_RUN_TIMEOUT_MS,
} from "./reverse/llm-clients.js";
export type {
  AgentFrame,
  AgentRunResult,
  AgentSession,
  CreateSessionOptions,
  RunOptions,
} from "./reverse/llm-clients.js";
export { ImageClient, IMAGE_TIMEOUT_MS } from "./reverse/llm-clients.js";
export type { ImageEditOptions, ImageGenerateOptions, ImageResult } from "./reverse/llm-clients.js";
export { HostUploadClient, INLINE_MAX_BYTES, UPLOAD_TIMEOUT_MS } from "./reverse/data-clients.js";
export type {
  InlineOptions,
  NegotiateOptions,
  NegotiateResult,
  UploadEnvelope,
  UploadPurpose,
} from "./reverse/data-clients.js";
export { EmbeddingsClient, EMBEDDINGS_TIMEOUT_MS } from "./reverse/llm-clients.js";
export type { EmbeddingsOptions, EmbeddingsResult } from "./reverse/llm-clients.js";
export {
  CREDENTIALS_TIMEOUT_MS,
  CredentialsClient,
  WEB_TIMEOUT_MS,
  WebClient,
} from "./reverse/web-clients.js";
export type {
  AccessToken,
  CredentialAccount,
  WebFetchOptions,
  WebFetchResult,
  WebImageFetchOptions,
  WebImageFetchResult,
  WebImageSearchOptions,
  WebImageSearchResult,
  WebPage,
  WebSearchOptions,
  WebSearchResult,
} from "./reverse/web-clients.js";
