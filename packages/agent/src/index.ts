// Configuration of the LLM gateway (src/config).
export {
  DEFAULT_EMBEDDING_DIMENSIONS,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  LLM_PROVIDERS,
  LlmConfigError,
  LlmConfigInputSchema,
  OFFLINE_MODEL_ID,
  OPENAI_APIS,
  OPENAI_DEFAULT_EMBEDDING_MODEL,
  OPENAI_DEFAULT_IMAGE_MODEL,
  parseLlmConfig,
} from "./config/llm-config.js";
export type {
  LlmConfig,
  LlmConfigInput,
  LlmConfigIssue,
  LlmProvider,
  ModelEndpoint,
  OpenAiApi,
  Purpose,
  SettingNames,
} from "./config/llm-config.js";
export { LLM_ENV_VARS, envSettingName, llmConfigFromEnv } from "./config/config-env.js";
export { REDACTED, Secret, redactSecrets } from "./config/secret.js";

// The gateway (src/gateway): the API, errors, retries, usage and quotas.
export { createLlmGateway } from "./gateway/create-gateway.js";
export { openLlmGateway } from "./gateway/open-gateway.js";
export { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError } from "./gateway/bounded-fetch.js";
export type { LlmGatewayOptions } from "./gateway/create-gateway.js";
export type {
  CallAccount,
  CallOptions,
  CallPurpose,
  ChatEvent,
  ChatMessage,
  ChatRequest,
  ChatResult,
  ChatTool,
  EmbedRequest,
  EmbedResult,
  FinishReason,
  GeneratedImage,
  ImageGenerationResult,
  ImageRequest,
  JsonResponseFormat,
  LlmGateway,
  ModelInfo,
  ToolCall,
  ToolChoice,
  Usage,
} from "./gateway/types.js";
export { GatewayError, isRetryableStatus, retryAfterFromHeaders } from "./gateway/gateway-error.js";
export type { GatewayErrorCode } from "./gateway/gateway-error.js";
export { DEFAULT_RETRY_POLICY, realSleep, retryDelayMs } from "./gateway/retry.js";
export type { RetryPolicy, Sleep } from "./gateway/retry.js";
export {
  DEFAULT_QUOTA_WINDOW_MS,
  MEMORY_USAGE_MAX_RECORDS,
  MemoryUsageLedger,
} from "./gateway/usage.js";
export type {
  MemoryQuotaLimits,
  QuotaDecision,
  QuotaPolicy,
  UsageRecord,
  UsageSink,
} from "./gateway/usage.js";

// The offline model (src/offline).
export { OFFLINE_FALLBACK_TEXT, OFFLINE_PROVIDER } from "./offline/offline-backend.js";

// Host services backed by the gateway (src/services).
export {
  SAMPLING_DEFAULT_TEMPERATURE,
  SAMPLING_DEFAULT_TIMEOUT_S,
  SAMPLING_MAX_TIMEOUT_S,
  SAMPLING_MIN_TIMEOUT_S,
  createGatewaySamplingService,
} from "./services/sampling-gateway.js";
export type { GatewaySamplingOptions } from "./services/sampling-gateway.js";
export { createGatewayEmbeddingsService } from "./services/embeddings-gateway.js";
export type { GatewayEmbeddingsOptions } from "./services/embeddings-gateway.js";
export { createGatewayImageService } from "./services/image-gateway.js";
export type { GatewayImageOptions, ImageStore } from "./services/image-gateway.js";

// The runtime's shared vocabulary (src/turns/types.ts): tools, prompts and turn events.
export type {
  AgentTool,
  AssembledPrompt,
  ToolContext,
  ToolOutcome,
  ToolSource,
  TurnEvent,
  TurnStatus,
} from "./turns/types.js";

// The executor: sandboxed plugin processes per (user, tool) and the exec_* platform tools.
export {
  ExecutaPool,
  PoolFullError,
  DEFAULT_POOL_IDLE_MS,
  DEFAULT_POOL_MAX_PROCESSES,
} from "./executor/executa-pool.js";
export type {
  ExecutaPoolOptions,
  PoolExecuta,
  PoolInvokeOptions,
} from "./executor/executa-pool.js";
export { executaTools, modelToolName, outcomeToToolResult } from "./executor/executa-tools.js";
export {
  EXEC_DEFAULT_TIMEOUT_MS,
  EXEC_MAX_COMMANDS,
  EXEC_MAX_OUTPUT_BYTES,
  EXEC_MAX_TIMEOUT_MS,
  execTools,
} from "./executor/exec-tools.js";
export {
  Sandbox,
  SandboxRefusedError,
  SANDBOX_HOME,
  SANDBOX_TMP,
  SANDBOX_WORKSPACE,
} from "./executor/sandbox.js";
export type { SandboxedCommand } from "./executor/sandbox.js";
export { probeBwrap } from "./executor/bwrap-probe.js";
export type { BwrapProbe } from "./executor/bwrap-probe.js";
export {
  DEFAULT_RUN_AS,
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_ALLOW_UNSANDBOXED_ENV,
  SANDBOX_ENV,
  SANDBOX_MODES,
  SANDBOX_NETWORK_ENV,
  SandboxConfigError,
  sandboxOptionsFromEnv,
} from "./executor/sandbox-options.js";
export type { SandboxLimits, SandboxMode, SandboxOptions } from "./executor/sandbox-options.js";
