// The typed face of every Host API namespace, derived from the contract in
// `@anna-ai/app-schema/host-api` (type-only imports: the browser bundle carries no schema). What
// is written here by hand is what the SDK adds on top of the wire: `tools.invoke`'s unwrapped
// payload, `invokeAsyncAwait`, `llm.stream`'s RpcStream, the `agent.session(...)` helper and its
// session object, `report_error(err)`, the camel-case `web` aliases. The exported names are the
// ones bundles have imported since the SDK's first version.
import type { HostApiArgs, HostApiResult } from "@anna-ai/app-schema/host-api";
import type { CallOptions } from "./args.js";
import type { RpcStream } from "./rpc-stream.js";
import type { Json, OmitKnown, SdkMethod, SdkNamespace } from "./sdk-method.js";

export type { Json } from "./sdk-method.js";

// --- window ---------------------------------------------------------------------------------
/** `window.hello` (L6363). */
export type HelloResult = HostApiResult<"window.hello">;
export type ViewMeta = HelloResult["view_meta"];
export type Geometry = HelloResult["geometry"];
export type Size = HostApiResult<"window.resize">;

export type WindowNamespace = Omit<SdkNamespace<"window">, "report_error"> & {
  /** Also takes an `Error`: its message and stack are sent. */
  report_error: SdkMethod<"window.report_error"> &
    ((error: Error, opts?: CallOptions) => Promise<HostApiResult<"window.report_error">>);
};

// --- tools ----------------------------------------------------------------------------------
export type ToolInvokeArgs = HostApiArgs<"tools.invoke">;
export type JobSnapshot = HostApiResult<"tools.getJob">;
export type JobState = JobSnapshot["state"];
export type JobProgressEvent = NonNullable<JobSnapshot["progress"]>[number];

export interface InvokeAsyncAwaitOptions {
  onProgress?: (event: JobProgressEvent) => void;
  /** Abort → `tools.cancelJob`, then the promise rejects with `cancelled`. */
  signal?: AbortSignal;
  /** Client wall clock; past it the promise rejects with `wait_timeout` (the job keeps running). */
  timeoutMs?: number;
}

export type ToolsNamespace = Omit<SdkNamespace<"tools">, "invoke"> & {
  /** Resolves with the plugin's payload; `success: false` rejects with `tool_failed` (A4). */
  invoke<T = unknown>(args: ToolInvokeArgs, opts?: CallOptions): Promise<T>;
  invoke<T = unknown>(toolId: string, args?: Json, opts?: CallOptions): Promise<T>;
  /** `invokeAsync` + `tool_job` events + polling `getJob` until the job ends (U60). */
  invokeAsyncAwait<T = unknown>(
    args: HostApiArgs<"tools.invokeAsync">,
    opts?: InvokeAsyncAwaitOptions,
  ): Promise<T>;
  /** Fires on `anna_app_tools_changed`; returns the unsubscribe. */
  onChanged(handler: (payload: unknown) => void): () => void;
};

// --- storage, files -------------------------------------------------------------------------
export type StorageScope = NonNullable<HostApiArgs<"storage.get">["scope"]>;
export type StorageGetResult = HostApiResult<"storage.get">;
export type StorageListArgs = HostApiArgs<"storage.list">;
export type StorageListResult = HostApiResult<"storage.list">;
export type StorageNamespace = SdkNamespace<"storage">;
export type FilesListResult = HostApiResult<"files.list">;
export type FilesNamespace = SdkNamespace<"files">;

// --- chat -----------------------------------------------------------------------------------
export type ChatNamespace = SdkNamespace<"chat">;

// --- llm ------------------------------------------------------------------------------------
export type LlmCompleteArgs = HostApiArgs<"llm.complete">;
export type LlmMessage = LlmCompleteArgs["messages"][number];
export type LlmCompleteResult = HostApiResult<"llm.complete">;
export type EmbedResult = HostApiResult<"llm.embed">;

/** A frame of `llm.stream`: tokens, then one `complete` frame with the whole answer (R120). */
export type LlmStreamFrame =
  | { event: "model_token"; text: string }
  | ({ event: "complete" } & Partial<LlmCompleteResult>)
  | { event: string; [key: string]: unknown };

