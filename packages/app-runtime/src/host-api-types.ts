/**
 * The typed face of every Host API namespace (Reference L10137–L11500, App UI Host API
 * L6357–L6623). The method *list* lives in `@anna-ai/app-schema` (`HOST_API_METHODS`), from
 * which the runtime builds its proxies; these interfaces only give each method its argument and
 * result types. Results are typed as the Reference documents them, loosely where it is vague:
 * hosts add fields, and bundles must not break on them.
 */
import type {
  CredentialsGetTokenResult,
  CredentialsListAccountsResult,
  InstalledApp,
  WebFetchResult,
  WebImageFetchResult,
  WebImageSearchResult,
  WebSearchResult,
} from "@anna-ai/app-schema";
import type { CallOptions } from "./args.js";
import type { RpcStream } from "./rpc-stream.js";

export type Json = Record<string, unknown>;
type Call<A, R> = (args: A, opts?: CallOptions) => Promise<R>;
type OptionalCall<A, R> = (args?: A, opts?: CallOptions) => Promise<R>;

export interface Size {
  w: number;
  h: number;
}

export interface Geometry {
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  monitor_w?: number;
  monitor_h?: number;
  dock_pinned?: boolean;
  dock_side?: "left" | "right" | "bottom" | null;
  snapped?: "left" | "right" | "max" | null;
  [key: string]: unknown;
}

export interface ViewMeta {
  name: string;
  title: string;
  default_size?: Size;
  min_size?: Size;
  max_size?: Size;
  [key: string]: unknown;
}

/** `window.hello` (L6363). */
export interface HelloResult {
  window_uuid: string;
  app_id: string;
  version_id: string;
  view_meta: ViewMeta;
  capabilities: Record<string, unknown>;
  entry_payload: unknown;
  runtime_state: Json;
  geometry: Geometry;
  [key: string]: unknown;
}

export interface WindowNamespace {
  hello: OptionalCall<{ client_info?: Json }, HelloResult>;
  ready: OptionalCall<Json, Json>;
  heartbeat: OptionalCall<Json, Json>;
  set_title(args: { title: string }, opts?: CallOptions): Promise<Json>;
  set_title(title: string, opts?: CallOptions): Promise<Json>;
  resize(args: Size, opts?: CallOptions): Promise<Size>;
  resize(w: number, h: number, opts?: CallOptions): Promise<Size>;
  focus: OptionalCall<Json, Json>;
  close(args?: { reason?: string }, opts?: CallOptions): Promise<Json>;
  close(reason: string, opts?: CallOptions): Promise<Json>;
  open_view(
    args: { view: string; payload?: unknown },
    opts?: CallOptions,
  ): Promise<{ window_uuid: string }>;
  open_view(view: string, payload?: unknown, opts?: CallOptions): Promise<{ window_uuid: string }>;
  report_error(
    args: { message: string; stack?: string; context?: unknown },
    opts?: CallOptions,
  ): Promise<Json>;
  report_error(error: Error, opts?: CallOptions): Promise<Json>;
  report_error(message: string, stack?: string, opts?: CallOptions): Promise<Json>;
}

export interface ToolInvokeArgs {
  /** A tool id, or `bundled:<handle>` (resolved through `window.__ANNA_TOOL_IDS__`). */
  tool_id: string;
  /** Required for minted ids without a `.`/`__` separator (R145). */
  method?: string;
  args?: Json;
  /** The host-side deadline, clamped to [1 000, 90 000] ms. */
  timeoutMs?: number;
}

export type JobState = "queued" | "running" | "succeeded" | "failed" | "cancelled" | "expired";

export interface JobProgressEvent {
  seq: number;
  type: string;
  data?: unknown;
}

export interface JobSnapshot {
  jobId: string;
  state: JobState;
  result?: unknown;
  error?: { code?: string; message?: string; details?: unknown; [key: string]: unknown };
  progress?: JobProgressEvent[];
  lastSeq?: number;
  [key: string]: unknown;
}

