// The Host API contract (`@anna-ai/app-schema/host-api`): per method its argument schema, result
// schema and error codes; the string error catalog and the code → HTTP status table.
export {
  HOST_API_ERROR_CODES,
  HOST_API_HTTP_STATUS,
  HTTP_LAYER_ERROR_CODES,
  httpStatusOf,
  isHostApiErrorCode,
  type HostApiErrorCode,
  type HttpLayerErrorCode,
} from "./errors.js";
export {
  HOST_API_CONTRACT,
  hostApiErrorsOf,
  isHostApiMethodKey,
  type ContractCoversMethodTable,
  type HostApiArgs,
  type HostApiContract,
  type HostApiMethodKey,
  type HostApiParsedArgs,
  type HostApiResult,
} from "./contract.js";
export {
  CALL_ERROR_CODES,
  checkedByHandler,
  EmptyResultSchema,
  hostMethod,
  JsonObjectSchema,
  lazySchema,
  NoArgsSchema,
  SERVICE_ERROR_CODES,
  type LazySchema,
  type MethodContract,
} from "./method-contract.js";
export {
  ViewMetaSchema,
  WINDOW_CLOSE_REASON_MAX_CHARS,
  WINDOW_CONTRACT,
  WINDOW_TITLE_MAX_CHARS,
  WindowHelloResultSchema,
  WindowSizeSchema,
  WindowViewSchema,
} from "./window-contract.js";
export {
  JOB_CANCEL_REASON_MAX_CHARS,
  JOB_CLIENT_TAG_MAX_CHARS,
  JOB_ID_PATTERN,
  JOB_STATES,
  JobErrorSchema,
  JobProgressEventSchema,
  JobSnapshotSchema,
  ToolListEntrySchema,
  TOOLS_CONTRACT,
  ToolsInvokeArgsSchema,
  ToolsInvokeAsyncArgsSchema,
  type JobState,
} from "./tools-contract.js";
export {
  AppStorageGetResultSchema,
  AppStorageListResultSchema,
  AppStorageScopeSchema,
  AppStorageSetResultSchema,
  STORAGE_CONTRACT,
  type AppStorageScope,
} from "./storage-contract.js";
export { AppFilesListResultSchema, FILES_CONTRACT } from "./files-contract.js";
export {
  ARTIFACT_KIND_MAX_CHARS,
  ARTIFACT_SUMMARY_MAX_CHARS,
  CHAT_CONTRACT,
  CHAT_MESSAGE_MAX_CHARS,
  type ChatArtifactInput,
} from "./chat-contract.js";
export {
  AGENT_CONTRACT,
  AGENT_LABEL_MAX_CHARS,
  AGENT_SYSTEM_PROMPT_MAX_CHARS,
  AgentSessionInfoSchema,
  IMAGE_APP_MAX_N,
  IMAGE_CONTRACT,
  LLM_CONTRACT,
  LLM_MAX_TOKENS_PER_CALL,
  LlmCompleteArgsSchema,
  UPLOAD_CONTRACT,
} from "./model-contract.js";
export { WEB_CONTRACT } from "./web-contract.js";
export { CREDENTIALS_CONTRACT } from "./credentials-contract.js";
export {
  APPS_CONTRACT,
  AppRefSchema,
  AppsDeckChangeSchema,
  AppsDeckSchema,
  AppsLaunchResultSchema,
} from "./apps-contract.js";
export { RESERVED_CONTRACT } from "./reserved-contract.js";
