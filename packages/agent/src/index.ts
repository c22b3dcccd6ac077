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
  parseLlmConfigInput,
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
export {
  LLM_ENV_VARS,
  envSettingName,
  llmConfigFromEnv,
  llmConfigInputFromEnv,
} from "./config/config-env.js";
export {
  CONFIG_FILE_KEYS,
  CONFIG_FILE_MAX_BYTES,
  ConfigFileError,
  parseConfigFile,
  readConfigFile,
} from "./config/config-file.js";
export type { ConfigFile } from "./config/config-file.js";
export {
  LLM_CONFIG_SOURCES,
  llmSettingSources,
  mergeLlmConfigInputs,
  resolveLlmConfigLayers,
} from "./config/config-layers.js";
export type { LlmConfigLayer, LlmConfigSource } from "./config/config-layers.js";
export { REDACTED, Secret, redactSecrets } from "./config/secret.js";

// The gateway (src/gateway): the API, errors, retries, usage and quotas.
export { createLlmGateway } from "./gateway/create-gateway.js";
export { openLlmGateway } from "./gateway/open-gateway.js";
export { switchableGateway } from "./gateway/switchable-gateway.js";
export { CONNECTION_TEST_TIMEOUT_MS, testLlmConnection } from "./gateway/test-connection.js";
export type { ConnectionTestResult } from "./gateway/test-connection.js";
export type { SwitchableGateway } from "./gateway/switchable-gateway.js";
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
  ImageEditRequest,
  ImageGenerationResult,
  ImageInput,
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
export {
  IMAGE_EDIT_FETCH_TIMEOUT_MS,
  IMAGE_EDIT_INPUT_MAX_BYTES,
  IMAGE_EDIT_MEDIA_TYPES,
  imageEditSource,
} from "./services/image-edit-source.js";
export type {
  ImageEditField,
  ImageEditSource,
  ImageEditSourceOptions,
} from "./services/image-edit-source.js";

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