export interface InvokeAsyncAwaitOptions {
  onProgress?: (event: JobProgressEvent) => void;
  /** Abort → `tools.cancelJob`, then the promise rejects with `cancelled`. */
  signal?: AbortSignal;
  /** Client wall clock; past it the promise rejects with `wait_timeout` (the job keeps running). */
  timeoutMs?: number;
}

export interface ToolsNamespace {
  list: OptionalCall<
    Json,
    {
      tools: Array<{
        tool_id: string;
        status?: "available" | "deploying" | "unavailable";
        [key: string]: unknown;
      }>;
    }
  >;
  /** Resolves with the plugin's payload; `success: false` rejects with `tool_failed` (A4). */
  invoke<T = unknown>(args: ToolInvokeArgs, opts?: CallOptions): Promise<T>;
  invoke<T = unknown>(toolId: string, args?: Json, opts?: CallOptions): Promise<T>;
  invokeAsync(
    args: ToolInvokeArgs & { clientTag?: string },
    opts?: CallOptions,
  ): Promise<{ jobId: string; state: "queued"; deadlineMs: number }>;
  getJob(
    args: { jobId: string; sinceSeq?: number; limit?: number },
    opts?: CallOptions,
  ): Promise<JobSnapshot>;
  getJob(jobId: string, opts?: CallOptions): Promise<JobSnapshot>;
  cancelJob(
    args: { jobId: string; reason?: string },
    opts?: CallOptions,
  ): Promise<{ jobId: string; state: JobState; cancelled: boolean }>;
  cancelJob(
    jobId: string,
    reason?: string,
    opts?: CallOptions,
  ): Promise<{ jobId: string; state: JobState; cancelled: boolean }>;
  listJobs: OptionalCall<
    {
      tool_id?: string;
      state?: JobState | JobState[];
      clientTag?: string;
      since?: string;
      limit?: number;
    },
    { jobs: JobSnapshot[]; truncated: boolean }
  >;
  /** `invokeAsync` + `tool_job` events + polling `getJob` until the job ends (U60). */
  invokeAsyncAwait<T = unknown>(
    args: ToolInvokeArgs & { clientTag?: string },
    opts?: InvokeAsyncAwaitOptions,
  ): Promise<T>;
  /** Fires on `anna_app_tools_changed`; returns the unsubscribe. */
  onChanged(handler: (payload: unknown) => void): () => void;
}

export type StorageScope = "app" | "user" | "tool";

export interface StorageGetResult {
  value: unknown;
  etag?: string;
  generation?: number;
  exists?: boolean;
  [key: string]: unknown;
}

export interface StorageListArgs {
  prefix?: string;
  cursor?: string;
  limit?: number;
  scope?: StorageScope;
  owner?: string;
}

export interface StorageNamespace {
  get(
    args: { key: string; scope?: StorageScope; owner?: string },
    opts?: CallOptions,
  ): Promise<StorageGetResult>;
  get(key: string, opts?: CallOptions): Promise<StorageGetResult>;
  set(
    args: {
      key: string;
      value: unknown;
      scope?: StorageScope;
      owner?: string;
      if_match?: string;
      metadata?: Json;
      tags?: string[];
      ttl_seconds?: number;
    },
    opts?: CallOptions,
  ): Promise<{
    etag?: string;
    generation?: number;
    size_bytes?: number;
    ok?: boolean;
    [key: string]: unknown;
  }>;
  set(
    key: string,
    value: unknown,
    opts?: CallOptions,
  ): Promise<{
    etag?: string;
    generation?: number;
    size_bytes?: number;
    ok?: boolean;
    [key: string]: unknown;
  }>;
  delete(
    args: { key: string; scope?: StorageScope; owner?: string; if_match?: string },
    opts?: CallOptions,
  ): Promise<{ deleted?: boolean; ok?: boolean }>;
  delete(key: string, opts?: CallOptions): Promise<{ deleted?: boolean; ok?: boolean }>;
  list(args?: StorageListArgs, opts?: CallOptions): Promise<StorageListResult>;
  list(prefix: string, opts?: CallOptions): Promise<StorageListResult>;
}

