// @anna-ai/app-runtime: the browser SDK an Anna App bundle imports, built to one ES module
// served at /static/anna-apps/_sdk/latest/index.js. Platform-neutral: no `node:` imports.
export {
  AnnaAppRuntime,
  connect,
  HEARTBEAT_INTERVAL_MS,
  HELLO_RESEND_MS,
  SDK_NAME,
  SDK_VERSION,
  TOKEN_REFRESH_TIMEOUT_MS,
} from "./connect.js";
export type { ConnectOptions } from "./connect.js";
export type { Logger } from "@anna-ai/jsonrpc";
export { HostApiError, HostRpcError, hostApiErrorFromWire, SDK_ERROR_CODES } from "./errors.js";
export { mapWireEvent, SDK_EVENT_BY_KIND } from "./events.js";
export type { AnnaEventName, SdkEvent } from "./events.js";
export { EventHub } from "./event-hub.js";
export {
  applyInsets,
  insetsOver,
  NO_INSETS,
  readInsets,
  SAFE_AREA_EVENT,
  safeAreaVariable,
} from "./safe-area.js";
export type { Rect, SafeAreaInsets, StyledElement } from "./safe-area.js";
export type { EventHandler } from "./event-hub.js";
export { normaliseArgs, POSITIONAL_PARAMS } from "./args.js";
export type { CallOptions, NormalisedCall } from "./args.js";
export {
  callTimeoutMs,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_TIMEOUTS_BY_NS,
  TOOL_INVOKE_WAIT_MARGIN_MS,
} from "./call-timeouts.js";
export {
  BRIDGE_AUTH_NAMESPACE,
  decodeHostMessage,
  decodeRpcRequest,
  encodeRequest,
  EVENT_MESSAGE_TYPE,
  RPC_REQUEST_TYPE,
  RPC_RESPONSE_TYPE,
} from "./wire.js";
export type {
  EventMessage,
  HostMessage,
  RpcErrorBody,
  RpcRequestMessage,
  RpcResponseMessage,
} from "./wire.js";
export { Bridge } from "./bridge.js";
export type {
  BridgeOptions,
  BridgeWindow,
  MessageEventLike,
  MessageListener,
  PostTarget,
} from "./bridge.js";
export { readLaunchParams, resolveHostOrigin } from "./launch-params.js";
export type { LaunchEnvironment, LaunchParams } from "./launch-params.js";
export {
  MIN_TOKEN_REFRESH_DELAY_MS,
  readRefreshedToken,
  refreshDelayMs,
  TOKEN_REFRESH_MARGIN_MS,
  TOKEN_REFRESH_RETRY_MS,
  tokenExpiresAtMs,
  WINDOW_TOKEN_TTL_MS,
} from "./window-token.js";
export { unwrapToolResult } from "./tool-result.js";
export { resolveBundledToolId, resolveToolId, toolIds } from "./tool-ids.js";
export { buildNamespaces, callHostApi } from "./namespaces.js";
export type { NamespaceContext, RawCall } from "./namespaces.js";
export {
  MAX_EARLY_FRAMES,
  readStreamFrame,
  RpcStream,
  STREAM_REORDER_WINDOW,
  StreamRouter,
} from "./rpc-stream.js";
export type { StreamFrame, StreamStart } from "./rpc-stream.js";
export { JOB_POLL_INITIAL_MS, JOB_POLL_MAX_MS } from "./invoke-async-await.js";
export type {
  AgentNamespace,
  AgentRunArgs,
  AgentSession,
  AgentSessionCreateArgs,
  AgentSessionInfo,
  AgentSessionMethods,
  AppRef,
  AppsDeck,
  AppsDeckChange,
  AppsLaunchResult,
  AppsNamespace,
  ArtifactNamespace,
  ChatNamespace,
  CredentialsNamespace,
  EmbedResult,
  FilesListResult,
  FilesNamespace,
  FsNamespace,
  Geometry,
  HelloResult,
  ImageNamespace,
  ImageResult,
  InvokeAsyncAwaitOptions,
  JobProgressEvent,
  JobSnapshot,
  JobState,
  Json,
  LlmCompleteArgs,
  LlmCompleteResult,
  LlmMessage,
  LlmNamespace,
  LlmStreamFrame,
  PrefsNamespace,
  Size,
  StorageGetResult,
  StorageListArgs,
  StorageListResult,
  StorageNamespace,
  StorageScope,
  ToolInvokeArgs,
  ToolsNamespace,
  UploadedFile,
  UploadNamespace,
  ViewMeta,
  WebImageSearchArgs,
  WebNamespace,
  WebSearchArgs,
  WindowNamespace,
} from "./namespace-types.js";
export type { OmitKnown, SdkMethod, SdkNamespace } from "./sdk-method.js";
export type { PositionalParams } from "./args.js";
export type { HostApiArgs, HostApiMethodKey, HostApiResult } from "@anna-ai/app-schema/host-api";
export type {
  CredentialsGetTokenResult,
  CredentialsListAccountsResult,
  InstalledApp,
  WebFetchResult,
  WebImageFetchResult,
  WebImageSearchResult,
  WebSearchResult,
} from "@anna-ai/app-schema";
