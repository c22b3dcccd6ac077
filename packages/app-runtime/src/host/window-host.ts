// The host of app windows on a page (the platform dashboard, `anna-app dev`): frames on a desk,
// moved by the title bar, resized by the corner handle within the view's min/max (Alt+arrows and
// Alt+Shift+arrows from the keyboard), minimised to a dock (iframe unmounted, L5980) and restored,
// closed, and focused (brought to front). In the mobile form factor (L6824) every window is a
// full-screen sheet, the newest on top: the bar's minimise is "Back", and nothing is dragged,
// resized or moved by keys (geometry is a no-op on mobile, L6868). Every change
// is a PATCH of the runtime windows API, and what the server answers (and its events:
// geometry_changed, status_changed, window_focus_changed) is what the frame shows, so the server's
// window, the other tabs and the app stay in step. The bridge answers the iframes' calls; the
// event stream is relayed to the frames it concerns.
import { postNamedEvent, relayEvent, sameApp, type RuntimeEvent } from "./event-relay.js";
import { followRuntimeEvents, type FollowOptions } from "./event-stream.js";
import {
  barLabel,
  button,
  buildFrame,
  limitsOf,
  mountIframe,
  placeFrame,
  unmountIframe,
  type FrameState,
  type ViewLimits,
} from "./frame-element.js";
import { startMessageBridge, type DroppedMessage, type TokenAnswer } from "./message-bridge.js";
import { pointerDrag } from "./pointer-drag.js";
import type { SafeAreaInsets } from "../safe-area.js";
import { measurePageInsets, SafeAreaFollower } from "./safe-area-follow.js";
import {
  DEFAULT_API_BASE,
  runtimeClient,
  type Answer,
  type FormFactor,
  type Geometry,
  type OpenedWindow,
  type RuntimeClient,
  type WindowInfo,
  type WindowPatch,
  type WireError,
} from "./runtime-client.js";

export interface Size {
  w: number;
  h: number;
}

/** A view's size bounds as the manifest declares them (`ui.views[]`). */
export interface ViewSpec {
  name: string;
  min_size?: Size | null;
  max_size?: Size | null;
}

/** A window on the desk, as the page may read it (the host's own record, typed readonly). */
export interface HostedFrame {
  readonly wid: string;
  readonly view: string;
  readonly appId: string | undefined;
  /** The conversation the window belongs to (`conversation_session_uuid`); null for none. */
  readonly conversationId: string | null;
  /** What the view's manifest allows, once the app said hello (`view_meta`). */
  readonly limits: Readonly<ViewLimits> | undefined;
  /** The title bar's text. */
  readonly title: string;
  readonly status: string;
  /** Events reach the iframe only after its `window.hello`. */
  readonly helloed: boolean;
  /** While mounted (not minimised). */
  readonly iframe: HTMLIFrameElement | null;
  readonly box: HTMLDivElement;
  readonly geometry: Readonly<Geometry>;
  readonly url: string;
}

/** Something the host did not do, for the page's log: a dropped message, a refused request. */
export type HostReport =
  | DroppedMessage
  | {
      kind: "refused";
      action: "patch" | "close";
      wid: string;
      error: WireError;
      patch?: WindowPatch;
    }
  | { kind: "bad_event"; reason: string; data: unknown };

export interface WindowHostOptions {
  /** Where the frames go; they are placed absolutely inside it. */
  container: HTMLElement;
  /** Where the chips of minimised windows go. */
  dock: HTMLElement;
  /** The views' size bounds; a view not listed gets the manifest schema's. */
  views?: readonly ViewSpec[];
  /** The runtime routes' prefix (default `/api/v1/anna-apps/runtime`). */
  apiBase?: string;
  /** The fetch the host calls the runtime with (default the page's). */
  fetch?: typeof fetch;
  onReport?: (report: HostReport) => void;
  /**
   * A fresh token for a window, for `auth.refresh`. The default asks the windows API
   * (`GET /windows/{wid}` mints one); `anna-app dev` mints and records it instead.
   */
  refreshToken?: (wid: string) => Promise<TokenAnswer>;
  /** Who answers rpcs, as a timeout message names it (default "the server"). */
  serverName?: string;
  /**
   * Whether a window opened elsewhere (an `open_view` event: a chat turn, another tab, the app)
   * goes on this desk; default every one. The dashboard's desk takes its conversation's only.
   */
  accepts?: (win: WindowInfo) => boolean;
  /** The container the desk is (default desktop); `setFormFactor` changes it. */
  formFactor?: FormFactor;
  /**
   * What the bar's minimise button says on mobile (default "‹ Back", "Back to the chat"): a page
   * with no chat behind its windows, such as the mobile shell, says where Back goes.
   */
  mobileBackTitle?: string;
  /**
   * The page's safe-area insets (default: measured from the page's `env(safe-area-inset-*)`); each
   * iframe is told the part that lies over it (`safe_area`, the SDK's `--anna-safe-area-*`).
   */
  safeArea?: () => SafeAreaInsets;
}