export interface StorageListResult {
  items: Array<{
    key: string;
    etag: string;
    size_bytes: number;
    metadata: Json | null;
    tags: string[] | null;
    updated_at: string | null;
  }>;
  next_cursor: string | null;
}

export interface FilesNamespace {
  upload_init: Call<
    {
      path: string;
      content_type: string;
      size: number;
      ttl_seconds?: number;
      metadata?: Json;
      tags?: string[];
      if_match?: string;
    },
    {
      upload_id: string;
      put_url: string;
      headers: Record<string, string>;
      expires_at: string;
      r2_key: string;
    }
  >;
  upload_finalize(
    args: { path: string; etag?: string; size?: number; size_bytes?: number; metadata?: Json },
    opts?: CallOptions,
  ): Promise<{ path: string; etag: string; generation: number; size_bytes: number }>;
  upload_finalize(
    path: string,
    opts?: CallOptions,
  ): Promise<{ path: string; etag: string; generation: number; size_bytes: number }>;
  download_url(
    args: {
      path: string;
      ttl_seconds?: number;
      ttl?: number;
      disposition?: string;
      scope?: string;
      owner?: string;
    },
    opts?: CallOptions,
  ): Promise<{
    get_url: string;
    expires_at: string;
    etag: string;
    size_bytes: number;
    content_type: string;
  }>;
  download_url(
    path: string,
    opts?: CallOptions,
  ): Promise<{
    get_url: string;
    expires_at: string;
    etag: string;
    size_bytes: number;
    content_type: string;
  }>;
  download(
    args: { path: string; filename?: string; ttl_seconds?: number; scope?: string; owner?: string },
    opts?: CallOptions,
  ): Promise<{
    ok: true;
    filename: string;
    expires_at: string;
    etag: string;
    size_bytes: number;
    content_type: string;
  }>;
  download(
    path: string,
    opts?: CallOptions,
  ): Promise<{
    ok: true;
    filename: string;
    expires_at: string;
    etag: string;
    size_bytes: number;
    content_type: string;
  }>;
  list(
    args?: { prefix?: string; cursor?: string; limit?: number; scope?: string; owner?: string },
    opts?: CallOptions,
  ): Promise<FilesListResult>;
  list(prefix: string, opts?: CallOptions): Promise<FilesListResult>;
  delete(args: { path: string; if_match?: string }, opts?: CallOptions): Promise<{ deleted: true }>;
  delete(path: string, opts?: CallOptions): Promise<{ deleted: true }>;
}

export interface FilesListResult {
  items: Array<{
    path: string;
    etag: string;
    size_bytes: number;
    content_type: string;
    metadata: Json | null;
    tags: string[] | null;
    updated_at: string | null;
  }>;
  next_cursor: string | null;
}

export interface ChatNamespace {
  /** The Reference nests the card under `artifact` (R116); the guide's flat form is accepted by hosts too. */
  append_artifact: Call<
    | {
        artifact: {
          kind?: string;
          app_slug?: string;
          summary?: string;
          payload_ref?: string;
          data?: unknown;
        };
      }
    | Json,
    { artifact_id: string }
  >;
  write_message(
    args: { role?: string; content: string },
    opts?: CallOptions,
  ): Promise<{ message_id: string }>;
  write_message(content: string, opts?: CallOptions): Promise<{ message_id: string }>;
  /** Always rejects with `not_implemented` today (R118). */
  read_history: OptionalCall<{ limit?: number; before?: string }, never>;
}

export interface LlmMessage {
  role: "user" | "assistant" | "system";
  content: string | Json;
}

