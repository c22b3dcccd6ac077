// Window lifecycle over a WindowStore (E, U24–U33): open with single-instance dedup, status
// transitions, geometry, titles, focus, runtime_state merges under the cap, heartbeats (the idle
// reaper is the dispatcher's: it spans apps). Every change publishes its AnnaAppEvent through `emit` (U37).
import { randomUUID } from "node:crypto";
import type { AnnaAppEvent, UiView, WindowGeometry } from "@anna-ai/app-schema";
import { WINDOW_TITLE_MAX_CHARS } from "@anna-ai/app-schema/host-api";
import type { Clock } from "../clock.js";
import { HostApiError } from "../errors/host-api-error.js";
import { makeEvent } from "../events/make-event.js";
import { applyGeometry, clampSize, initialGeometry } from "./geometry.js";
import { assertStateFits, MAX_RUNTIME_STATE_BYTES, mergeRuntimeState } from "./runtime-state.js";
import { assertTransition, isLiveStatus, type WindowStatus } from "./window-status.js";
import type { WindowRecord, WindowStore } from "./window-store.js";

/** Idle windows are closed after 24 h without a heartbeat or RPC (U33). */
export const WINDOW_IDLE_MS = 24 * 60 * 60 * 1000;
/**
 * Compare-and-set rounds a runtime-state write may lose before it gives up (`rate_limited`).
 * Each round one writer lands, so this is more than the calls one window may have in flight
 * (MAX_IN_FLIGHT_PER_WINDOW, 32): a window's concurrent calls on one server never give up.
 */
export const STATE_WRITE_ATTEMPTS = 64;
/** `window.set_title` bounds (U55): the Host API contract's. */
export { WINDOW_TITLE_MAX_CHARS };

export interface OpenWindowOptions {
  userId: string;
  /** Defaults to the view marked `default: true`, else the first view. */
  view?: string;
  payload?: unknown;
  conversationSessionUuid?: string | null;
  /** `open_view.payload.source` (values unspecified, Z20): e.g. `dev`, `window.open_view`. */
  source?: string;
  byClientId?: string;
}

export interface OpenedWindow {
  window: WindowRecord;
  /** True when a single-instance view re-focused an existing window (A6). */
  reused: boolean;
}

export interface WindowManagerOptions {
  store: WindowStore;
  appId: string;
  versionId: string;
  views: readonly UiView[];
  stateMerge: string;
  clock: Clock;
  emit: (userId: string, event: AnnaAppEvent) => void;
  maxStateBytes?: number;
  /**
   * The next z-index. The multi-tenant dispatcher builds a manager per call and shares one
   * counter between them, so stacking order survives; default a counter of this manager.
   */
  nextZIndex?: () => number;
}

/** A z-index counter: 1, 2, 3, … */
export function zIndexCounter(): () => number {
  let z = 0;
  return () => ++z;
}

export class WindowManager {
  readonly store: WindowStore;
  readonly maxStateBytes: number;
  readonly #o: WindowManagerOptions;
  readonly #nextZ: () => number;

  constructor(options: WindowManagerOptions) {
    this.#o = options;
    this.store = options.store;
    this.maxStateBytes = options.maxStateBytes ?? MAX_RUNTIME_STATE_BYTES;
    this.#nextZ = options.nextZIndex ?? zIndexCounter();
  }

  viewOf(name: string): UiView | undefined {
    return this.#o.views.find((v) => v.name === name);
  }

  defaultView(): UiView | undefined {
    return this.#o.views.find((v) => v.default === true) ?? this.#o.views[0];
  }

