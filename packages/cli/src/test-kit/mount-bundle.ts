import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { HOST_API_METHOD_SPELLINGS } from "@anna-ai/app-schema";
import { JsonSyntaxError } from "@anna-ai/app-schema/json-document";
import {
  type AnnaAppRuntime,
  buildNamespaces,
  EventHub,
  HostApiError,
  normaliseArgs,
  SDK_ERROR_CODES,
  StreamRouter,
} from "@anna-ai/app-runtime";
import { type Logger, NULL_LOGGER } from "@anna-ai/jsonrpc";
import { parseJsonText } from "../cli/json-text.js";
import { readAppListing, readBundledToolIds } from "./bundled-tool-ids.js";
import { guessProjectDir } from "./project-dir.js";
import { CallLog } from "./call-log.js";
import { createDefaults, type MockHandler, NO_DEFAULT } from "./default-mocks.js";
import { createHarnessAcl, type HarnessAcl } from "./harness-acl.js";
import { type HarnessEvent, HarnessEvents } from "./harness-events.js";

/** Both documented call styles (A9): a manifest object with mocks, or a manifest path with a bundle dir. */
export interface MountBundleOptions {
  /** The manifest object (`import manifest from "../manifest.json"`) or a path to it. */
  manifest: Record<string, unknown> | string;
  /** `{ "ns.method": (args) => value }`; answers are returned exactly as given (A4). */
  mocks?: Readonly<Record<string, MockHandler>>;
  /** The bundle folder (quickstart style, L4680). Kept for the test; nothing is served. */
  bundle?: string;
  /**
   * Where `app.json` and the bundled `executa.json` files live, for `bundled:<handle>`.
   * Default: the manifest's folder when `manifest` is a path; else the current directory when
   * it holds `app.json` or `manifest.json` (vitest runs from the app's root); else the nearest
   * such folder above the calling test file; else the current directory.
   */
  projectDir?: string;
  /** The simulated window's id (default a random UUID). */
  windowUuid?: string;
  /** The view the window shows (default the manifest's first `ui.views` entry). */
  view?: string;
  entryPayload?: unknown;
  logger?: Logger;
}

/** The SDK surface a bundle sees: `AnnaAppRuntime`, answered in-process. */
export type HarnessRuntime = AnnaAppRuntime;

export interface BundleHarness {
  /** Drop-in for the production SDK (L7734). */
  readonly runtime: HarnessRuntime;
  readonly calls: CallLog;
  readonly events: HarnessEvents;
  readonly acl: HarnessAcl;
  /** The manifest as loaded. */
  readonly manifest: Record<string, unknown>;
  readonly projectDir: string;
  /** The `bundle` option resolved to an absolute path. */
  readonly bundleDir: string | undefined;
  /** The default `storage.*` backend, for seeding and inspecting. */
  readonly storage: Map<string, unknown>;
  /** Replace or add a mock (`"ns.method"`) at any time. */
  mock(key: string, handler: MockHandler): void;
  /** Let pending promise chains settle: resolves after `ms` (default 0) on the timer queue. */
  wait(ms?: number): Promise<void>;
  /** Quickstart style: one Host API call, same as `runtime.call`. */
  call<T = unknown>(ns: string, method: string, args?: Record<string, unknown>): Promise<T>;
  /** Quickstart style: every event delivered since the last drain. */
  drainEvents(): HarnessEvent[];
  /** Later calls reject with `closed`; subscribers are dropped. */
  close(): Promise<void>;
}

/** Thrown by `mountBundle` itself when its options cannot be used (never by a Host API call). */
export class MountBundleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MountBundleError";
  }
}

function loadManifest(manifest: MountBundleOptions["manifest"]): {
  manifest: Record<string, unknown>;
  path: string | undefined;
} {
  if (typeof manifest !== "string") {
    if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
      throw new MountBundleError("mountBundle: `manifest` must be the manifest object or a path");
    }
    // `import manifest from "./manifest.json"` may arrive as a module namespace's `default`.
    const inner = (manifest as { default?: unknown }).default;
    const value =
      typeof inner === "object" && inner !== null && !("ui" in manifest) ? inner : manifest;
    return { manifest: value as Record<string, unknown>, path: undefined };
  }
  const path = resolve(manifest);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new MountBundleError(`mountBundle: cannot read the manifest at ${path}`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = parseJsonText(text);
  } catch (error) {
    const at = error instanceof JsonSyntaxError ? `${path}:${error.line}:${error.column}` : path;
    const detail = error instanceof Error ? error.message : String(error);
    throw new MountBundleError(`mountBundle: ${at}: ${detail}`, { cause: error });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new MountBundleError(`mountBundle: ${path} does not hold a JSON object`);
  }
  return { manifest: parsed as Record<string, unknown>, path };
}

