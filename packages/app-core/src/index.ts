// @anna-ai/app-core: the Host API dispatcher and what it stands on (docs/app-core.md).
export {
  createDispatcher,
  MAX_IN_FLIGHT_PER_WINDOW,
  type CallOptions,
  type CallResult,
  type Dispatcher,
  type DispatcherOptions,
  type HostApiDispatcher,
  type OpenedWindowView,
  type OpenWindowRequest,
  type WindowPatch,
} from "./dispatcher/dispatcher.js";
export {
  createMultiTenantDispatcher,
  type MultiTenantDispatcher,
  type MultiTenantDispatcherOptions,
} from "./dispatcher/multi-tenant-dispatcher.js";
export {
  fixedGrants,
  type AppGrants,
  type AppQuery,
  type AppResolver,
  type GrantResolver,
  type InstalledAppsResolver,
  type ResolvedApp,
} from "./dispatcher/tenancy.js";
export type {
  AppScope,
  CallContext,
  DispatcherCore,
  LlmMode,
  MethodHandler,
  StorageBackend,
  ToolHost,
} from "./dispatcher/types.js";
export { hostApiErrorFromService } from "./dispatcher/service-errors.js";
export {
  HOST_API_ERROR_CODES,
  HostApiError,
  isHostApiError,
  type HostApiErrorCode,
  type HostApiErrorWire,
} from "./errors/host-api-error.js";
export {
  canonicalMethod,
  createHostApiAcl,
  isAclBypass,
  type AclDecision,
  type HostApiAcl,
} from "./acl/host-api-acl.js";
export { checkAgentSubmode } from "./handlers/model-methods.js";
export { SYSTEM_CLOCK, type Clock } from "./clock.js";
export {
  createEventBus,
  EVENT_STREAM_BUFFER_MAX,
  eventMatches,
  type EventBus,
  type EventFilter,
  type EventListener,
  streamEvents,
} from "./events/event-bus.js";
export {
  createMemoryEventLog,
  EVENT_LOG_PENDING_MAX,
  EVENT_LOG_PER_USER_MAX,
  EVENT_LOG_READ_MAX,
  EVENT_LOG_RETENTION_MS,
  type EventLog,
  type EventLogRead,
  type MemoryEventLog,
  type LoggedEvent,
  sequencedEventBus,
  type SequencedEventBus,
} from "./events/event-log.js";
export {
  EVENT_FEED_QUEUE_MAX,
  EventFeed,
  type EventFeedGap,
  type EventFeedSink,
} from "./events/event-feed.js";
export { makeEvent, type EventSubject } from "./events/make-event.js";
export { createFileRecorder } from "./recording/recording.js";
export {
  createJsonlRecorder,
  RECORDING_FORMAT_VERSION,
  type EventRecord,
  type JsonlRecorderOptions,
  type MetaRecord,
  type Recorder,
  type RecordingRecord,
  type ReqRecord,
  type ResRecord,
} from "@anna-ai/app-schema";
export {
  WINDOW_TOKEN_AUDIENCE,
  WINDOW_TOKEN_TTL_S,
  WindowTokenIssuer,
  type VerifiedWindowToken,
  type WindowTokenService,
  type WindowTokenClaims,
  type WindowTokenIssuerOptions,
} from "./tokens/window-tokens.js";
export { createMemoryWindowStore } from "./windows/memory-window-store.js";
export type { WindowListFilter, WindowRecord, WindowStore } from "./windows/window-store.js";
export {
  assertTransition,
  canTransition,
  isLiveStatus,
  WINDOW_STATUSES,
  type WindowStatus,
} from "./windows/window-status.js";
export {
  WINDOW_IDLE_MS,
  WINDOW_TITLE_MAX_CHARS,
  WindowManager,
  zIndexCounter,
  type OpenedWindow,
  type OpenWindowOptions,
} from "./windows/window-manager.js";
export {
  applyGeometry,
  clampSize,
  DEFAULT_WINDOW_SIZE,
  initialGeometry,
} from "./windows/geometry.js";
export {
  assertStateFits,
  MAX_RUNTIME_STATE_BYTES,
  mergeRuntimeState,
  runtimeStateBytes,
} from "./windows/runtime-state.js";
export type {
  ChatArtifact,
  ChatFilter,
  ChatLog,
  ChatMessage,
  ChatStore,
} from "./chat/chat-store.js";
export { createMemoryChatStore, type MemoryChatStore } from "./chat/memory-chat-store.js";
export {
  invokeTimeout,
  splitToolId,
  TOOLS_INVOKE_TIMEOUT_DEFAULT_MS,
  TOOLS_INVOKE_TIMEOUT_MAX_MS,
  TOOLS_INVOKE_TIMEOUT_MIN_MS,
} from "./handlers/tools-methods.js";
export { RESERVED_NAMESPACES } from "./handlers/stub-methods.js";
export { findApp, selfApp } from "./apps/installed-apps.js";
export {
  pinApp,
  reorderDeck,
  unpinApp,
  type DeckChange,
  type DeckStore,
  type DeckUpdate,
} from "./apps/deck-store.js";
export { createMemoryDeckStore } from "./apps/memory-deck-store.js";
export type { AppLaunchRequest, AppsCatalog } from "./apps/installed-apps.js";
export {
  JOB_ACTIVE_PER_USER_MAX,
  JOB_DEADLINE_DEFAULT_MS,
  JOB_DEADLINE_MAX_MS,
  JOB_DEADLINE_MIN_MS,
  JOB_RESULT_MAX_BYTES,
} from "./handlers/tool-jobs.js";
export {
  isTerminalJobState,
  JOB_STATES,
  type JobState,
  type ToolJobChange,
  type ToolJobFilter,
  type ToolJobRecord,
  type ToolJobStore,
} from "./jobs/tool-job-store.js";
export { createMemoryToolJobStore, JOB_RETAINED_MAX } from "./jobs/memory-tool-job-store.js";
