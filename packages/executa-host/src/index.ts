// Launch detection and specs (src/launch).
export type { ExecutaType, LaunchSpec } from "./launch/types.js";
export { LaunchError } from "./launch/launch-error.js";
export type { LaunchErrorCode } from "./launch/launch-error.js";
export { detectLaunchSpec } from "./launch/detect.js";
export type { DetectLaunchOptions } from "./launch/detect.js";
export type { DetectOptions } from "./launch/detect-context.js";
export { discoverExecutas, isIgnoredFolder } from "./launch/discover.js";
export { SKILL_FILE, skillFromExecutaJson } from "./launch/skill-folder.js";
export type { SkillFolder } from "./launch/skill-folder.js";
export type { DiscoveryResult } from "./launch/discover.js";
export { listPluginEntries } from "./launch/plugin-entries.js";
export type { PluginEntry } from "./launch/plugin-entries.js";
export { parseSpecString, resolveSpecString, SPEC_KEYS } from "./launch/spec-string.js";
export type {
  ParsedSpecString,
  ResolveSpecStringOptions,
  SpecStringOptions,
} from "./launch/spec-string.js";
export { shellSplit, ShellSplitError } from "./launch/shell-split.js";
export { buildPluginEnv } from "./launch/plugin-env.js";
export type { PluginEnvOptions } from "./launch/plugin-env.js";
export { PATH_LIKE_VARS } from "./launch/path-env.js";
export { platformKey, normalizePlatformKey } from "./launch/platform-key.js";
export { createWhich } from "./launch/which.js";
export type { Which, WhichOptions } from "./launch/which.js";
export {
  TOOLCHAINS,
  compareVersions,
  createVersionProbe,
  parseVersion,
  probeVersion,
  toolchainProblem,
} from "./launch/tool-version.js";
export type { ToolchainCheck, ToolchainName, VersionProbe } from "./launch/tool-version.js";
export { EXECUTA_TYPES } from "./launch/executa-json.js";

// Process supervision, invoke and the pool (src/process, src/host).
export { ExecutaHost } from "./host/executa-host.js";
export type { ExecutaHostOptions, ProcessListener, RegisterOptions } from "./host/executa-host.js";
export {
  DEFAULT_CLIENT_INFO,
  DESCRIBE_TIMEOUT_BINARY_COLD_START_MS,
  DESCRIBE_TIMEOUT_MS,
  HEALTH_TIMEOUT_MS,
  INITIALIZE_TIMEOUT_MS,
  MAX_RESTART_ATTEMPTS,
  PluginProcess,
  RESTART_BACKOFF_BASE_MS,
  RESTART_COUNTER_RESET_MS,
  healthFromResult,
} from "./process/plugin-process.js";
export type {
  HealthReport,
  HealthStatus,
  InvokeOptions,
  PluginProcessOptions,
  PluginTimeouts,
  RestartPolicy,
} from "./process/plugin-process.js";
export type {
  PluginEventName,
  PluginEvents,
  PluginListener,
  PluginState,
} from "./process/events.js";
export {
  DEFAULT_INVOKE_TIMEOUT_MS,
  buildInvokeParams,
  invokeTimeoutMs,
  normaliseInvokeResult,
  toInvokeResultWire,
} from "./process/invoke.js";
export type {
  InvokeContext,
  InvokeOutcome,
  InvokeParams,
  InvokeParamsInput,
  InvokeResultWire,
} from "./process/invoke.js";
export { readDescribeResult } from "./process/manifest.js";
export type { DescribedManifest, ManifestReading } from "./process/manifest.js";
export {
  ExecutaHostError,
  HOST_ERROR_CODE,
  PROCESS_ERROR_CODES,
  hostError,
} from "./process/errors.js";
export type { ProcessErrorCode } from "./process/errors.js";
export {
  PROTOCOL_VERSION_OFFERED,
  initializeParams,
  readInitializeResult,
} from "./process/plugin-instance.js";
export type { ClientInfo, ExitInfo, HandshakeResult } from "./process/plugin-instance.js";
export {
  DEFAULT_SHUTDOWN_GRACE,
  KILL_WAIT_MS,
  SHUTDOWN_REQUEST_TIMEOUT_MS,
  STDIN_GRACE_MS,
  TERM_GRACE_MS,
  shutdownPluginProcess,
} from "./process/shutdown.js";
export type {
  ShutdownGrace,
  ShutdownOptions,
  ShutdownStep,
  ShutdownTarget,
} from "./process/shutdown.js";
export {
  groupAlive,
  groupHasLiveMembers,
  isSupervised,
  pluginExitStatus,
  signalGroup,
  spawnPluginProcess,
} from "./process/spawn.js";
export {
  probeSupervisor,
  resolveSupervisorMode,
  SUPERVISOR_ENV,
  SUPERVISOR_MODES,
  SupervisorError,
  type SupervisorMode,
  type SupervisorStatus,
} from "./process/supervisor.js";
export type { SpawnRequest } from "./process/spawn.js";
export type { LaunchCommand, PluginLauncher, WrappedLaunch } from "./process/launcher.js";
export { resolveExecutable } from "./process/supervisor.js";
export {
  CappedLineSplitter,
  STDERR_MAX_LINE_CHARS,
  STDERR_TAIL_LINES,
  StderrRing,
} from "./process/stderr-ring.js";
export { refuseReverseRequest } from "./process/default-reverse.js";