export type { FormFactor };

/** The manifest schema's size bounds when a view declares none (app-schema UI_SIZE_*_PX). */
const SIZE_MIN_PX = 120;
const SIZE_MAX_PX = 4096;
/** A window opened at (0, 0) beside others is offset by this much per open frame. */
const CASCADE_STEP_PX = 32;
/** How often the page checks which iframe holds the focus while focus is inside one. */
const FOCUS_POLL_MS = 150;
/** One Alt+arrow press moves or resizes a window by this much. */
const KEY_STEP_PX = 16;
/** Key presses in a row become one PATCH, sent once the keys rest this long. */
const KEY_PATCH_DELAY_MS = 300;
/** The bar's minimise button, as each form factor says it. */
const MINIMISE_LABEL: Record<FormFactor, { text: string; title: string }> = {
  desktop: { text: "—", title: "Minimise to the dock" },
  mobile: { text: "‹ Back", title: "Back to the chat" },
};
const ARROWS: Record<string, { dx: number; dy: number }> = {
  ArrowLeft: { dx: -1, dy: 0 },
  ArrowRight: { dx: 1, dy: 0 },
  ArrowUp: { dx: 0, dy: -1 },
  ArrowDown: { dx: 0, dy: 1 },
};

const clamp = (value: number, min: number, max: number): number =>
  Math.min(Math.max(Math.round(value), min), max);

const isInside = (target: EventTarget | null, selector: string): boolean =>
  target instanceof Element && target.closest(selector) !== null;

export class WindowHost {
  readonly client: RuntimeClient;
  readonly #options: WindowHostOptions;
  readonly #frames = new Map<string, FrameState>();
  readonly #views = new Map<string, ViewSpec>();
  readonly #listeners = new Set<() => void>();
  readonly #stops: Array<() => void> = [];
  #focusedWid: string | undefined;
  /** The window a focus PATCH is in flight for: clicks and focus checks do not send it twice. */
  #focusing: string | undefined;
  #formFactor: FormFactor;
  /** Per window, the PATCH that a run of key presses is waiting to send. */
  readonly #keyPatches = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #safeArea: SafeAreaFollower;

