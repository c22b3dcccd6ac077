import type { Logger } from "@anna-ai/jsonrpc";
import type { CallOptions } from "./args.js";
import { Bridge, type BridgeWindow } from "./bridge.js";
import { callTimeoutMs, DEFAULT_CALL_TIMEOUT_MS } from "./call-timeouts.js";
import { HostApiError, SDK_ERROR_CODES } from "./errors.js";
import { EventHub } from "./event-hub.js";
import { mapWireEvent } from "./events.js";
import type { Geometry, HelloResult, Json, ViewMeta } from "./namespace-types.js";
import { type LaunchEnvironment, readLaunchParams, resolveHostOrigin } from "./launch-params.js";
import { buildNamespaces, callHostApi } from "./namespaces.js";
import { StreamRouter } from "./rpc-stream.js";
import type { AnnaAppRuntime as AnnaAppRuntimeShape } from "./runtime.js";
import {
  applyInsets,
  NO_INSETS,
  readInsets,
  SAFE_AREA_EVENT,
  type SafeAreaInsets,
  type StyledElement,
} from "./safe-area.js";
import { TokenKeeper } from "./token-keeper.js";
import { BRIDGE_AUTH_NAMESPACE } from "./wire.js";

/** `window.heartbeat` cadence (L6155, L6367). */
export const HEARTBEAT_INTERVAL_MS = 10_000;
/**
 * `window.hello` is re-sent (same id) this often until answered: the iframe can load before the
 * host page's listener is attached, and a post nobody listens for is lost.
 */
export const HELLO_RESEND_MS = 1_000;
/** How long the host page has to answer `auth.refresh`. */
export const TOKEN_REFRESH_TIMEOUT_MS = 10_000;
/** Host events relayed in an event envelope although they are not `AnnaAppEvent` kinds. */
const RELAYED_HOST_EVENTS: ReadonlySet<string> = new Set([
  "auth.refresh",
  "entry_payload",
  SAFE_AREA_EVENT,
]);
export const SDK_NAME = "@anna-ai/app-runtime";
export const SDK_VERSION = "0.1.0";

export interface ConnectOptions {
  /** Default wait for calls of namespaces without their own default, and for `window.hello`. */
  timeoutMs?: number;
  /**
   * The host page's origin. Default: the parent's origin as the browser reports it, else the
   * iframe URL's own origin. `"*"` turns the origin check off (the source check stays): tests only.
   */
  hostOrigin?: string;
  logger?: Logger;
  /** Sent as `window.hello`'s `client_info`, merged over the SDK's name and version. */
  clientInfo?: Json;
  /** The iframe's window (default `globalThis`): tests pass a fake. */
  window?: BridgeWindow;
  /** Where `wid`/`t` and the host origin are read (default `location` and `document.referrer`). */
  environment?: LaunchEnvironment;
  /**
   * Where the `--anna-safe-area-*` variables are written (default `document.documentElement`;
   * `null` writes none): tests pass a fake.
   */
  root?: StyledElement | null;
}

function discard(): void {}
const NULL_LOGGER: Logger = Object.freeze({
  debug: discard,
  info: discard,
  warn: discard,
  error: discard,
});

function browserEnvironment(): LaunchEnvironment {
  // Structural, not DOM types: the sources also type-check (and run in tests) under Node.
  const scope = globalThis as {
    location?: { href: string; ancestorOrigins?: ArrayLike<string> };
    document?: { referrer: string };
  };
  const href = scope.location?.href ?? "";
  const ancestorOrigins = scope.location?.ancestorOrigins;
  const referrer = scope.document?.referrer;
  return {
    href,
    ...(referrer === undefined ? {} : { referrer }),
    ...(ancestorOrigins === undefined ? {} : { ancestorOrigins }),
  };
}

function documentRoot(): StyledElement | null {
  const scope = globalThis as { document?: { documentElement?: StyledElement } };
  return scope.document?.documentElement ?? null;
}

function record(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};
}