// Offline storage and files (memory, mock) and the loopback blob server behind their URLs.
export {
  BLOB_MAX_OBJECT_BYTES,
  BLOB_MAX_STORED_BYTES,
  BlobServerError,
  LoopbackBlobServer,
} from "./services/offline/blob-server.js";
export {
  contentDisposition,
  signGrant,
  verifyGrant,
} from "./services/offline/blob-server-signing.js";
export type { SignedGrant } from "./services/offline/blob-server-signing.js";
export type {
  BlobStat,
  LoopbackBlobServerOptions,
  PresignGetOptions,
  PresignPutOptions,
  PresignedUrl,
} from "./services/offline/blob-server.js";
export { createMemoryStorageService } from "./services/offline/storage-memory.js";
export type {
  MemoryStorageGetResult,
  MemoryStorageListItem,
  MemoryStorageOptions,
  MemoryStorageService,
} from "./services/offline/storage-memory.js";
export { createMemoryFilesService } from "./services/offline/files-memory.js";
export type {
  BlobStore,
  MemoryFilesDownloadUrlResult,
  MemoryFilesOptions,
  MemoryFilesService,
  MemoryFilesUploadBeginResult,
} from "./services/offline/files-memory.js";
export { StorageQuota } from "./services/offline/storage-quota.js";
export type {
  QuotaReservation,
  QuotaUsage,
  StorageQuotaOptions,
} from "./services/offline/storage-quota.js";
export {
  DEFAULT_STORAGE_LIMITS,
  FILES_PUT_URL_TTL_S,
  FILES_RESERVATION_TTL_S,
  KV_VALUE_MAX_BYTES,
  STORAGE_QUOTA_BYTES,
} from "./storage/limits.js";
export type { StorageLimits } from "./storage/limits.js";
export { canonicalJson, payloadEtag } from "./storage/canonical-json.js";
export { MOCK_NO_MATCH_REASON, createMockStorageService } from "./services/offline/storage-mock.js";
export { createMockFilesService } from "./services/offline/files-mock.js";