export type LlmNamespace = Omit<SdkNamespace<"llm">, "stream"> & {
  /** Frames via `rpc.stream`; old hosts reject with a `-32601`-style error (fall back to complete). */
  stream(args: LlmCompleteArgs, opts?: CallOptions): RpcStream<LlmStreamFrame>;
};

// --- agent ----------------------------------------------------------------------------------
export type AgentSessionCreateArgs = HostApiArgs<"agent.session.create">;
export type AgentSessionInfo = HostApiResult<"agent.session.create">;
/** `session.run`'s arguments without the session, which the session object adds. */
export type AgentRunArgs = OmitKnown<HostApiArgs<"agent.session.run">, "app_session_uuid">;

/** The session object `anna.agent.session({...})` resolves with (L6986–L7016). */
export interface AgentSession {
  readonly appSessionUuid: string;
  readonly expiresAt: string | undefined;
  readonly maxLifetimeAt: string | undefined;
  readonly idleTtlSeconds: number | undefined;
  /** The create (or last refresh) answer as the host sent it. */
  readonly info: AgentSessionInfo;
  run(args: AgentRunArgs | string, opts?: CallOptions): RpcStream<Json>;
  cancel(runId: string, opts?: CallOptions): Promise<HostApiResult<"agent.session.cancel">>;
  history(
    args?: OmitKnown<HostApiArgs<"agent.session.history">, "app_session_uuid">,
    opts?: CallOptions,
  ): Promise<HostApiResult<"agent.session.history">>;
  delete(opts?: CallOptions): Promise<HostApiResult<"agent.session.delete">>;
  refresh(opts?: CallOptions): Promise<HostApiResult<"agent.session.refresh">>;
}

/** `anna.agent.session` is both the helper (call it) and the raw `session.*` methods. */
export type AgentSessionMethods = ((
  args: AgentSessionCreateArgs,
  opts?: CallOptions,
) => Promise<AgentSession>) &
  SdkNamespace<"agent">["session"];

export type AgentNamespace = {
  session: AgentSessionMethods;
  /** Shorthands the guide uses (L7092, L7105): `session.refresh` and `session.list`. */
  refresh: SdkMethod<"agent.session.refresh">;
  list: SdkMethod<"agent.session.list">;
};

// --- image, upload --------------------------------------------------------------------------
export type ImageResult = HostApiResult<"image.generate">;
export type ImageNamespace = SdkNamespace<"image">;
export type UploadedFile = HostApiResult<"upload.inline">;
export type UploadNamespace = SdkNamespace<"upload">;

// --- web, credentials -----------------------------------------------------------------------
export type WebSearchArgs = HostApiArgs<"web.search">;
export type WebImageSearchArgs = HostApiArgs<"web.image_search">;
export type WebNamespace = SdkNamespace<"web"> & {
  /** SDK aliases (R155, R156). */
  imageSearch: SdkMethod<"web.image_search">;
  imageFetch: SdkMethod<"web.image_fetch">;
};
export type CredentialsNamespace = SdkNamespace<"credentials">;

// --- apps -----------------------------------------------------------------------------------
/** A numeric app id or `@handle/slug` (R158); the dev harness also takes a bare slug. */
export type AppRef = HostApiArgs<"apps.get">["app_ref"];
/** Every deck answer: the pinned ids in order and the apps they name. */
export type AppsDeck = HostApiResult<"apps.deck.list">;
/** A deck mutation's answer; `changed: false` for a no-op (pinning twice, unpinning unpinned). */
export type AppsDeckChange = HostApiResult<"apps.deck.add">;
/** `apps.launch` of the own app: the window as `window.hello` shows windows. */
export type AppsLaunchResult = HostApiResult<"apps.launch">;
export type AppsNamespace = SdkNamespace<"apps">;

// --- reserved stubs: registered, answer `not_implemented` (R160) ----------------------------
export type PrefsNamespace = SdkNamespace<"prefs">;
export type ArtifactNamespace = SdkNamespace<"artifact">;
export type FsNamespace = SdkNamespace<"fs">;