function firstView(manifest: Record<string, unknown>): Record<string, unknown> {
  const ui = manifest["ui"];
  const views = typeof ui === "object" && ui !== null ? (ui as { views?: unknown }).views : [];
  const first: unknown = Array.isArray(views) ? views[0] : undefined;
  return typeof first === "object" && first !== null ? (first as Record<string, unknown>) : {};
}

/** `ns.method` with the table's spelling (`web.imageSearch` → `web.image_search`). */
function canonicalKey(ns: string, method: string): string {
  return `${ns}.${HOST_API_METHOD_SPELLINGS[`${ns}.${method}`] ?? method}`;
}

function splitKey(key: string): [string, string] {
  const dot = key.indexOf(".");
  if (dot <= 0)
    throw new MountBundleError(`mountBundle: mock key ${JSON.stringify(key)} is not "ns.method"`);
  return [key.slice(0, dot), key.slice(dot + 1)];
}

function errorBody(error: unknown): { code: string; message: string; details?: unknown } {
  if (error instanceof HostApiError) return error.toJSON();
  const code =
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string"
      ? (error as { code: string }).code
      : "internal_error";
  return { code, message: error instanceof Error ? error.message : String(error) };
}

/**
 * Mount an app bundle's Host API in-process for vitest (testing page, L7680–L7779): the gate is
 * `manifest.ui.host_api` (denied calls reject with `permission_denied`), answers come from the
 * mocks exactly as given (A4), else `window.*` → `{ok: true}`, `storage.*` → an in-memory map,
 * anything else denied. Every call lands in `calls`.
 */