// Offline agent, image and upload services (off, mock with synthetic fallback, synthetic upload).
export {
  AGENT_LIST_LIMIT_DEFAULT,
  AGENT_LIST_LIMIT_MAX,
  AGENT_SESSION_MAX_LIFETIME_S,
  createOfflineAgentService,
} from "./services/offline/agent-offline.js";
// The agent checks and history cursor every agent service shares (offline here, Nexus's on the
// server), so a plugin meets the same codes and limits in the dev tools and in production.
export {
  AGENT_HISTORY_LIMIT_MAX,
  AGENT_LABEL_MAX_CHARS,
  AGENT_RECURSION_LIMIT_MAX,
  checkComplete as checkAgentComplete,
  checkCreate as checkAgentSessionCreate,
  checkHistoryLimit as checkAgentHistoryLimit,
  checkRecursionLimit as checkAgentRecursionLimit,
  checkTtl as checkAgentSessionTtl,
  runTools as agentRunTools,
} from "./services/offline/agent-checks.js";
export type { CreateRequest as AgentSessionCreateChecked } from "./services/offline/agent-checks.js";
export {
  decodeHistoryCursor as decodeAgentHistoryCursor,
  encodeHistoryCursor as encodeAgentHistoryCursor,
} from "./services/offline/agent-history.js";
export {
  checkFrameCap as checkAgentFrameCap,
  finalText as agentFinalText,
} from "./services/offline/agent-frames.js";
export type {
  OfflineAgentCreateResult,
  OfflineAgentOptions,
  OfflineAgentRunResult,
} from "./services/offline/agent-offline.js";
export { AGENT_SESSION_CACHE_MAX_ENTRIES } from "./services/offline/agent-sessions.js";
export { AGENT_MOCK_MODEL } from "./services/offline/agent-frames.js";
export {
  IMAGE_DAILY_WINDOW_MS,
  IMAGE_DEFAULT_DAILY_QUOTA,
  IMAGE_MOCK_MODEL,
  createOfflineImageService,
} from "./services/offline/image-offline.js";
export type {
  ImageBlobStore,
  OfflineImageOptions,
  OfflineImageResult,
} from "./services/offline/image-offline.js";
export { IMAGE_SYNTHETIC_MAX_SIDE_PX, pngSize, solidPng } from "./services/offline/image-png.js";
export {
  IMAGE_DEFAULT_SIZE,
  IMAGE_MAX_SIDE_PX,
  IMAGE_MIN_SIDE_PX,
  checkFetchableUrl,
  checkImageParams,
} from "./services/offline/image-validate.js";
export type { CheckedImageParams } from "./services/offline/image-validate.js";
export { createOfflineUploadService } from "./services/offline/upload-offline.js";
export type { OfflineUploadOptions, UploadBlobStore } from "./services/offline/upload-offline.js";
export { UPLOAD_DEFAULT_ENV, UPLOAD_KEY_PREFIX } from "./services/offline/upload-keys.js";
export { UPLOAD_DENIED_MIME_TYPES } from "./services/offline/upload-mime.js";
// The whole offline assembly: every family from options, the router over them, the lazy blob server.
export { createOfflineHostServices } from "./services/offline-services.js";
export type {
  OfflineHostServices,
  OfflineHostServicesOptions,
} from "./services/offline-services.js";
export { lazyBlobServer, lazyService } from "./services/offline/lazy-blob-server.js";
export type { LazyBlobServer } from "./services/offline/lazy-blob-server.js";
export {
  createOfflineStorage,
  offlineStorageFamilies,
} from "./services/offline/storage-offline.js";
export type {
  OfflineStorage,
  OfflineStorageChoice,
  OfflineStorageMode,
  OfflineStorageOptions,
} from "./services/offline/storage-offline.js";