  async open(options: OpenWindowOptions): Promise<OpenedWindow> {
    const view = options.view === undefined ? this.defaultView() : this.viewOf(options.view);
    if (view === undefined) {
      const known = this.#o.views.map((v) => v.name).join(", ") || "none";
      throw new HostApiError(
        "invalid_arg",
        options.view === undefined
          ? "the app declares no ui.views"
          : `no view named ${JSON.stringify(options.view)} in ui.views (known: ${known})`,
        { view: options.view ?? null },
      );
    }
    const now = this.#o.clock();
    const conversation = options.conversationSessionUuid ?? null;
    if (view.single_instance === true) {
      const live = await this.store.list({
        userId: options.userId,
        appId: this.#o.appId,
        view: view.name,
        conversationSessionUuid: conversation,
        statuses: ["active", "minimized"],
      });
      // The one instance runs the installed version: a window still on an older version (the
      // person updated the app since) closes, or it would keep running the old bundle for good.
      for (const stale of live.filter((w) => w.versionId !== this.#o.versionId)) {
        await this.close(stale.windowUuid, "app_updated", options.byClientId);
      }
      const existing = live.find((w) => w.versionId === this.#o.versionId);
      if (existing !== undefined) {
        const updated = await this.store.update(existing.windowUuid, {
          status: "active",
          entryPayload: mergePayload(existing.entryPayload, options.payload),
          zIndex: this.#nextZ(),
          lastFocusAt: now,
          lastSeenAt: now,
        });
        if (existing.status !== "active") {
          this.#emit(updated, "status_changed", { status: "active" }, options.byClientId);
        }
        this.#emitOpen(updated, options.source, options.byClientId);
        return { window: updated, reused: true };
      }
    }
    const record: WindowRecord = {
      windowUuid: randomUUID(),
      userId: options.userId,
      appId: this.#o.appId,
      versionId: this.#o.versionId,
      view: view.name,
      status: "active",
      title: view.title ?? view.name,
      geometry: initialGeometry(view),
      runtimeState: {},
      stateGeneration: 0,
      entryPayload: options.payload ?? null,
      conversationSessionUuid: conversation,
      zIndex: this.#nextZ(),
      createdAt: now,
      lastFocusAt: now,
      lastSeenAt: now,
    };
    await this.store.insert(record);
    this.#emitOpen(record, options.source, options.byClientId);
    return { window: record, reused: false };
  }

  /** A window of this app that exists; `not_found` otherwise. */
  async require(windowUuid: string): Promise<WindowRecord> {
    const found = await this.store.get(windowUuid);
    if (found === undefined || found.appId !== this.#o.appId) {
      throw new HostApiError("not_found", `no window ${windowUuid}`, { window_uuid: windowUuid });
    }
    return found;
  }

  /** A live (active/minimized) window; a closed or crashed one is `not_found` (L6657). */
  async requireLive(windowUuid: string): Promise<WindowRecord> {
    const found = await this.require(windowUuid);
    if (!isLiveStatus(found.status)) {
      throw new HostApiError("not_found", `window ${windowUuid} is ${found.status}`, {
        window_uuid: windowUuid,
        status: found.status,
      });
    }
    return found;
  }

  /** Hydration (U39): the user's live windows, optionally of one conversation. */
  list(userId: string, conversationSessionUuid?: string | null): Promise<WindowRecord[]> {
    return this.store.list({
      userId,
      appId: this.#o.appId,
      statuses: ["active", "minimized"],
      ...(conversationSessionUuid === undefined ? {} : { conversationSessionUuid }),
    });
  }

  async setStatus(
    windowUuid: string,
    status: WindowStatus,
    options: { reason?: string; byClientId?: string } = {},
  ): Promise<WindowRecord> {
    const current = await this.require(windowUuid);
    assertTransition(current.status, status);
    if (current.status === status) return current;
    const updated = await this.store.update(windowUuid, { status });
    this.#emit(updated, "status_changed", { status }, options.byClientId);
    if (status === "closed") {
      const payload: Record<string, unknown> = { window_uuid: windowUuid };
      if (options.reason !== undefined) payload.reason = options.reason;
      this.#emit(updated, "close_view", payload, options.byClientId);
    }
    return updated;
  }

  close(windowUuid: string, reason?: string, byClientId?: string): Promise<WindowRecord> {
    return this.setStatus(windowUuid, "closed", {
      ...(reason === undefined ? {} : { reason }),
      ...(byClientId === undefined ? {} : { byClientId }),
    });
  }

  async setTitle(windowUuid: string, title: string, byClientId?: string): Promise<WindowRecord> {
    await this.requireLive(windowUuid);
    const updated = await this.store.update(windowUuid, { title });
    this.#emit(updated, "title_changed", { title }, byClientId);
    return updated;
  }

  async patchGeometry(
    windowUuid: string,
    patch: WindowGeometry,
    byClientId?: string,
  ): Promise<WindowRecord> {
    const current = await this.requireLive(windowUuid);
    const geometry = applyGeometry(this.viewOf(current.view), current.geometry, patch);
    const updated = await this.store.update(windowUuid, { geometry });
    this.#emit(updated, "geometry_changed", { geometry }, byClientId);
    return updated;
  }

  /** `window.resize`: the size clamped to the view's min/max (U55). */
  async resize(windowUuid: string, w: number, h: number): Promise<{ w: number; h: number }> {
    const current = await this.requireLive(windowUuid);
    const size = clampSize(this.viewOf(current.view), w, h);
    await this.patchGeometry(windowUuid, size);
    return size;
  }

  async focus(windowUuid: string, byClientId?: string): Promise<WindowRecord> {
    await this.requireLive(windowUuid);
    const zIndex = this.#nextZ();
    const updated = await this.store.update(windowUuid, {
      zIndex,
      lastFocusAt: this.#o.clock(),
    });
    this.#emit(
      updated,
      "window_focus_changed",
      { window_uuid: windowUuid, z_index: zIndex },
      byClientId,
    );
    return updated;
  }

  /**
   * Merges a patch into runtime_state under `state_merge` and the 256 KiB cap
   * (`state_too_large`, nothing written). Broadcasts `runtime_state_synced` when `broadcast`.
   */
  async patchRuntimeState(
    windowUuid: string,
    patch: Record<string, unknown>,
    options: { broadcast?: boolean; byClientId?: string } = {},
  ): Promise<WindowRecord> {
    return this.#writeState(
      windowUuid,
      (current) => mergeRuntimeState(current.runtimeState, patch, this.#o.stateMerge),
      options,
    );
  }

  /** Replaces runtime_state (the legacy storage backend's delete, `replace_runtime_state`). */
  async replaceRuntimeState(
    windowUuid: string,
    state: Record<string, unknown>,
    options: { broadcast?: boolean; byClientId?: string } = {},
  ): Promise<WindowRecord> {
    return this.#writeState(windowUuid, () => state, options);
  }

  /**
   * Reads the state, computes the next one and writes it only if nobody wrote in between (the
   * store's compare-and-set on `stateGeneration`), else reads again: concurrent patches of one
   * window, on one server or several sharing a store, each land.
   */
  async #writeState(
    windowUuid: string,
    compute: (current: WindowRecord) => Record<string, unknown>,
    options: { broadcast?: boolean; byClientId?: string },
  ): Promise<WindowRecord> {
    for (let attempt = 0; attempt < STATE_WRITE_ATTEMPTS; attempt++) {
      const current = await this.requireLive(windowUuid);
      const next = compute(current);
      assertStateFits(next, this.maxStateBytes);
      const updated = await this.store.updateIfGeneration(windowUuid, current.stateGeneration, {
        runtimeState: next,
        stateGeneration: current.stateGeneration + 1,
      });
      if (updated === undefined) continue;
      if (options.broadcast !== false) {
        this.#emit(updated, "runtime_state_synced", { runtime_state: next }, options.byClientId);
      }
      return updated;
    }
    throw new HostApiError(
      "rate_limited",
      `runtime_state of window ${windowUuid} changed ${STATE_WRITE_ATTEMPTS} times while this write was applied; retry it`,
      { window_uuid: windowUuid },
    );
  }