export async function mountBundle(options: MountBundleOptions): Promise<BundleHarness> {
  // Taken before the first await, while the caller's frame is still on the stack.
  const callerStack = new Error().stack;
  const loaded = loadManifest(options.manifest);
  const manifest = loaded.manifest;
  const projectDir = resolve(
    options.projectDir ??
      (loaded.path !== undefined ? dirname(loaded.path) : guessProjectDir(callerStack)),
  );
  const bundleDir = options.bundle !== undefined ? resolve(options.bundle) : undefined;
  const logger = options.logger ?? NULL_LOGGER;
  const windowUuid = options.windowUuid ?? randomUUID();
  const listing = readAppListing(projectDir);
  const acl = createHarnessAcl(manifest, readBundledToolIds(projectDir));
  const calls = new CallLog();
  const hub = new EventHub(logger);
  const router = new StreamRouter();
  const events = new HarnessEvents(hub, router, windowUuid);
  const defaults = createDefaults(windowUuid);
  const mocks = new Map<string, MockHandler>();
  let closed = false;
  const shutDown = (): void => {
    if (closed) return;
    closed = true;
    router.closeAll(new HostApiError(SDK_ERROR_CODES.CLOSED, "the harness was closed"));
    hub.clear();
  };
  const addMock = (key: string, handler: MockHandler): void => {
    if (typeof handler !== "function") {
      throw new MountBundleError(`mountBundle: the mock for ${key} is not a function`);
    }
    mocks.set(canonicalKey(...splitKey(key)), handler);
  };
  for (const [key, handler] of Object.entries(options.mocks ?? {})) addMock(key, handler);
  const startedAt = performance.now();

  // What the dev harness broadcasts after the defaults' writes (legacy storage → the whole
  // runtime_state, set_title → the title), delivered like the SSE stream: after the call
  // answers, so a handler that writes again cannot recurse synchronously.
  const announce = (key: string, args: Record<string, unknown>): void => {
    let wire: Record<string, unknown> | undefined;
    if (key === "storage.set" || key === "storage.delete") {
      const runtimeState = structuredClone(Object.fromEntries(defaults.storage));
      wire = { kind: "runtime_state_synced", payload: { runtime_state: runtimeState } };
    } else if (key === "window.set_title") {
      wire = { kind: "title_changed", payload: { title: args["title"] } };
    }
    if (wire === undefined) return;
    const event = { ...wire, window_uuid: windowUuid };
    queueMicrotask(() => {
      if (!closed) events.emitWire(event);
    });
  };

  const dispatch = async (
    ns: string,
    rawMethod: string,
    rawArgs: Record<string, unknown>,
  ): Promise<unknown> => {
    const key = canonicalKey(ns, rawMethod);
    const method = key.slice(ns.length + 1);
    const t = Math.round(performance.now() - startedAt);
    const args =
      ns === "tools" && typeof rawArgs["tool_id"] === "string"
        ? { ...rawArgs, tool_id: acl.resolveToolId(rawArgs["tool_id"]) }
        : rawArgs;
    const refuse = (error: HostApiError, outcome: "denied" | "error"): never => {
      calls.record({ key, ns, method, args, outcome, error: error.toJSON(), t });
      throw error;
    };
    if (closed) refuse(new HostApiError(SDK_ERROR_CODES.CLOSED, "the harness was closed"), "error");
    if (!acl.allows(ns, method, args)) {
      refuse(
        new HostApiError("permission_denied", `${key} is not granted by manifest.ui.host_api`, {
          ns,
          method,
        }),
        "denied",
      );
    }
    const mock = mocks.get(key);
    let result: unknown;
    try {
      result =
        mock !== undefined ? await mock(args, { ns, method }) : defaults.answer(ns, method, args);
    } catch (error) {
      calls.record({ key, ns, method, args, outcome: "error", error: errorBody(error), t });
      throw error;
    }
    if (result === NO_DEFAULT) {
      refuse(
        new HostApiError(
          "permission_denied",
          `${key} has no mock: mountBundle answers window.* and storage.* by default; add one with mocks or harness.mock("${key}", fn)`,
          { ns, method },
        ),
        "denied",
      );
    }
    calls.record({ key, ns, method, args, outcome: "ok", result, t });
    if (mock === undefined) announce(key, args);
    return result;
  };

  const namespaces = buildNamespaces({
    raw: (ns, method, args) => dispatch(ns, method, args),
    router,
    hub,
  });
  // A4: mocks come back exactly as given, so `tools.invoke` skips the SDK's envelope unwrapping.
  const tools = namespaces["tools"] ?? {};
  tools["invoke"] = (...callArgs: unknown[]): Promise<unknown> => {
    try {
      return dispatch("tools", "invoke", normaliseArgs("tools", "invoke", callArgs).args);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const view = firstView(manifest);
  const viewName = options.view ?? (typeof view["name"] === "string" ? view["name"] : "main");
  const runtime = {
    windowUuid,
    // The dev harness names the app by its `app.json` slug (A8).
    appId: typeof listing?.["slug"] === "string" ? listing["slug"] : "",
    versionId: "dev",
    capabilities: {},
    hostOrigin: "http://127.0.0.1",
    viewMeta: {
      name: viewName,
      title: typeof view["title"] === "string" ? view["title"] : viewName,
    },
    entryPayload: options.entryPayload,
    get runtimeState() {
      return Object.fromEntries(defaults.storage);
    },
    geometry: {},
    ...namespaces,
    call: (ns: string, method: string, args: Record<string, unknown> = {}) =>
      dispatch(ns, method, args),
    on: (event: string, handler: Parameters<EventHub["on"]>[1]) => hub.on(event, handler),
    close: shutDown,
  } as unknown as HarnessRuntime;

  return {
    runtime,
    calls,
    events,
    acl,
    manifest,
    projectDir,
    bundleDir,
    storage: defaults.storage,
    mock: addMock,
    wait: (ms = 0) => new Promise<void>((done) => setTimeout(done, ms)),
    call: <T>(ns: string, method: string, args: Record<string, unknown> = {}) =>
      dispatch(ns, method, args) as Promise<T>,
    drainEvents: () => events.drain(),
    close: () => {
      shutDown();
      return Promise.resolve();
    },
  };
}