// The turn runner and its event log (src/turns).
export { DEFAULT_MAX_STEPS, runTurn } from "./turns/run-turn.js";
export type { RunTurnOptions, TurnOutcome } from "./turns/run-turn.js";
export { DEFAULT_TOOL_TIMEOUT_MS } from "./turns/run-tools.js";
export { MAX_TOOL_OUTPUT_BYTES, boundToolOutput } from "./turns/bound-output.js";
export type { TruncatedOutput } from "./turns/bound-output.js";
export {
  MemoryTurnFrameStore,
  TURN_FRAMES_PAGE,
  TURN_FRAMES_POLL_MS,
  TurnEventLog,
} from "./turns/turn-event-log.js";
export type {
  TurnEventLogOptions,
  TurnFrame,
  TurnFrameStore,
  TurnWriter,
} from "./turns/turn-event-log.js";
// Prompt assembly (src/prompt): skills, @executas, #apps and installed tools for one turn.
export { PromptAssemblyError, assemblePrompt } from "./prompt/assemble-prompt.js";
export { DEFAULT_PROMPT_LIMITS, promptLimits } from "./prompt/limits.js";
export type { PromptLimits } from "./prompt/limits.js";
export { maskCode, parseMentions } from "./prompt/mentions.js";
export type { Mention, MentionKind } from "./prompt/mentions.js";
export type {
  BindExecutaTool,
  ExecutaToolTarget,
  PromptApp,
  PromptExecuta,
  PromptInput,
  SkillCatalog,
} from "./prompt/prompt-input.js";
export { LOAD_SKILL_TOOL } from "./prompt/skills-section.js";
export {
  EXECUTA_TOOL_SEPARATOR,
  TOOL_NAME_MAX_CHARS,
  executaToolName,
  sanitizeToolName,
} from "./prompt/tool-names.js";
export { toolJsonSchema, toolJsonSchemaWithWarnings } from "./prompt/tool-schema.js";
export type { LlmToolSchema } from "./prompt/tool-schema.js";
// Platform tools (src/platform-tools): fs_*, web_search/web_fetch, doc_read/sheet_read, the app
// view tools, and the sandbox/inherit regimes of agent sessions (R95).
export { PlatformToolError, errorOutcome, platformTool } from "./platform-tools/platform-tool.js";
export type { PlatformToolErrorCode, PlatformToolSpec } from "./platform-tools/platform-tool.js";
export { platformBuiltins } from "./platform-tools/builtins.js";
export type { PlatformBuiltinsOptions } from "./platform-tools/builtins.js";
export { PlatformRegimeError, platformToolsFor } from "./platform-tools/platform-tools-for.js";
export type {
  BlockedBy,
  CatalogEntry,
  PlatformRegime,
  PlatformToolsRequest,
  ResolvedPlatformTools,
} from "./platform-tools/platform-tools-for.js";
export { SANDBOX_REGISTRY, isSandboxToolName } from "./platform-tools/registry.js";
export type { RegistryEntry, SandboxToolName, ToolEffect } from "./platform-tools/registry.js";
export { fsTools } from "./platform-tools/fs/fs-tools.js";
export type { FsToolsOptions } from "./platform-tools/fs/fs-read-tools.js";
export type { SharedWorkspaces, WorkspaceAccess } from "./platform-tools/fs/workspace-access.js";
export {
  FS_APPEND_RESULT_MAX_BYTES,
  FS_FILE_MAX_BYTES,
  FS_READ_MAX_BYTES,
  FS_WRITE_MAX_BYTES,
} from "./platform-tools/fs/fs-limits.js";
export {
  openWorkspace,
  resolveInWorkspace,
  workspaceDirName,
} from "./platform-tools/fs/workspace.js";
export type { ResolvedPath } from "./platform-tools/fs/workspace.js";
export { webTools } from "./platform-tools/web/web-tools.js";
export type { WebToolsOptions } from "./platform-tools/web/web-tools.js";
export {
  SEARCH_CONFIG_HINT,
  SEARCH_PROVIDER_KINDS,
  tavilySearchProvider,
} from "./platform-tools/web/search-provider.js";
export type {
  SearchHit,
  SearchProvider,
  SearchProviderKind,
  SearchQuery,
  TavilyProviderOptions,
} from "./platform-tools/web/search-provider.js";
export {
  SearchConfigError,
  WEB_SEARCH_ENV_VARS,
  searchProviderFromEnv,
} from "./platform-tools/web/search-config.js";
export { attachmentTools } from "./platform-tools/attachments/attachment-tools.js";
export { ATTACHMENT_MAX_BYTES, attachmentKind } from "./platform-tools/attachments/attachment.js";
export type {
  Attachment,
  AttachmentKind,
  AttachmentLookup,
} from "./platform-tools/attachments/attachment.js";
export type { AttachmentToolsOptions } from "./platform-tools/attachments/doc-read.js";
export { appViewTools } from "./platform-tools/app-views/app-view-tools.js";
export type { AppViewToolsOptions, ViewApp } from "./platform-tools/app-views/app-view-tools.js";
export {
  APP_VIEW_ERROR_CODES,
  AppViewError,
  dispatcherAppViews,
} from "./platform-tools/app-views/app-views.js";
export type {
  AppViewErrorCode,
  AppViewWindow,
  AppViews,
  CloseAppViewRequest,
  OpenAppViewRequest,
  UpdateAppViewRequest,
  WindowDispatcher,
} from "./platform-tools/app-views/app-views.js";
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
  InvokePlacement,
} from "./executor/executa-pool.js";
export {
  executaTools,
  modelToolName,
  outcomeToToolResult,
  poolBinder,
  poolExecute,
} from "./executor/executa-tools.js";
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
export { unreachableBy } from "./executor/sandbox-dirs.js";
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
