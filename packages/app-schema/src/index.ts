// Public API of @anna-ai/app-schema. The error catalog is also at @anna-ai/app-schema/errors (no zod).
export { AGENT_ERRORS } from "./errors/agent.js";
export { CREDENTIALS_ERRORS } from "./errors/credentials.js";
export { EMBEDDINGS_ERRORS } from "./errors/embeddings.js";
export { HOST_ERRORS } from "./errors/host.js";
export { IMAGE_ERRORS } from "./errors/image.js";
export {
  ALL_ERRORS,
  ERRORS_BY_FAMILY,
  findByCode,
  findByErrorCode,
  toWireError,
  type WireError,
} from "./errors/lookup.js";
export { PROTOCOL_ERRORS } from "./errors/protocol.js";
export { SAMPLING_ERRORS } from "./errors/sampling.js";
export { FILES_ERRORS, STORAGE_ERRORS } from "./errors/storage.js";
export type { CatalogEntry, ErrorFamily } from "./errors/types.js";
export { UPLOAD_ERRORS } from "./errors/upload.js";
export { WEB_ERRORS } from "./errors/web.js";
export {
  AGENT_HISTORY_LIMIT_DEFAULT,
  AGENT_RECURSION_LIMIT_DEFAULT,
  AGENT_RUN_MAX_FRAMES,
  AGENT_SESSION_TTL_DEFAULT_S,
  AGENT_SESSION_TTL_MAX_S,
  AGENT_SESSION_UUID_PREFIX,
  type AgentCompleteParams,
  AgentCompleteParamsSchema,
  type AgentCompleteResult,
  AgentCompleteResultSchema,
  type AgentFrame,
  AgentFrameSchema,
  type AgentHistoryMessage,
  AgentHistoryMessageSchema,
  type AgentQuotaCaps,
  AgentQuotaCapsSchema,
  agentRunModelPreferences,
  type AgentSessionCancelParams,
  AgentSessionCancelParamsSchema,
  type AgentSessionCancelResult,
  AgentSessionCancelResultSchema,
  type AgentSessionCreateParams,
  AgentSessionCreateParamsSchema,
  type AgentSessionCreateRequest,
  type AgentSessionCreateResult,
  AgentSessionCreateResultSchema,
  type AgentSessionDeleteParams,
  AgentSessionDeleteParamsSchema,
  type AgentSessionDeleteResult,
  AgentSessionDeleteResultSchema,
  type AgentSessionHistoryParams,
  AgentSessionHistoryParamsSchema,
  type AgentSessionHistoryResult,
  AgentSessionHistoryResultSchema,
  type AgentSessionListParams,
  AgentSessionListParamsSchema,
  type AgentSessionListResult,
  AgentSessionListResultSchema,
  type AgentSessionRefreshParams,
  AgentSessionRefreshParamsSchema,
  type AgentSessionRefreshResult,
  AgentSessionRefreshResultSchema,
  type AgentSessionRunParams,
  AgentSessionRunParamsSchema,
  type AgentSessionRunResult,
  AgentSessionRunResultSchema,
  type AgentSessionSummary,
  AgentSessionSummarySchema,
  type AgentSubmode,
  AgentSubmodeSchema,
  normalizeAgentSessionCreate,
} from "./executa/agent.js";
export {
  ClientTimeoutSchema,
  type ModelPreferences,
  ModelPreferencesSchema,
  type ReverseContext,
  ReverseContextSchema,
  reverseInvokeId,
  type ReverseMetadata,
  ReverseMetadataSchema,
} from "./executa/common.js";
export {
  type CredentialAccount,
  CredentialAccountSchema,
  type CredentialsGetTokenParams,
  CredentialsGetTokenParamsSchema,
  type CredentialsGetTokenResult,
  CredentialsGetTokenResultSchema,
  type CredentialsListAccountsParams,
  CredentialsListAccountsParamsSchema,
  type CredentialsListAccountsResult,
  CredentialsListAccountsResultSchema,
} from "./executa/credentials.js";
export {
  type DescribeResultParse,
  manifestWarnings,
  parseDescribeResult,
} from "./executa/describe.js";
export {
  DEFAULT_EMBED_MODEL,
  EMBED_MAX_CHARS_PER_INPUT,
  EMBED_MAX_INPUTS,
  embeddingInputs,
  type EmbeddingsCreateParams,
  EmbeddingsCreateParamsSchema,
  type EmbeddingsCreateResult,
  EmbeddingsCreateResultSchema,
} from "./executa/embeddings.js";
export {
  activeDistribution,
  type BinaryArtifact,
  BinaryArtifactSchema,
  type BinaryAsset,
  BinaryAssetSchema,
  type Distribution,
  DistributionSchema,
  DistributionWithProfilesSchema,
  EXECUTA_TYPES,
  type ExecutaJson,
  ExecutaJsonSchema,
} from "./executa/executa-json.js";
export {
  FILES_DOWNLOAD_TTL_DEFAULT_S,
  FILES_DOWNLOAD_TTL_MAX_S,
  FILES_OBJECT_MAX_BYTES,
  FILES_PATH_MAX_CHARS,
  type FilesDeleteParams,
  FilesDeleteParamsSchema,
  type FilesDeleteResult,
  FilesDeleteResultSchema,
  type FilesDownloadUrlParams,
  FilesDownloadUrlParamsSchema,
  type FilesDownloadUrlResult,
  FilesDownloadUrlResultSchema,
  type FilesListParams,
  FilesListParamsSchema,
  type FilesListResult,
  FilesListResultSchema,
  type FilesObject,
  FilesObjectSchema,
  type FilesUploadBeginParams,
  FilesUploadBeginParamsSchema,
  type FilesUploadBeginResult,
  FilesUploadBeginResultSchema,
  type FilesUploadCompleteParams,
  FilesUploadCompleteParamsSchema,
  type FilesUploadCompleteResult,
  FilesUploadCompleteResultSchema,
} from "./executa/files.js";
export {
  type HealthResult,
  HealthResultSchema,
  healthState,
  type HealthState,
} from "./executa/health.js";
export {
  HOST_CAPABILITIES,
  type HostCapability,
  isHostCapability,
  isStorageCapabilityMistake,
} from "./executa/host-capabilities.js";
export {
  IMAGE_HOST_MAX_N,
  IMAGE_MAX_REFERENCE_URLS,
  IMAGE_URL_TTL_S,
  type ImageEditParams,
  ImageEditParamsSchema,
  type ImageGenerateParams,
  ImageGenerateParamsSchema,
  type ImageResult,
  ImageResultSchema,
} from "./executa/image.js";
export {
  type HostSamplingOffer,
  HostSamplingOfferSchema,
  type InitializeParams,
  InitializeParamsSchema,
  type InitializeResult,
  InitializeResultSchema,
  type NormalizedInitializeParams,
  type NormalizedInitializeResult,
  normalizeInitializeParams,
  normalizeInitializeResult,
  type PeerInfo,
  PeerInfoSchema,
} from "./executa/initialize.js";
export { formatIssues, type SchemaIssue } from "./executa/issues.js";
export {
  type IncomingInvokeParams,
  IncomingInvokeParamsSchema,
  type InvokeContext,
  InvokeContextSchema,
  type InvokeParams,
  InvokeParamsSchema,
  type InvokeResult,
  InvokeResultSchema,
  type NormalizedInvokeParams,
  normalizeInvokeParams,
  normalizeInvokeResult,
} from "./executa/invoke.js";
export {
  type FileTransportPointer,
  FileTransportPointerSchema,
  type JsonRpcErrorData,
  JsonRpcErrorDataSchema,
  type JsonRpcErrorObject,
  JsonRpcErrorObjectSchema,
  type JsonRpcErrorResponse,
  JsonRpcErrorResponseSchema,
  type JsonRpcId,
  JsonRpcIdSchema,
  type JsonRpcMessage,
  JsonRpcMessageSchema,
  type JsonRpcNotification,
  JsonRpcNotificationSchema,
  type JsonRpcRequest,
  JsonRpcRequestSchema,
  type JsonRpcResponse,
  JsonRpcResponseSchema,
  type JsonRpcSuccessResponse,
  JsonRpcSuccessResponseSchema,
  LEGACY_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
} from "./executa/jsonrpc.js";
export {
  type LlmToolSchema,
  type LlmToolSchemaResult,
  toLlmToolSchema,
} from "./executa/llm-tool-schema.js";
export type { ManifestWarning, ManifestWarningCode } from "./executa/manifest-warning.js";
export {
  type Credential,
  type CredentialDeclaration,
  CredentialDeclarationSchema,
  CredentialSchema,
  DEFAULT_TOOL_TIMEOUT_S,
  type ExecutaManifest,
  ExecutaManifestSchema,
  type JsonSchemaParameters,
  JsonSchemaParametersSchema,
  normalizeCredential,
  type NormalizedCredential,
  type RuntimeHints,
  RuntimeHintsSchema,
  TOOL_PARAMETER_TYPES,
  type ToolDefinition,
  ToolDefinitionSchema,
  type ToolParameter,
  ToolParameterSchema,
  type ToolParameterType,
  toolTimeoutMs,
} from "./executa/manifest.js";
export {
  normalizeProgress,
  PROGRESS_MAX_EVENT_BYTES,
  PROGRESS_MAX_EVENTS_PER_S,
  PROGRESS_METHOD,
  PROGRESS_RING_SIZE,
  PROGRESS_TYPES,
  type ProgressEvent,
  type ProgressParams,
  ProgressParamsSchema,
  type ProgressType,
} from "./executa/progress.js";
export {
  isReverseMethod,
  REVERSE_FAMILY_CAPABILITIES,
  REVERSE_METHOD_FAMILY,
  REVERSE_METHOD_REQUIREMENTS,
  type ReverseFamily,
  reverseGateError,
  type ReverseGateInput,
  type ReverseMethod,
  type ReverseMethodRequirement,
} from "./executa/reverse-methods.js";
export { REVERSE_METHOD_SCHEMAS, type ReverseMethodSchemas } from "./executa/reverse-schemas.js";
export {
  DEFAULT_SAMPLING_MAX_TOKENS_PER_CALL,
  normalizeSamplingParams,
  type OnUnsupported,
  OnUnsupportedSchema,
  RESPONSE_SCHEMA_MAX_BYTES,
  RESPONSE_SCHEMA_MAX_DEPTH,
  RESPONSE_SCHEMA_MAX_NODES,
  RESPONSE_SCHEMA_NAME_PATTERN,
  type ResponseFormat,
  ResponseFormatMetaSchema,
  ResponseFormatSchema,
  SAMPLING_MAX_MESSAGES,
  type SamplingContentBlock,
  SamplingContentBlockSchema,
  type SamplingCreateMessageParams,
  SamplingCreateMessageParamsSchema,
  type SamplingCreateMessageResult,
  SamplingCreateMessageResultSchema,
  type SamplingMessage,
  SamplingMessageSchema,
  type SamplingRequest,
} from "./executa/sampling.js";
export {
  clampStorageListLimit,
  DEFAULT_STORAGE_SCOPE,
  resolveStorageScope,
  STORAGE_KEY_MAX_CHARS,
  STORAGE_LIST_DEFAULT_LIMIT,
  STORAGE_LIST_MAX_LIMIT,
  STORAGE_MAX_TAGS,
  STORAGE_TTL_MAX_S,
  type StorageDeleteParams,
  StorageDeleteParamsSchema,
  type StorageDeleteResult,
  StorageDeleteResultSchema,
  type StorageGetParams,
  StorageGetParamsSchema,
  type StorageGetResult,
  StorageGetResultSchema,
  type StorageListItem,
  StorageListItemSchema,
  type StorageListParams,
  StorageListParamsSchema,
  type StorageListResult,
  StorageListResultSchema,
  type StorageScope,
  StorageScopeSchema,
  type StorageSetParams,
  StorageSetParamsSchema,
  type StorageSetResult,
  StorageSetResultSchema,
} from "./executa/storage.js";
export {
  DEFAULT_UPLOAD_PURPOSE,
  type HostUploadConfirmParams,
  HostUploadConfirmParamsSchema,
  type HostUploadFileResult,
  HostUploadFileResultSchema,
  type HostUploadInlineParams,
  HostUploadInlineParamsSchema,
  type HostUploadNegotiateParams,
  HostUploadNegotiateParamsSchema,
  type HostUploadNegotiateResult,
  HostUploadNegotiateResultSchema,
  type HostUploadParams,
  HostUploadParamsSchema,
  type HostUploadResult,
  HostUploadResultSchema,
  INLINE_UPLOAD_MAX_BYTES,
  UPLOAD_GET_URL_TTL_S,
  UPLOAD_PURPOSES,
  UPLOAD_PUT_URL_TTL_S,
  uploadExpectedBytes,
  type UploadPurpose,
} from "./executa/upload.js";
export {
  WEB_FETCH_MAX_URLS,
  WEB_IMAGE_FETCH_DEFAULT_MAX_BYTES,
  WEB_IMAGE_SEARCH_DEFAULT_RESULTS,
  WEB_PLUGIN_MAX_CHARS_PER_PAGE,
  WEB_PLUGIN_MAX_RESPONSE_BYTES,
  WebFetchPageSchema,
  type WebFetchPage,
  WebFetchParamsSchema,
  type WebFetchParams,
  WebFetchResultSchema,
  type WebFetchResult,
  WebImageFetchParamsSchema,
  type WebImageFetchParams,
  WebImageFetchResultSchema,
  type WebImageFetchResult,
  WebImageSearchParamsSchema,
  type WebImageSearchParams,
  WebImageSearchResultSchema,
  type WebImageSearchResult,
  WebSearchParamsSchema,
  type WebSearchParams,
  WebSearchResultSchema,
  type WebSearchResult,
} from "./executa/web.js";
export {
  EXECUTA_JSON_SCHEMAS,
  generateExecutaJsonSchemas,
  JSON_SCHEMA_ID_BASE,
} from "./json-schema/registry.js";
// App file formats (manifest.json schema 1/2, app.json, executa.json rules, SKILL.md frontmatter),
// the Host API method table and the AnnaAppEvent union.
export {
  APP_VERSION_PATTERN,
  appVersionProblem,
  compareAppVersions,
  isAppVersion,
} from "./app/app-version.js";
export {
  type AppDevConfig,
  AppDevConfigSchema,
  DEFAULT_DEV_USER_ID,
  stripDevBlock,
} from "./app/dev-block.js";
export {
  ANNA_APP_EVENT_KINDS,
  ANNA_APP_EVENT_PAYLOADS,
  ANNA_APP_EVENT_TYPE,
  type AnnaAppEvent,
  type AnnaAppEventKind,
  type AnnaAppEventParse,
  AnnaAppEventSchema,
  isAnnaAppEventKind,
  type KnownAnnaAppEvent,
  KnownAnnaAppEventSchema,
  parseAnnaAppEvent,
  type UnknownAnnaAppEvent,
  UnknownAnnaAppEventSchema,
  type WindowGeometry,
  WindowGeometrySchema,
} from "./app/events.js";
export {
  artifactFormat,
  BINARY_ARTIFACT_FORMATS,
  BINARY_ARTIFACT_PLACEHOLDERS,
  BINARY_ASSET_FORMATS,
  BINARY_PLATFORM_KEYS,
  BINARY_PLATFORM_WILDCARDS,
  BINARY_UPLOAD_PLATFORM_KEYS,
  DISTRIBUTION_TYPES,
  MAX_BINARY_ARTIFACT_BYTES,
  MAX_BINARY_PLATFORMS,
  type ExecutaJsonOptions,
  validateExecutaJson,
  mcpUrlProblem,
} from "./app/executa-json.js";
export {
  EXECUTA_REF_LATEST,
  EXECUTA_REF_MIN_VERSION_MAX_CHARS,
  EXECUTA_REF_TOOL_ID_MAX_CHARS,
  type ExecutaRef,
  type ExecutaRefObject,
  ExecutaRefObjectSchema,
  ExecutaRefSchema,
  normalizeExecutaRef,
} from "./app/executa-ref.js";
export {
  ACL_BYPASS_METHODS,
  AGENT_SANDBOX_TOOLS,
  ALWAYS_GRANTED_NAMESPACES,
  expandHostApiGrant,
  HOST_API_GRANT_ALIASES,
  HOST_API_METHOD_SPELLINGS,
  HOST_API_METHODS,
  HOST_API_NAMESPACES,
  type HostApiMethod,
  type HostApiNamespace,
  isHostApiGrantToken,
  isHostApiMethod,
  isHostApiNamespace,
  NON_METHOD_GRANT_NAMESPACES,
} from "./app/host-api-methods.js";
export { type InstalledApp, InstalledAppSchema } from "./app/installed-app.js";
export {
  type AppIssue,
  appIssue,
  type AppIssueSeverity,
  type AppValidation,
  errorsOf,
  formatAppIssue,
  hasErrors,
  issuePointer,
  warningsOf,
} from "./app/issues.js";
export {
  APP_JSON_SCHEMA_ID_BASE,
  APP_JSON_SCHEMAS,
  generateAppJsonSchemas,
} from "./app/json-schemas.js";
export {
  APP_CATEGORIES,
  APP_DESCRIPTION_MAX_CHARS,
  APP_LISTING_KEYS,
  APP_NAME_MAX_CHARS,
  APP_SCREENSHOTS_MAX,
  APP_SLUG_PATTERN,
  APP_TAGLINE_MAX_CHARS,
  APP_URL_MAX_CHARS,
  type AppCategory,
  type AppListing,
  AppListingSchema,
  type BundledExecuta,
  bundledExecutasOf,
  BundledExecutaSchema,
  validateAppListing,
} from "./app/listing.js";
export {
  APP_MANIFEST_KEYS,
  APP_MANIFEST_SCHEMA_VERSIONS,
  type AppManifest,
  type AppManifestInput,
  AppManifestSchema,
  type AppManifestSchemaVersion,
  countUserMessagePlaceholders,
  SYSTEM_PROMPT_ADDENDUM_MAX_CHARS,
  USER_MESSAGE_PLACEHOLDER,
  USER_MESSAGE_PREFIX_TEMPLATE_MAX_CHARS,
} from "./app/manifest.js";
export {
  APP_PERMISSIONS,
  type AppPermission,
  isAppPermission,
  PERMISSION_FOR_METHOD,
  permissionForMethod,
} from "./app/permissions.js";
export {
  formatSpecMessage,
  SPEC_MESSAGES,
  type SpecMessage,
  type SpecMessageId,
} from "./app/spec-messages.js";
export { didYouMean, editDistance, suggestClosest } from "./app/suggest.js";
export { boundedString, codePointLength, quote, QUOTE_MAX_CHARS } from "./app/text.js";
export {
  STORAGE_KEY_SEGMENT_MAX_CHARS,
  storageKeyProblem,
  storageSegmentProblem,
  type StorageKeyProblem,
} from "./storage-keys.js";
export {
  BUNDLED_REF_PREFIX,
  bundledHandle,
  parseToolRef,
  type ToolRef,
  toolRefAllows,
} from "./app/tool-refs.js";
export {
  BUNDLE_PATH_JSON_PATTERN,
  BUNDLE_PATH_PATTERN,
  bundlePathFile,
  bundlePathProblem,
  BundlePathSchema,
  ExternalOriginSchema,
  DEFAULT_UI_BUNDLE_FORMAT,
  UI_BUNDLE_FORMATS,
  type UiBundle,
  UiBundleSchema,
} from "./app/ui-bundle.js";
export {
  BUNDLE_FRAME_SANDBOX,
  type BundleHeaderSource,
  bundleEntryFile,
  bundleSecurityHeaders,
  decodeBundlePath,
  mustBeIframed,
} from "./app/ui-bundle-serving.js";
export {
  BASE_CSP,
  buildBundleCsp,
  CSP_OVERRIDABLE_DIRECTIVES,
  CSP_RESTRICTED_DIRECTIVES,
  CSP_RESTRICTED_SOURCE_PATTERN,
  type CspOverridableDirective,
  type CspOverrides,
  CspOverridesSchema,
  serializeCsp,
} from "./app/ui-csp.js";
export {
  AgentFixedGrantSchema,
  type AgentHostApiSpec,
  AgentHostApiSpecSchema,
  ToolRefListSchema,
  type UiHostApi,
  UiHostApiSchema,
} from "./app/ui-host-api.js";
export {
  DEFAULT_FORM_FACTORS,
  DEFAULT_STATE_MERGE,
  FORM_FACTORS,
  type FormFactor,
  formFactorsOf,
  STATE_MERGE_POLICIES,
  type UiSection,
  UiSectionSchema,
} from "./app/ui-section.js";
export {
  UI_SIZE_MAX_PX,
  UI_SIZE_MIN_PX,
  UI_VIEWS_MAX,
  UI_VIEWS_MIN,
  type UiSize,
  UiSizeSchema,
  type UiView,
  UiViewSchema,
  VIEW_NAME_PATTERN,
  VIEW_SUMMARY_TEMPLATE_MAX_CHARS,
  VIEW_TITLE_MAX_CHARS,
} from "./app/ui-view.js";
export { protoKeyIssues } from "./app/proto-keys.js";
export { isDocumentObject, notAnObject, parseDocument } from "./app/parse-document.js";
export { validateAppManifest } from "./app/validate-manifest.js";
export { hostApiAllows, toolAllowed } from "./app/host-api-acl.js";
export { hostApiRules } from "./app/host-api-rules.js";
export {
  declaredToolIds,
  devBlockRules,
  duplicateValueIssues,
  manifestRules,
} from "./app/manifest-rules.js";
export { uiSectionRules } from "./app/ui-rules.js";
export { describeValue, fromZodIssues, type ZodIssueOptions } from "./app/zod-issues.js";
export {
  type NormalizedSkillFrontmatter,
  SKILL_FRONTMATTER_KEYS,
  SKILL_NAME_PATTERN,
  type SkillFrontmatter,
  type SkillFrontmatterOptions,
  SkillFrontmatterSchema,
  validateSkillFrontmatter,
} from "./skill/frontmatter.js";
export {
  DEFAULT_SKILL_EXECUTION_MODE,
  normalizeSkillMetadata,
  SKILL_EXECUTION_MODES,
  SKILL_METADATA_KEYS,
  SKILL_METADATA_NAMESPACES,
  type SkillExecutionMode,
  type SkillMetadata,
  SkillMetadataSchema,
  type SkillMetadataSource,
  type SkillRequires,
  SkillRequiresSchema,
  type UnwrappedSkillMetadata,
} from "./skill/metadata.js";
export {
  INSTALL_RECIPE_KINDS,
  type InstallRecipe,
  type InstallRecipeKind,
  InstallRecipeSchema,
  RECIPE_KEYS,
  recipeTargetField,
  SKILL_OS_VALUES,
  type SkillOs,
  UNINSTALL_RECIPE_KINDS,
  type UninstallRecipe,
  type UninstallRecipeKind,
  UninstallRecipeSchema,
} from "./skill/recipes.js";
export {
  FIXTURE_FILE_KIND_LABELS,
  fixtureFileKind,
  type FixtureFileKind,
  isNeutralLine,
} from "./recording/file-kind.js";
export { PLUGIN_NAMESPACE } from "./recording/frame-lines.js";
export { RECORD_KINDS } from "./recording/kind-lines.js";
export { lineStyle, parseRecording, RecordingReader } from "./recording/parse-recording.js";
export {
  RECORDING_FORMAT_VERSION,
  type EventRecord,
  type MetaRecord,
  type RecordedError,
  type RecordingRecord,
  type ReqRecord,
  type ResRecord,
} from "./recording/records.js";
export {
  errorCount,
  RECORDING_STYLE_LABELS,
  type CallOutcome,
  type FixtureIssue,
  type IssueSeverity,
  type RecordedCall,
  type RecordedEvent,
  type Recording,
  type RecordingStyle,
} from "./recording/recording.js";
export {
  createJsonlRecorder,
  type JsonlRecorderOptions,
  type Recorder,
} from "./recording/writer.js";
export {
  isSecretKey,
  maskText,
  MIN_SECRET_VALUE_CHARS,
  REDACTED,
  redactSecrets,
  Redactor,
  secretValues,
} from "./redact/redact.js";
// The position-keeping JSON parser (also the zod-free `@anna-ai/app-schema/json-document`).
export {
  escapePointerToken,
  JSON_MAX_DEPTH,
  JsonDocument,
  JsonSyntaxError,
  parseJsonDocument,
  type DuplicateKey,
  type JsonPosition,
  type JsonSpan,
} from "./json-document.js";

// The Host API contract: per method its argument and result schemas and error codes, the error
// catalog and the code → HTTP status table. Its one list of names is host-api/index.ts (also the
// `@anna-ai/app-schema/host-api` entry); the browser SDK imports only its types.
export * from "./host-api/index.js";