  constructor(options: WindowHostOptions) {
    this.#options = options;
    this.#safeArea = new SafeAreaFollower(
      () => this.#frames.values(),
      options.safeArea ?? (() => measurePageInsets(document)),
    );
    const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.client = runtimeClient(
      options.apiBase ?? DEFAULT_API_BASE,
      fetchFn,
      () => this.#formFactor,
    );
    for (const view of options.views ?? []) this.#views.set(view.name, view);
    this.#formFactor = options.formFactor ?? "desktop";
    options.container.dataset["formFactor"] = this.#formFactor;
  }

  formFactor(): FormFactor {
    return this.#formFactor;
  }

  /**
   * Switches the container: on mobile each window is a full-screen sheet (the page's stylesheet
   * places it by `[data-form-factor="mobile"]` on the container) whose minimise says Back.
   */
  setFormFactor(formFactor: FormFactor): void {
    if (formFactor === this.#formFactor) return;
    this.#formFactor = formFactor;
    this.#options.container.dataset["formFactor"] = formFactor;
    for (const frame of this.#frames.values()) {
      this.#labelMinimise(frame);
      void this.#relink(frame);
    }
    this.#safeArea.refresh();
    this.#changed();
  }

  /** Re-measures the safe areas and tells the frames (after the page moved its layout). */
  refreshSafeArea(): void {
    this.#safeArea.refresh();
  }

  /** Reloads a mounted frame whose entry differs in the new container (a `mobile_entry`). */
  async #relink(frame: FrameState): Promise<void> {
    if (!frame.iframe) return;
    const link = await this.client.windowLink(frame.wid);
    if (!link.ok || !frame.iframe) return;
    const path = (url: string): string => new URL(url, document.baseURI).pathname;
    if (path(link.url) === path(frame.url)) return;
    unmountIframe(frame);
    mountIframe(frame, link.url);
  }

  /** Starts answering the iframes' messages and following the focus into them. Idempotent. */
  start(): void {
    if (this.#stops.length > 0) return;
    this.#stops.push(
      startMessageBridge(window, {
        frameOf: (source) => this.#frameOf(source),
        client: this.client,
        refreshToken: (frame) => this.#refreshToken(frame.wid),
        onDropped: (report) => this.#report(report),
        serverName: this.#options.serverName ?? "the server",
        onHello: (frame, result) => {
          this.#learnLimits(frame, result);
          // A hello is a new document: it holds the SDK's default of 0 until told.
          this.#safeArea.forget(frame);
          this.#safeArea.tell(frame);
        },
      }),
      this.#followIframeFocus(),
      this.#safeArea.follow(window),
    );
  }

  /**
   * Follows the runtime event stream: window events update the frames, every event is relayed to
   * the frames it concerns. `onEvent` sees each event first (a log, a state panel).
   */
  followEvents(options: FollowOptions = {}): () => void {
    const stop = followRuntimeEvents(this, options, (report) => this.#report(report));
    this.#stops.push(stop);
    return stop;
  }

  /** Stops the bridge, the focus following and the event streams. The frames stay. */
  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  /** Called after any frame is added, removed, retitled, minimised, restored or focused. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  frames(): HostedFrame[] {
    return [...this.#frames.values()];
  }

  frame(wid: string): HostedFrame | undefined {
    return this.#frames.get(wid);
  }

  focused(): HostedFrame | undefined {
    return this.#focusedWid === undefined ? undefined : this.frame(this.#focusedWid);
  }

  /** The frame whose iframe's window posted a message. */
  frameOf(source: MessageEventSource | null): HostedFrame | undefined {
    return this.#frameOf(source);
  }

  /**
   * A view's size bounds: `wid`'s own once its app said hello (its manifest's, as the server
   * read it), else the configured view's, else the schema's.
   */
  sizeBounds(
    viewName: string,
    wid?: string,
  ): { minW: number; minH: number; maxW: number; maxH: number } {
    const view: Partial<ViewSpec> = this.#views.get(viewName) ?? {};
    const own = wid === undefined ? undefined : this.#frames.get(wid)?.limits;
    return {
      minW: own?.minW ?? view.min_size?.w ?? SIZE_MIN_PX,
      minH: own?.minH ?? view.min_size?.h ?? SIZE_MIN_PX,
      maxW: own?.maxW ?? view.max_size?.w ?? SIZE_MAX_PX,
      maxH: own?.maxH ?? view.max_size?.h ?? SIZE_MAX_PX,
    };
  }

  /** Adds a frame for a window the server has (`win` as the windows API shows it), unless it has one. */
  open(win: WindowInfo, url: string): HostedFrame {
    const existing = this.#frames.get(win.window_uuid);
    if (existing) return existing;
    const appId = typeof win.app_id === "string" ? win.app_id : undefined;
    const conversation = win["conversation_session_uuid"];
    const frame = buildFrame(
      win.window_uuid,
      win.view,
      appId,
      typeof conversation === "string" ? conversation : null,
      url,
    );
    this.#frames.set(frame.wid, frame);
    this.#options.container.append(frame.box);
    this.#labelMinimise(frame);
    this.setTitle(frame.wid, win.title || win.view);
    placeFrame(frame, win.geometry ?? {});
    if (typeof win.z_index === "number") frame.box.style.zIndex = String(win.z_index);

    frame.bar.addEventListener("pointerdown", (event) => {
      if (isInside(event.target, "button")) return;
      this.#gesture(frame, event, "move");
    });
    frame.resizeHandle.addEventListener("pointerdown", (event) =>
      this.#gesture(frame, event, "resize"),
    );
    frame.bar.addEventListener("keydown", (event) => this.#key(frame, event));
    // Tabbing to a window's bar brings it to front, as a click would.
    frame.bar.addEventListener("focus", () => void this.focus(frame.wid));
    frame.box.addEventListener(
      "pointerdown",
      (event) => {
        // The bar's buttons act on their own; a focus PATCH racing a close would be refused.
        if (!isInside(event.target, ".bar button")) void this.focus(frame.wid);
      },
      { capture: true },
    );
    frame.minimiseButton.addEventListener("click", () => void this.minimise(frame.wid));
    frame.closeButton.addEventListener("click", () => void this.close(frame.wid));

    if (win.status === "minimized") this.applyStatus(frame.wid, "minimized");
    else mountIframe(frame, url);
    this.#changed();
    return frame;
  }

  /**
   * Opens a view through the windows API and shows it, cascaded and focused. A single-instance
   * view already on the desk is restored, focused and flashes instead.
   */
  async openView(view: string, payload?: unknown): Promise<Answer<OpenedWindow>> {
    const out = await this.client.openWindow(view, payload);
    // A refusal is the caller's to show: it asked.
    if (!out.ok) return out;
    const wid = out.window.window_uuid;
    if (out.reused && this.#frames.has(wid)) {
      this.applyStatus(wid, out.window.status);
      this.flash(wid);
      return out;
    }
    this.open(out.window, out.url);
    this.cascade(wid);
    void this.focus(wid);
    return out;
  }

  /**
   * Shows a window someone else opened (the app's `window.open_view`, another tab), unless
   * `accepts` leaves it off this desk.
   */
  async adopt(wid: string): Promise<void> {
    const link = await this.client.windowLink(wid);
    if (link.ok && !this.#frames.has(wid) && (this.#options.accepts?.(link.window) ?? true)) {
      this.open(link.window, link.url);
      this.cascade(wid);
    }
  }

  /** Reloads a mounted frame with a fresh token (live reload). */
  async reload(wid: string): Promise<void> {
    const frame = this.#frames.get(wid);
    if (!frame?.iframe) return;
    const link = await this.client.windowLink(wid);
    if (!link.ok) return;
    unmountIframe(frame);
    mountIframe(frame, link.url);
  }

  /** Closes the window on the server (DELETE), then removes its frame. */
  async close(wid: string): Promise<void> {
    // A crashed window is already terminal on the server (not live: DELETE would be not_found).
    if (this.#frames.get(wid)?.status === "crashed") return this.remove(wid);
    const out = await this.client.closeWindow(wid);
    if (out.ok) this.remove(wid);
    else this.#report({ kind: "refused", action: "close", wid, error: out.error });
  }

  /** Removes the frame only (the server closed the window, or it is terminal). */
  remove(wid: string): void {
    const frame = this.#frames.get(wid);
    if (!frame) return;
    frame.box.remove();
    frame.chip?.remove();
    clearTimeout(this.#keyPatches.get(wid));
    this.#keyPatches.delete(wid);
    this.#frames.delete(wid);
    if (this.#focusedWid === wid) this.#focusedWid = undefined;
    this.#changed();
  }

  async minimise(wid: string): Promise<void> {
    const frame = this.#frames.get(wid);
    if (frame) await this.#patch(frame, { status: "minimized" });
  }

  async restore(wid: string): Promise<void> {
    const frame = this.#frames.get(wid);
    if (!frame) return;
    const win = await this.#patch(frame, { status: "active" });
    if (win) {
      this.#focusedWid = undefined;
      await this.focus(wid);
    }
  }

  /** Moves the window to `x`/`y` on the desk; the server's answer is where it ends up. */
  async move(wid: string, to: { x: number; y: number }): Promise<void> {
    const frame = this.#frames.get(wid);
    if (frame) await this.#patch(frame, { geometry: { x: to.x, y: to.y } });
  }

  /** Sizes the window's content box, within the view's bounds. */
  async resize(wid: string, size: Size): Promise<void> {
    const frame = this.#frames.get(wid);
    if (!frame) return;
    const b = this.sizeBounds(frame.view, wid);
    const geometry = { w: clamp(size.w, b.minW, b.maxW), h: clamp(size.h, b.minH, b.maxH) };
    await this.#patch(frame, { geometry });
  }

  /** Brings an active window to front (PATCH `{focus: true}`). */
  async focus(wid: string): Promise<void> {
    const frame = this.#frames.get(wid);
    if (!frame || frame.status !== "active" || this.#focusedWid === wid || this.#focusing === wid)
      return;
    this.#focusing = wid;
    try {
      const win = await this.#patch(frame, { focus: true });
      if (win) this.applyFocus(wid, win.z_index);
    } finally {
      if (this.#focusing === wid) this.#focusing = undefined;
    }
  }

  /** Opens a new window away from the others when the server put it at the origin. */
  cascade(wid: string): void {
    const frame = this.#frames.get(wid);
    // Sheets are not placed: a mobile desk sends no geometry of its own (L6868).
    if (!frame || this.#frames.size < 2 || this.#formFactor === "mobile") return;
    const g = frame.geometry;
    if ((g.x ?? 0) !== 0 || (g.y ?? 0) !== 0) return;
    const step = (this.#frames.size - 1) * CASCADE_STEP_PX;
    void this.#patch(frame, { geometry: { x: step, y: step } });
  }

  /** Single-instance re-open: the existing frame is focused and flashes. */
  flash(wid: string): void {
    const frame = this.#frames.get(wid);
    if (!frame) return;
    frame.box.classList.remove("flash");
    void frame.box.offsetWidth; // restart the animation
    frame.box.classList.add("flash");
    this.#focusedWid = undefined;
    void this.focus(wid);
  }

  /** Shows what the server says about a window: its title. */
  setTitle(wid: string, title: string): void {
    const frame = this.#frames.get(wid);
    if (!frame) return;
    frame.title = title;
    frame.titleEl.textContent = title;
    if (frame.iframe) frame.iframe.title = title;
    if (frame.chip) frame.chip.textContent = title;
    frame.bar.setAttribute("aria-label", barLabel(title, frame.limits));
    this.#changed();
  }

  /** …its geometry. */
  applyGeometry(wid: string, geometry: Geometry | undefined): void {
    const frame = this.#frames.get(wid);
    if (frame && geometry) placeFrame(frame, geometry);
  }

  /** …that it is the focused one, with its z-index. */
  applyFocus(wid: string, zIndex: number | undefined): void {
    const frame = this.#frames.get(wid);
    if (!frame) return;
    if (typeof zIndex === "number") frame.box.style.zIndex = String(zIndex);
    this.#focusedWid = wid;
    for (const f of this.#frames.values()) f.box.classList.toggle("focused", f.wid === wid);
    this.#changed();
  }

  /** …its status: minimised to the dock, restored (with a fresh link), or crashed. */
  applyStatus(wid: string, status: string | undefined): void {
    const frame = this.#frames.get(wid);
    if (!frame || !status || frame.status === status) return;
    const was = frame.status;
    frame.status = status;
    if (status === "minimized") {
      unmountIframe(frame);
      frame.box.classList.add("minimised");
      frame.box.classList.remove("focused");
      if (this.#focusedWid === wid) this.#focusedWid = undefined;
      const title = frame.title;
      const chip = button("chip", title, `Restore ${title}`);
      chip.dataset["wid"] = wid;
      chip.addEventListener("click", () => void this.restore(wid));
      frame.chip = chip;
      this.#options.dock.append(chip);
    } else if (status === "active" && was === "minimized") {
      frame.chip?.remove();
      frame.chip = null;
      frame.box.classList.remove("minimised");
      void this.client.windowLink(wid).then((link) => {
        if (link.ok && frame.status === "active" && !frame.iframe) mountIframe(frame, link.url);
      });
    } else if (status === "crashed") {
      frame.box.classList.add("crashed");
      this.setTitle(wid, `${frame.title} (crashed)`);
    }
    this.#changed();
  }

  /**
   * Applies a runtime event to the frames (title, geometry, status, focus, a sibling's close or
   * open) and relays it to the frames it concerns.
   */
  applyEvent(event: RuntimeEvent): void {
    const wid = typeof event.window_uuid === "string" ? event.window_uuid : undefined;
    const p = (event.payload ?? {}) as Record<string, unknown>;
    const about = typeof p["window_uuid"] === "string" ? p["window_uuid"] : wid;
    // Another app's event says nothing about this page's frames of the same window ids.
    const frame = about === undefined ? undefined : this.#frames.get(about);
    const ours = frame === undefined || sameApp(frame, event);
    if (ours && wid !== undefined) {
      if (event.kind === "title_changed" && typeof p["title"] === "string")
        this.setTitle(wid, p["title"]);
      if (event.kind === "geometry_changed") this.applyGeometry(wid, p["geometry"] as Geometry);
      if (event.kind === "status_changed") this.applyStatus(wid, p["status"] as string);
    }
    if (ours && event.kind === "window_focus_changed" && about !== undefined)
      this.applyFocus(about, p["z_index"] as number | undefined);
    this.relay(event);
    if (ours && event.kind === "close_view" && about !== undefined) this.remove(about);
    if (event.kind === "open_view" && wid !== undefined && !this.#frames.has(wid))
      void this.adopt(wid);
  }

  /** Posts a stream event to every helloed frame it concerns. */
  relay(event: RuntimeEvent): void {
    relayEvent(this.#frames.values(), event);
  }

  /** Posts a page-local named event (`entry_payload`, `auth.refresh`) to one window's iframe. */
  postNamedEvent(wid: string, name: string, payload: unknown): boolean {
    const frame = this.#frames.get(wid);
    if (!frame?.iframe || !frame.helloed) return false;
    postNamedEvent(frame, name, payload);
    return true;
  }

  /**
   * Pushes a fresh token to a window (the `auth.refresh` event) instead of waiting for the SDK to
   * ask; answers what was pushed, or why nothing was.
   */
  async pushToken(wid: string): Promise<TokenAnswer> {
    const frame = this.#frames.get(wid);
    if (!frame?.iframe || !frame.helloed)
      return {
        ok: false,
        error: { code: "not_connected", message: `window ${wid} has no iframe that said hello` },
      };
    const out = await this.#refreshToken(wid);
    if (out.ok) {
      const { ok: _ok, ...token } = out;
      postNamedEvent(frame, "auth.refresh", token);
    }
    return out;
  }

  #frameOf(source: MessageEventSource | null): FrameState | undefined {
    // Every Host API call asks: a scan, no allocation.
    for (const frame of this.#frames.values()) {
      if (frame.iframe && frame.iframe.contentWindow === source) return frame;
    }
    return undefined;
  }

  async #refreshToken(wid: string): Promise<TokenAnswer> {
    if (this.#options.refreshToken) return this.#options.refreshToken(wid);
    const link = await this.client.windowLink(wid);
    if (!link.ok) return link;
    return {
      ok: true,
      token: link.token,
      ...(typeof link.expires_in === "number" ? { expires_in: link.expires_in } : {}),
    };
  }

  #report(report: HostReport): void {
    this.#options.onReport?.(report);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** PATCHes the window and shows what the server kept (its clamp wins over the frame's guess). */
  async #patch(frame: FrameState, patch: WindowPatch): Promise<WindowInfo | undefined> {
    const out = await this.client.patchWindow(frame.wid, patch);
    if (!out.ok) {
      this.#report({ kind: "refused", action: "patch", wid: frame.wid, error: out.error, patch });
      const link = await this.client.windowLink(frame.wid);
      if (link.ok) placeFrame(frame, link.window.geometry ?? {});
      return undefined;
    }
    placeFrame(frame, out.window.geometry ?? {});
    this.applyStatus(frame.wid, out.window.status);
    return out.window;
  }

  /** Shows the view's limits from its `window.hello` answer: no handle on a fixed size. */
  #learnLimits(frame: FrameState, result: unknown): void {
    const limits = limitsOf(result);
    if (limits === undefined) return;
    frame.limits = limits;
    frame.box.classList.toggle("fixed-size", !limits.resizable);
    frame.box.classList.toggle("fixed-place", !limits.movable);
    frame.bar.setAttribute("aria-label", barLabel(frame.title, limits));
  }

  #labelMinimise(frame: FrameState): void {
    const label = MINIMISE_LABEL[this.#formFactor];
    const title =
      this.#formFactor === "mobile" ? (this.#options.mobileBackTitle ?? label.title) : label.title;
    frame.minimiseButton.textContent = label.text;
    frame.minimiseButton.title = title;
    frame.minimiseButton.setAttribute("aria-label", title);
  }

  /**
   * Alt+arrow on the focused bar moves the window by KEY_STEP_PX, Alt+Shift+arrow resizes it,
   * within the view's limits; the frame follows each press, the server gets one PATCH after.
   */
  #key(frame: FrameState, event: KeyboardEvent): void {
    const arrow = ARROWS[event.key];
    if (!arrow || !event.altKey || event.ctrlKey || event.metaKey) return;
    if (this.#formFactor === "mobile" || frame.status !== "active") return;
    const resize = event.shiftKey;
    if (resize ? frame.limits?.resizable === false : frame.limits?.movable === false) return;
    event.preventDefault();
    const g = frame.geometry;
    if (resize) {
      const b = this.sizeBounds(frame.view, frame.wid);
      placeFrame(frame, {
        w: clamp((g.w ?? frame.box.offsetWidth) + arrow.dx * KEY_STEP_PX, b.minW, b.maxW),
        h: clamp((g.h ?? frame.iframe?.offsetHeight ?? 0) + arrow.dy * KEY_STEP_PX, b.minH, b.maxH),
      });
    } else {
      placeFrame(frame, {
        x: Math.max(0, (g.x ?? 0) + arrow.dx * KEY_STEP_PX),
        y: Math.max(0, (g.y ?? 0) + arrow.dy * KEY_STEP_PX),
      });
    }
    clearTimeout(this.#keyPatches.get(frame.wid));
    this.#keyPatches.set(
      frame.wid,
      setTimeout(() => {
        this.#keyPatches.delete(frame.wid);
        const { x, y, w, h } = frame.geometry;
        void this.#patch(frame, { geometry: { x, y, w, h } });
      }, KEY_PATCH_DELAY_MS),
    );
  }

  /** A drag of the title bar (`move`) or of the corner handle (`resize`); one PATCH at the end. */
  #gesture(frame: FrameState, event: PointerEvent, kind: "move" | "resize"): void {
    // A sheet is not dragged; a view that declares itself fixed is not either (L5427 view_meta).
    if (this.#formFactor === "mobile") return;
    if (kind === "move" ? frame.limits?.movable === false : frame.limits?.resizable === false)
      return;
    const start = { ...frame.geometry };
    const b = this.sizeBounds(frame.view, frame.wid);
    pointerDrag(event, this.#options.container, {
      move(dx, dy) {
        if (kind === "move")
          placeFrame(frame, {
            x: Math.max(0, Math.round((start.x ?? 0) + dx)),
            y: Math.max(0, Math.round((start.y ?? 0) + dy)),
          });
        else
          placeFrame(frame, {
            // A window the server gave no size yet resizes from what the page shows.
            w: clamp((start.w ?? frame.box.offsetWidth) + dx, b.minW, b.maxW),
            h: clamp((start.h ?? frame.iframe?.offsetHeight ?? 0) + dy, b.minH, b.maxH),
          });
      },
      end: () => {
        const g = frame.geometry;
        if (kind === "move" && (g.x !== start.x || g.y !== start.y))
          void this.#patch(frame, { geometry: { x: g.x, y: g.y } });
        if (kind === "resize" && (g.w !== start.w || g.h !== start.h))
          void this.#patch(frame, { geometry: { w: g.w, h: g.h } });
      },
    });
  }

  /**
   * Brings a frame to front when the user clicks inside its app. Such a click lands in the
   * iframe's document: this page sees only its window blur (focus went into an iframe), and
   * nothing at all when focus then moves from one iframe to another, so while focus is inside the
   * iframes the page checks which one holds it every FOCUS_POLL_MS.
   */
  #followIframeFocus(): () => void {
    let watch: ReturnType<typeof setInterval> | undefined;
    const check = (): void => {
      const active = document.activeElement;
      if (!(active instanceof HTMLIFrameElement)) return;
      for (const frame of this.#frames.values())
        if (frame.iframe === active) void this.focus(frame.wid);
    };
    const onBlur = (): void => {
      setTimeout(check);
      watch ??= setInterval(check, FOCUS_POLL_MS);
    };
    const onFocus = (): void => {
      clearInterval(watch);
      watch = undefined;
    };
    window.addEventListener("blur", onBlur);
    window.addEventListener("focus", onFocus);
    return () => {
      onFocus();
      window.removeEventListener("blur", onBlur);
      window.removeEventListener("focus", onFocus);
    };
  }
}

/** A window host on `options.container`; call `start()` to answer the iframes. */
export function createWindowHost(options: WindowHostOptions): WindowHost {
  return new WindowHost(options);
}