// Offline sampling and embeddings (off, mock, synthetic) and the model-side helpers they share.
export {
  MOCK_PROVIDER,
  SAMPLING_DISABLED_MESSAGE,
  SYNTHETIC_ECHO_MAX_CHARS,
  SYNTHETIC_ECHO_PREFIX,
  createOfflineSamplingService,
  messageText,
  mockModelName,
} from "./services/offline/sampling-offline.js";
export type {
  OfflineSamplingMode,
  OfflineSamplingOptions,
} from "./services/offline/sampling-offline.js";
export {
  EMBEDDINGS_DISABLED_MESSAGE,
  EMBEDDING_ALIASES,
  OFFLINE_EMBEDDING_PROVIDER,
  SYNTHETIC_EMBEDDING_BACKEND,
  checkEmbeddingInputs,
  createOfflineEmbeddingsService,
} from "./services/offline/embeddings-offline.js";
export type {
  EmbeddingAlias,
  OfflineEmbeddingsMode,
  OfflineEmbeddingsOptions,
} from "./services/offline/embeddings-offline.js";
// Offline web (SSRF-guarded fetch, fixture-answered search) and credentials (configured accounts).
export { createOfflineWebService } from "./services/offline/web-offline.js";
export type { OfflineWebOptions } from "./services/offline/web-offline.js";
export type { WebSearchSource } from "./services/offline/web-search.js";
export {
  SsrfBlockedError,
  SsrfPolicy,
  SYSTEM_RESOLVER,
  WEB_ALLOWED_PORTS,
  WEB_ALLOWED_SCHEMES,
  isBlockedAddress,
  isLoopbackAddress,
} from "./services/offline/web-ssrf.js";
export type {
  CheckedTarget,
  ResolvedAddress,
  Resolver,
  SsrfPolicyOptions,
} from "./services/offline/web-ssrf.js";
export { WEB_MAX_REDIRECTS, WebItemError, guardedFetch } from "./services/offline/web-fetcher.js";
export type { WebItemCode } from "./services/offline/web-fetcher.js";
export { WEB_FETCH_FORMATS, extractHtml } from "./services/offline/web-extract.js";
export type { WebFetchFormat } from "./services/offline/web-extract.js";
export { WEB_IMAGE_MIME_TYPES, sniffImage } from "./services/offline/web-image-sniff.js";
export {
  WEB_APP_BUDGET,
  WEB_FETCH_DEFAULT_TIMEOUT_MS,
  WEB_FETCH_MAX_DOWNLOAD_BYTES,
  WEB_FETCH_MAX_TIMEOUT_MS,
  WEB_IMAGE_FETCH_MAX_BYTES,
  WEB_IMAGE_SEARCH_MAX_RESULTS,
  WEB_PLUGIN_BUDGET,
  WEB_SEARCH_DEFAULT_MAX_RESULTS_PER_CALL,
} from "./services/offline/web-limits.js";
export type { WebBudget } from "./services/offline/web-limits.js";
export {
  CREDENTIALS_TOKEN_TTL_S,
  DEAD_CREDENTIAL_STATUSES,
  createOfflineCredentialsService,
} from "./services/offline/credentials-offline.js";
export type {
  OfflineCredentialAccount,
  OfflineCredentialsConfig,
  OfflineCredentialsOptions,
} from "./services/offline/credentials-offline.js";
export {
  applyResponseFormat,
  checkResponseFormat,
  measureSchema,
  responseFormatMeta,
} from "./services/offline/response-format.js";
export type {
  AppliedResponseFormat,
  ResponseFormatMeta,
  ResponseFormatType,
  SchemaMeasure,
} from "./services/offline/response-format.js";
export {
  MOCK_ERROR_CODE,
  eventsText,
  fixtureRpcError,
} from "./services/offline/sampling-fixture.js";
export { syntheticJson } from "./services/offline/synthetic-json.js";
export { syntheticEmbedding } from "./services/offline/synthetic-vector.js";
export {
  CHARS_PER_TOKEN,
  approxTokens,
  charCount,
  truncateToTokens,
} from "./services/offline/synthetic-tokens.js";
export { MockFixture, MockFixtureError } from "./services/offline/mock-fixture.js";
export type { MockEntry, MockError } from "./services/offline/mock-fixture.js";