  /** Broadcasts the full state (`window.ready`, R159). */
  syncState(window: WindowRecord): void {
    this.#emit(window, "runtime_state_synced", { runtime_state: window.runtimeState });
  }

  /** A heartbeat or any RPC keeps the window from the idle reaper. */
  async touch(windowUuid: string): Promise<void> {
    await this.store.update(windowUuid, { lastSeenAt: this.#o.clock() });
  }

  #emitOpen(window: WindowRecord, source: string | undefined, byClientId?: string): void {
    this.#emit(
      window,
      "open_view",
      {
        window_uuid: window.windowUuid,
        app_id: window.appId,
        version_id: window.versionId,
        view: window.view,
        entry_payload: window.entryPayload,
        geometry: window.geometry,
        runtime_state: window.runtimeState,
        source: source ?? null,
      },
      byClientId,
    );
  }

  #emit(
    window: WindowRecord,
    kind: Parameters<typeof makeEvent>[0],
    payload: Record<string, unknown>,
    byClientId?: string,
  ): void {
    this.#o.emit(window.userId, makeEvent(kind, window, payload, this.#o.clock(), byClientId));
  }
}

/**
 * Single-instance re-open merges the new payload into `entry_payload` (U31): shallowly when both
 * are plain objects (Z19), else the new payload replaces the old; no payload keeps it.
 */
function mergePayload(current: unknown, next: unknown): unknown {
  if (next === undefined) return current;
  if (isPlainObject(current) && isPlainObject(next)) return { ...current, ...next };
  return next;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