export interface LlmCompleteArgs {
  messages: LlmMessage[];
  maxTokens?: number;
  temperature?: number;
  modelPreferences?: {
    hints?: unknown;
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  systemPrompt?: string;
  stopSequences?: string[];
  metadata?: Json;
}

export interface LlmCompleteResult {
  role: "assistant";
  content: { type: "text"; text: string };
  model: string;
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  _meta?: Json;
}

export type LlmStreamFrame =
  | { event: "model_token"; text: string }
  | ({ event: "complete" } & Partial<LlmCompleteResult>)
  | { event: string; [key: string]: unknown };

export interface LlmNamespace {
  complete: Call<LlmCompleteArgs, LlmCompleteResult>;
  /** Frames via `rpc.stream`; old hosts reject with a `-32601`-style error (fall back to complete). */
  stream(args: LlmCompleteArgs, opts?: CallOptions): RpcStream<LlmStreamFrame>;
  embed(
    args: { input: string | string[]; model?: string; user?: string },
    opts?: CallOptions,
  ): Promise<EmbedResult>;
  embed(input: string | string[], opts?: CallOptions): Promise<EmbedResult>;
}

export interface EmbedResult {
  object: "list";
  model: string;
  data: Array<{ object: "embedding"; index: number; embedding: number[] }>;
  usage: { prompt_tokens: number; total_tokens: number };
  _meta?: Json;
}

export interface AgentSessionCreateArgs {
  submode: "auto" | "fixed";
  fixed_client_id?: string;
  label?: string;
  systemPrompt?: string;
  quotaCaps?: Json;
}

export interface AgentSessionInfo {
  app_session_uuid: string;
  expires_in?: number;
  submode?: "auto" | "fixed" | null;
  fixed_client_id?: string | null;
  expires_at?: string;
  max_lifetime_at?: string;
  idle_ttl_seconds?: number;
  [key: string]: unknown;
}

export interface AgentRunArgs {
  content: string;
  attachments?: Array<{
    type: string;
    url?: string;
    data?: string;
    filename?: string;
    detail?: string;
  }>;
  run_id?: string;
  recursion_limit?: number;
  systemPrompt?: string;
  allowed_tools?: string[];
  modelPreferences?: Json;
}

/** The session object `anna.agent.session({...})` resolves with (L6986–L7016). */
export interface AgentSession {
  readonly appSessionUuid: string;
  readonly expiresAt: string | undefined;
  readonly maxLifetimeAt: string | undefined;
  readonly idleTtlSeconds: number | undefined;
  /** The create (or last refresh) answer as the host sent it. */
  readonly info: AgentSessionInfo;
  run(args: AgentRunArgs | string, opts?: CallOptions): RpcStream<Json>;
  cancel(runId: string, opts?: CallOptions): Promise<{ cancelled: boolean }>;
  history(
    args?: { limit?: number },
    opts?: CallOptions,
  ): Promise<{ messages: Array<{ role: string; content: unknown }> }>;
  delete(opts?: CallOptions): Promise<{ deleted: true }>;
  refresh(opts?: CallOptions): Promise<AgentSessionInfo>;
}

/** `anna.agent.session` is both the helper (call it) and the raw `session.*` methods. */
export interface AgentSessionMethods {
  (args: AgentSessionCreateArgs, opts?: CallOptions): Promise<AgentSession>;
  create: Call<AgentSessionCreateArgs, AgentSessionInfo>;
  /** The raw call: `{stream_id, run_id}`; frames arrive as `rpc.stream` events. */
  run: Call<AgentRunArgs & { app_session_uuid: string }, { stream_id: string; run_id: string }>;
  cancel: Call<{ app_session_uuid: string; run_id: string }, { cancelled: boolean }>;
  history(
    args: { app_session_uuid: string; limit?: number },
    opts?: CallOptions,
  ): Promise<{ messages: Array<{ role: string; content: unknown }> }>;
  history(
    appSessionUuid: string,
    opts?: CallOptions,
  ): Promise<{ messages: Array<{ role: string; content: unknown }> }>;
  list: OptionalCall<
    { include_expired?: boolean; limit?: number },
    { sessions: AgentSessionInfo[] }
  >;
  delete(args: { app_session_uuid: string }, opts?: CallOptions): Promise<{ deleted: true }>;
  delete(appSessionUuid: string, opts?: CallOptions): Promise<{ deleted: true }>;
  refresh(args: { app_session_uuid: string }, opts?: CallOptions): Promise<AgentSessionInfo>;
  refresh(appSessionUuid: string, opts?: CallOptions): Promise<AgentSessionInfo>;
  catalog: OptionalCall<Json, { platform_tools: Json[]; [key: string]: unknown }>;
}

export interface AgentNamespace {
  session: AgentSessionMethods;
  /** Shorthands the guide uses (L7092, L7105): `session.refresh` and `session.list`. */
  refresh(args: { app_session_uuid: string }, opts?: CallOptions): Promise<AgentSessionInfo>;
  list: OptionalCall<
    { include_expired?: boolean; limit?: number },
    { sessions: AgentSessionInfo[] }
  >;
}

export interface ImageResult {
  images: Array<{ url: string; [key: string]: unknown }>;
  model?: string;
  [key: string]: unknown;
}

export interface ImageNamespace {
  generate(
    args: {
      prompt: string;
      n?: number;
      size?: string;
      reference_image_urls?: string[];
      quality?: string;
      resolution?: string;
      output_format?: string;
      enable_web_search?: boolean;
      thinking_level?: string;
      modelPreferences?: Json;
    },
    opts?: CallOptions,
  ): Promise<ImageResult>;
  generate(prompt: string, opts?: CallOptions): Promise<ImageResult>;
  edit: Call<
    {
      image_url: string;
      prompt: string;
      n?: number;
      size?: string;
      mask_url?: string;
      quality?: string;
      resolution?: string;
      output_format?: string;
      modelPreferences?: Json;
    },
    ImageResult
  >;
}

export interface UploadedFile {
  r2_key: string;
  mime_type: string;
  bytes_size: number;
  download_url: string;
  expires_in: number;
}

export interface UploadNamespace {
  inline: Call<
    { filename: string; mime_type: string; content_b64: string; purpose?: string },
    UploadedFile
  >;
  negotiate: Call<
    { filename: string; mime_type: string; purpose?: string },
    { r2_key: string; put_url: string; expires_in: number; headers: Record<string, string> }
  >;
  confirm(args: { r2_key: string }, opts?: CallOptions): Promise<UploadedFile>;
  confirm(r2Key: string, opts?: CallOptions): Promise<UploadedFile>;
}

export interface WebSearchArgs {
  query: string;
  max_results?: number;
  search_depth?: "basic" | "advanced";
  topic?: string;
  time_range?: string;
  region?: string;
  include_domains?: string[];
  exclude_domains?: string[];
}

export interface WebImageSearchArgs {
  query: string;
  max_results?: number;
  min_width?: number;
  min_height?: number;
  aspect?: "any" | "wide" | "tall" | "square";
}

export interface WebNamespace {
  search(args: WebSearchArgs, opts?: CallOptions): Promise<WebSearchResult>;
  search(query: string, opts?: CallOptions): Promise<WebSearchResult>;
  fetch(
    args: { urls: string[]; format?: string; max_chars?: number; timeout_ms?: number },
    opts?: CallOptions,
  ): Promise<WebFetchResult>;
  fetch(urls: string[], opts?: CallOptions): Promise<WebFetchResult>;
  image_search(args: WebImageSearchArgs, opts?: CallOptions): Promise<WebImageSearchResult>;
  image_search(query: string, opts?: CallOptions): Promise<WebImageSearchResult>;
  image_fetch(
    args: { url: string; max_bytes?: number; purpose?: string },
    opts?: CallOptions,
  ): Promise<WebImageFetchResult>;
  image_fetch(url: string, opts?: CallOptions): Promise<WebImageFetchResult>;
  /** SDK aliases (R155, R156). */
  imageSearch: WebNamespace["image_search"];
  imageFetch: WebNamespace["image_fetch"];
}

export interface CredentialsNamespace {
  list_accounts(
    args: { provider: string },
    opts?: CallOptions,
  ): Promise<CredentialsListAccountsResult>;
  list_accounts(provider: string, opts?: CallOptions): Promise<CredentialsListAccountsResult>;
  get_token(
    args: { provider: string; account_id?: string },
    opts?: CallOptions,
  ): Promise<CredentialsGetTokenResult>;
  get_token(
    provider: string,
    accountId?: string,
    opts?: CallOptions,
  ): Promise<CredentialsGetTokenResult>;
}

/** A numeric app id or `@handle/slug` (R158); the dev harness also takes a bare slug. */
export type AppRef = string | number;

/** Every deck answer: the pinned ids in order and the apps they name. */
export interface AppsDeck {
  app_ids: string[];
  apps: InstalledApp[];
}

/** A deck mutation's answer; `changed: false` for a no-op (pinning twice, unpinning unpinned). */
export type AppsDeckChange = AppsDeck & { changed: boolean };

/**
 * `apps.*` (R158). The Reference names no arguments; these are the dispatcher's
 * (D-core-25), and `args.ts` maps the positional forms to them.
 */
export interface AppsNamespace {
  list: OptionalCall<Record<string, never>, { apps: InstalledApp[] }>;
  search(args: { query: string }, opts?: CallOptions): Promise<{ apps: InstalledApp[] }>;
  search(query: string, opts?: CallOptions): Promise<{ apps: InstalledApp[] }>;
  get(args: { app_ref: AppRef }, opts?: CallOptions): Promise<{ app: InstalledApp }>;
  get(appRef: AppRef, opts?: CallOptions): Promise<{ app: InstalledApp }>;
  /** Opens a window (emits `open_view`): this app's answers the window, `reused` when deduped. */
  launch(
    args: { app_ref: AppRef; view?: string; payload?: unknown },
    opts?: CallOptions,
  ): Promise<AppsLaunchResult>;
  launch(
    appRef: AppRef,
    view?: string,
    payload?: unknown,
    opts?: CallOptions,
  ): Promise<AppsLaunchResult>;
  deck: {
    list: OptionalCall<Record<string, never>, AppsDeck>;
    add(args: { app_ref: AppRef; position?: number }, opts?: CallOptions): Promise<AppsDeckChange>;
    add(appRef: AppRef, position?: number, opts?: CallOptions): Promise<AppsDeckChange>;
    remove(args: { app_ref: AppRef }, opts?: CallOptions): Promise<AppsDeckChange>;
    remove(appRef: AppRef, opts?: CallOptions): Promise<AppsDeckChange>;
    /** Exactly the pinned ids, in the new order. */
    reorder(args: { app_ids: AppRef[] }, opts?: CallOptions): Promise<AppsDeckChange>;
    reorder(appIds: AppRef[], opts?: CallOptions): Promise<AppsDeckChange>;
  };
}

/** `apps.launch` of the own app: the window as `window.hello` shows windows. */
export interface AppsLaunchResult {
  window_uuid: string;
  view?: string;
  reused?: boolean;
  [key: string]: unknown;
}

/** Reserved stubs: registered, answer `not_implemented` (R160). */
export interface PrefsNamespace {
  get: OptionalCall<Json, Json>;
}
export interface ArtifactNamespace {
  create: OptionalCall<Json, Json>;
  update: OptionalCall<Json, Json>;
  delete: OptionalCall<Json, Json>;
}
export interface FsNamespace {
  read: OptionalCall<Json, Json>;
  write: OptionalCall<Json, Json>;
}