/**
 * Connect the bundle to its host (L6144–L6157): read `wid` and `t` from the iframe URL, send
 * `window.hello` and resolve with the runtime; then `window.ready`, a heartbeat every 10 s, event
 * delivery and token refresh before expiry. Rejects with a HostApiError (`not_connected` when
 * there is no host to talk to, or the host's code when `hello` is refused).
 */
export async function connect(options: ConnectOptions = {}): Promise<AnnaAppRuntimeShape> {
  const logger = options.logger ?? NULL_LOGGER;
  const environment = options.environment ?? browserEnvironment();
  const self = options.window ?? (globalThis as unknown as BridgeWindow);
  const params = readLaunchParams(environment.href);
  if (params === undefined) {
    throw new HostApiError(
      SDK_ERROR_CODES.NOT_CONNECTED,
      "the app URL has no ?wid=…&t=…: open it through the host",
      {
        href: environment.href,
      },
    );
  }
  if (self.parent === undefined || self.parent === null || (self.parent as unknown) === self) {
    throw new HostApiError(
      SDK_ERROR_CODES.NOT_CONNECTED,
      "the app is not inside a host page's iframe",
    );
  }
  const hostOrigin = resolveHostOrigin(environment, options.hostOrigin);
  if (hostOrigin === undefined) {
    throw new HostApiError(
      SDK_ERROR_CODES.NOT_CONNECTED,
      "cannot tell the host page's origin: pass connect({ hostOrigin })",
    );
  }
  const { windowUuid } = params;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;

  const hub = new EventHub(logger);
  const router = new StreamRouter();
  // Filled in once `hello` answers; events that arrive earlier still update it.
  const state: {
    entryPayload: unknown;
    runtimeState: Json;
    geometry: Geometry;
    viewMeta: ViewMeta;
    safeArea: SafeAreaInsets;
  } = {
    entryPayload: undefined,
    runtimeState: {},
    geometry: {},
    viewMeta: { name: "", title: "" },
    safeArea: NO_INSETS,
  };
  // The variables exist from the first frame (0 until the host says otherwise: a desktop host
  // never does), so a bundle's `padding: var(--anna-safe-area-top)` is always defined.
  const root = options.root === undefined ? documentRoot() : options.root;
  if (root !== null) applyInsets(root, NO_INSETS);
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  const keeper: TokenKeeper = new TokenKeeper(
    params.token,
    (): Promise<unknown> =>
      bridge.request(BRIDGE_AUTH_NAMESPACE, "refresh", {}, TOKEN_REFRESH_TIMEOUT_MS),
    logger,
  );

  const stopTimers = (): void => {
    clearInterval(heartbeat);
    heartbeat = undefined;
    keeper.close();
  };

  const onWireEvent = (event: Json): void => {
    const kind = event["kind"];
    if (typeof kind === "string" && RELAYED_HOST_EVENTS.has(kind)) {
      // Not AnnaAppEvent kinds, but the spec's relay forwards them (L4652, L7311).
      deliver(kind, event["payload"], event);
      return;
    }
    const mapped = mapWireEvent(event, windowUuid);
    if (mapped === undefined) {
      logger.debug("app-runtime: dropped an event", { kind: event["kind"] });
      return;
    }
    if (mapped.name === "rpc.stream") router.route(mapped.payload);
    deliver(mapped.name, mapped.payload, mapped.wire);
  };

  const deliver = (name: string, payload: unknown, wire?: Json): void => {
    switch (name) {
      case "entry_payload":
        state.entryPayload = payload;
        break;
      case "runtime_state_synced":
        state.runtimeState = record(payload);
        break;
      case "geometry_changed":
        state.geometry = { ...state.geometry, ...record(payload) };
        break;
      case "title_changed": {
        const title = record(payload)["title"];
        if (typeof title === "string") state.viewMeta = { ...state.viewMeta, title };
        break;
      }
      case "close":
        // The window is closed for good: nothing left to keep alive.
        stopTimers();
        break;
      case "auth.refresh":
        keeper.accept(payload);
        break;
      case SAFE_AREA_EVENT:
        state.safeArea = readInsets(payload);
        if (root !== null) applyInsets(root, state.safeArea);
        break;
    }
    hub.emit(name, payload, wire);
  };

  const bridge: Bridge = new Bridge({
    self,
    hostOrigin,
    windowUuid,
    token: (): string => keeper.token,
    logger,
    onEvent: (message) => {
      if (message.kind === "event") onWireEvent(message.event);
      else deliver(message.name, message.payload);
    },
  });

  /** The wire call: timeouts, and one token refresh + retry on `invalid_token` (L6292). */
  const raw = async (
    ns: string,
    method: string,
    args: Json,
    opts: CallOptions = {},
  ): Promise<unknown> => {
    const timeoutMs = callTimeoutMs(ns, method, args, opts.timeoutMs, defaultTimeoutMs);
    try {
      return await bridge.request(ns, method, args, timeoutMs, opts.signal);
    } catch (error) {
      if (!(error instanceof HostApiError) || error.code !== "invalid_token" || closed) throw error;
      const before = keeper.token;
      await keeper.refreshNow();
      if (keeper.token === before) throw error;
      return bridge.request(ns, method, args, timeoutMs, opts.signal);
    }
  };

  let hello: HelloResult;
  try {
    hello = (await bridge.request(
      "window",
      "hello",
      { client_info: { name: SDK_NAME, version: SDK_VERSION, ...options.clientInfo } },
      defaultTimeoutMs,
      undefined,
      HELLO_RESEND_MS,
    )) as HelloResult;
  } catch (error) {
    bridge.close();
    keeper.close();
    throw error;
  }
  const helloRecord = record(hello);
  state.entryPayload ??= helloRecord["entry_payload"];
  state.runtimeState = { ...record(helloRecord["runtime_state"]), ...state.runtimeState };
  state.geometry = { ...record(helloRecord["geometry"]), ...state.geometry } as Geometry;
  state.viewMeta = { ...(record(helloRecord["view_meta"]) as ViewMeta) };

  const namespaces = buildNamespaces({ raw, router, hub });
  const text = (value: unknown, fallback: string): string =>
    typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;

  const runtime = {
    windowUuid: text(helloRecord["window_uuid"], windowUuid),
    appId: text(helloRecord["app_id"], ""),
    versionId: text(helloRecord["version_id"], ""),
    capabilities: record(helloRecord["capabilities"]),
    hostOrigin,
    get viewMeta() {
      return state.viewMeta;
    },
    get entryPayload() {
      return state.entryPayload;
    },
    get runtimeState() {
      return state.runtimeState;
    },
    get geometry() {
      return state.geometry;
    },
    get safeArea() {
      return state.safeArea;
    },
    ...namespaces,
    call: (ns: string, method: string, args: Json = {}, opts?: CallOptions) =>
      callHostApi(raw, ns, method, args, opts),
    on: (event: string, handler: (payload: unknown, wire?: Json) => void) => hub.on(event, handler),
    close: () => {
      if (closed) return;
      closed = true;
      stopTimers();
      bridge.close();
      router.closeAll(new HostApiError(SDK_ERROR_CODES.CLOSED, "the runtime was closed"));
      hub.clear();
    },
  } as unknown as AnnaAppRuntimeShape;

  let beating = false;
  const background = (method: string): void => {
    // One heartbeat at a time: a slow host gets no pile of them.
    if (closed || (method === "heartbeat" && beating)) return;
    if (method === "heartbeat") beating = true;
    raw("window", method, {})
      .catch((error: unknown) => {
        logger.warn(`app-runtime: window.${method} failed`, { error: String(error) });
        // The window is gone (closed, reaped): stop keeping it alive.
        if (error instanceof HostApiError && error.code === "not_found") stopTimers();
      })
      .finally(() => {
        if (method === "heartbeat") beating = false;
      });
  };
  background("ready");
  heartbeat = setInterval(() => background("heartbeat"), HEARTBEAT_INTERVAL_MS);
  keeper.start();
  return runtime;
}

/**
 * The spec's entry point: `import { AnnaAppRuntime } from ".../index.js"; await
 * AnnaAppRuntime.connect()`. The name is also the runtime's type.
 */
export const AnnaAppRuntime = Object.freeze({ connect });
export type AnnaAppRuntime = AnnaAppRuntimeShape;