// Reverse-RPC router, host services and per-invoke tokens (src/router, src/services, src/tokens).
export type {
  InvokeStart,
  PluginSessionInfo,
  RouterSession,
  RouterSessionFactory,
} from "./router/contracts.js";
export { FINISHED_INVOKES_REMEMBERED, ReverseRpcRouter } from "./router/reverse-rpc-router.js";
export type { InvokeTokenField, ReverseRpcRouterOptions } from "./router/reverse-rpc-router.js";
export {
  AGENT_MAX_FRAMES_PER_RUN,
  DEFAULT_ROUTER_LIMITS,
  EMBEDDINGS_MAX_CHARS_PER_INPUT,
  EMBEDDINGS_MAX_INPUTS_PER_CALL,
  IMAGE_MAX_IMAGES_PER_INVOKE,
  IMAGE_MAX_N_PER_CALL,
  IMAGE_MAX_PER_CALL_EDIT,
  IMAGE_MAX_PER_CALL_GENERATE,
  SAMPLING_MAX_CALLS_PER_INVOKE,
  SAMPLING_MAX_TOKENS_PER_CALL,
  SAMPLING_MAX_TOKENS_PER_INVOKE,
  STORAGE_MAX_CALLS_PER_INVOKE,
  UPLOAD_ALLOWED_PURPOSES,
  UPLOAD_DEFAULT_PURPOSE,
  UPLOAD_INLINE_MAX_BYTES,
  UPLOAD_MAX_FILE_BYTES,
  UPLOAD_MAX_FILES_PER_INVOKE,
  UPLOAD_MAX_TOTAL_BYTES_PER_INVOKE,
} from "./router/limits.js";
export type { RouterLimits } from "./router/limits.js";
export { REVERSE_METHODS } from "./router/method-table.js";
export {
  OAUTH_CREDENTIAL_ALIASES,
  credentialsClaim,
  providersForCredentials,
} from "./router/credential-providers.js";
export type { MethodSpec } from "./router/method-table.js";
export { namedInvokeId } from "./router/correlation.js";
export { DEFAULT_STORAGE_SCOPE, allowedScopes, checkScope } from "./router/storage-scope.js";
export type { RouterProgressEvent, RouterProgressListener } from "./router/progress.js";
export {
  GRANT_FAMILIES,
  createAllowAllGrantPolicy,
  createStaticGrantPolicy,
} from "./services/grants.js";
export type {
  AgentGrant,
  EmbeddingsGrant,
  Grant,
  GrantByFamily,
  GrantFamily,
  GrantInvoke,
  GrantPolicy,
  ImageGrant,
  SamplingGrant,
  StorageGrant,
  UploadGrant,
} from "./services/grants.js";
export type { ServiceContext } from "./services/service-context.js";
export { catalogError } from "./services/service-error.js";
export type { HostServices } from "./services/host-services.js";
export type { SamplingService } from "./services/sampling-service.js";
export { storageOwner } from "./services/storage-service.js";
export type { Scoped, StorageOwner, StorageService } from "./services/storage-service.js";
export type { FilesService } from "./services/files-service.js";
export type { AgentRunObserver, AgentService } from "./services/agent-service.js";
export type { ImageService, WithN } from "./services/image-service.js";
export type { UploadService, WithPurpose } from "./services/upload-service.js";
export type { EmbeddingsService } from "./services/embeddings-service.js";
export { WEB_GRANT_ALL } from "./services/web-service.js";
export type { WebGrant, WebService, WebServiceContext } from "./services/web-service.js";
export type {
  CredentialsGrant,
  CredentialsService,
  CredentialsServiceContext,
} from "./services/credentials-service.js";
export { createRecordingServices } from "./services/recording-services.js";
export type {
  RecordedCall,
  RecordingServices,
  RecordingServicesOptions,
  ServiceName,
} from "./services/recording-services.js";
export { createDisabledServices } from "./services/disabled-services.js";
export { SERVICE_WIRE_METHODS } from "./services/service-wire-methods.js";
export {
  DEFAULT_TOKEN_ISSUER,
  JwtTokenIssuer,
  TOKEN_AUDIENCES,
  TOKEN_CLOCK_TOLERANCE_S,
  TOKEN_TTL_S,
  TokenError,
} from "./tokens/token-issuer.js";
export type {
  JwtTokenIssuerOptions,
  MintClaims,
  TokenAudience,
  TokenBinding,
  TokenErrorCode,
  TokenIssuer,
  VerifiedToken,
} from "./tokens/token-issuer.js";
export { createDevTokenIssuer } from "./tokens/dev-token-issuer.js";
export type { DevTokenIssuerOptions } from "./tokens/dev-token-issuer.js";
export { MCP_BRIDGE_MAIN } from "./launch/mcp-launch.js";
export { callResultOf, contentText, toolAnswerOf } from "./mcp/call-result.js";
export type { McpCallResult, McpContentBlock, ToolAnswer } from "./mcp/call-result.js";
export { mapInputSchema, UnmappableSchemaError } from "./mcp/schema-to-parameters.js";
export type { MappedParameters } from "./mcp/schema-to-parameters.js";
export { readMcpServerConfig } from "./mcp/mcp-server-config.js";
export type { McpServerConfig } from "./mcp/mcp-server-config.js";
export { McpWireError } from "./mcp/wire-error.js";
