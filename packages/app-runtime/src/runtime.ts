import type { HostApiMethod, HostApiNamespace } from "@anna-ai/app-schema";
import type { CallOptions } from "./args.js";
import type { AnnaEventName } from "./events.js";
import type { EventHandler } from "./event-hub.js";
import type { SafeAreaInsets } from "./safe-area.js";
import type {
  AgentNamespace,
  AppsNamespace,
  ArtifactNamespace,
  ChatNamespace,
  CredentialsNamespace,
  FilesNamespace,
  FsNamespace,
  Geometry,
  ImageNamespace,
  Json,
  LlmNamespace,
  PrefsNamespace,
  StorageNamespace,
  ToolsNamespace,
  UploadNamespace,
  ViewMeta,
  WebNamespace,
  WindowNamespace,
} from "./namespace-types.js";

/**
 * What `AnnaAppRuntime.connect()` resolves with (L6161–L6201): the window's identity and state
 * from `window.hello`, one property per Host API namespace, events, and `close()`.
 * State fields follow the events: `entryPayload` on `entry_payload`, `runtimeState` on
 * `runtime_state_synced`, `geometry` on `geometry_changed`.
 */
export interface AnnaAppRuntime {
  readonly windowUuid: string;
  readonly appId: string;
  readonly versionId: string;
  readonly viewMeta: ViewMeta;
  readonly capabilities: Record<string, unknown>;
  readonly entryPayload: unknown;
  readonly runtimeState: Json;
  readonly geometry: Geometry;
  /**
   * How much of the device's unsafe edges (notch, home indicator) lies over this window, in px;
   * all 0 on desktop. The same values as the `--anna-safe-area-*` CSS variables the SDK writes on
   * the root element; `on("safe_area")` hears changes (rotation).
   */
  readonly safeArea: SafeAreaInsets;
  /** The host page's origin the bridge talks to. */
  readonly hostOrigin: string;

  readonly window: WindowNamespace;
  readonly tools: ToolsNamespace;
  readonly storage: StorageNamespace;
  readonly files: FilesNamespace;
  readonly chat: ChatNamespace;
  readonly llm: LlmNamespace;
  readonly agent: AgentNamespace;
  readonly image: ImageNamespace;
  readonly upload: UploadNamespace;
  readonly web: WebNamespace;
  readonly credentials: CredentialsNamespace;
  readonly apps: AppsNamespace;
  readonly prefs: PrefsNamespace;
  readonly artifact: ArtifactNamespace;
  readonly fs: FsNamespace;

  /** Any Host API method by name, with the same semantics as the namespace proxies. */
  call<T = unknown>(
    ns: string,
    method: string,
    args?: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<T>;
  /** Subscribe to an SDK event (see events.ts for the wire → SDK names); returns the unsubscribe. */
  on(event: AnnaEventName | (string & {}), handler: EventHandler): () => void;
  /**
   * Stop the heartbeat and token refresh, stop listening, reject pending calls with `closed`.
   * The window itself stays open: that is `window.close()`.
   */
  close(): void;
}

/** `session.create` → `session`: the member a dotted method hangs under. */
type MemberOf<M extends string> = M extends `${infer Head}.${string}` ? Head : M;
/** Methods of the Host API table that have no typed member on the runtime. Must stay `never`. */
type UntypedMethods = {
  [N in HostApiNamespace]: Exclude<MemberOf<HostApiMethod<N>>, keyof AnnaAppRuntime[N]>;
}[HostApiNamespace];
type MustBeNever<T extends never> = T;
/** Compile-time check that the typed interfaces cover `HOST_API_METHODS`; `tsc -b` fails otherwise. */
export type TypedSurfaceCoversHostApiTable = MustBeNever<UntypedMethods>;
