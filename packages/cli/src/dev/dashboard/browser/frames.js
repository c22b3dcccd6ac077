// @ts-check
// Window frames on the desk: one per open view, placed and sized by the window's geometry
// (`w`/`h` = the iframe's content size), moved by the title bar, resized by the corner handle
// within the view's min/max, minimised to the dock (iframe unmounted, L5980) and restored, closed,
// and focused (brought to front). Every change is a PATCH to the harness; the harness's answer
// and its events (geometry_changed, status_changed, window_focus_changed) are what the frame shows,
// so the server's window, the other tabs and the app (its `geometry_changed`) stay in step.
/* global document, window, Element, HTMLElement, HTMLIFrameElement -- a browser module: the page's globals */
import { closeWindow, patchWindow, windowLink } from "./harness-api.js";
import { logEvent } from "./panel.js";
import { pointerDrag } from "./pointer-drag.js";

/**
 * @typedef {{ x?: number, y?: number, w?: number, h?: number }} Geometry
 * @typedef {{ w: number, h: number }} Size
 * @typedef {{ name: string, min_size?: Size | null, max_size?: Size | null }} ViewSpec
 * @typedef {object} WindowInfo A window as the harness's windows API shows it.
 * @property {string} window_uuid
 * @property {string} view
 * @property {string} [title]
 * @property {string} [status]
 * @property {Geometry} [geometry]
 * @property {number} [z_index]
 * @typedef {object} Frame One window on the desk: its box, and the iframe while it is mounted.
 * @property {string} wid
 * @property {string} view
 * @property {HTMLDivElement} box
 * @property {HTMLDivElement} bar
 * @property {HTMLSpanElement} titleEl
 * @property {HTMLIFrameElement | null} iframe
 * @property {HTMLButtonElement | null} chip The dock chip while minimised.
 * @property {boolean} helloed Events reach the iframe only after its `window.hello`.
 * @property {string} status
 * @property {Geometry} geometry
 * @property {string} url
 */

/** Never allow-same-origin (A5): the app's origin stays opaque. */
export const SANDBOX = "allow-scripts allow-forms allow-popups allow-downloads";
/** The manifest schema's size bounds when a view declares none (app-schema UI_SIZE_*_PX). */
const SIZE_MIN_PX = 120;
const SIZE_MAX_PX = 4096;
/** A window opened at (0, 0) beside others is offset by this much per open frame. */
const CASCADE_STEP_PX = 32;
/** How often the page checks which iframe holds the focus while focus is inside one. */
const FOCUS_POLL_MS = 150;

/** @type {Map<string, Frame>} */
const frames = new Map();
/** @type {Map<string, ViewSpec>} */
const viewSpecs = new Map();
/** @type {Set<() => void>} */
const listeners = new Set();
/** @type {HTMLElement} */
let framesEl;
/** @type {HTMLElement} */
let dockEl;
/** @type {string | undefined} */
let focusedWid;

/** @param {{ frames: HTMLElement, dock: HTMLElement, views: ViewSpec[] }} desk */
export function initDesk({ frames: area, dock, views }) {
  framesEl = area;
  dockEl = dock;
  for (const view of views) viewSpecs.set(view.name, view);
}

/**
 * Called after any frame is added, removed, retitled, minimised, restored or focused.
 * @param {() => void} listener
 */
export function onFramesChanged(listener) {
  listeners.add(listener);
}
const changed = () => listeners.forEach((listener) => listener());

export const allFrames = () => [...frames.values()];
export const frameById = (/** @type {string} */ wid) => frames.get(wid);
export const focusedFrame = () => (focusedWid === undefined ? undefined : frames.get(focusedWid));
/**
 * The frame whose iframe's window posted a message (every Host API call asks: no allocation).
 * @param {MessageEventSource | null} source
 * @returns {Frame | undefined}
 */
export function frameOf(source) {
  for (const frame of frames.values()) {
    if (frame.iframe && frame.iframe.contentWindow === source) return frame;
  }
  return undefined;
}

/** @param {string} viewName */
export function sizeBounds(viewName) {
  /** @type {Partial<ViewSpec>} */
  const view = viewSpecs.get(viewName) ?? {};
  return {
    minW: view.min_size?.w ?? SIZE_MIN_PX,
    minH: view.min_size?.h ?? SIZE_MIN_PX,
    maxW: view.max_size?.w ?? SIZE_MAX_PX,
    maxH: view.max_size?.h ?? SIZE_MAX_PX,
  };
}

/** @type {(value: number, min: number, max: number) => number} */
const clamp = (value, min, max) => Math.min(Math.max(Math.round(value), min), max);

/**
 * Adds a frame for a window (`win` as the windows API shows it) unless it has one.
 * @param {WindowInfo} win
 * @param {string} url
 * @returns {Frame}
 */
export function addFrame(win, url) {
  const existing = frames.get(win.window_uuid);
  if (existing) return existing;
  const box = document.createElement("div");
  box.className = "frame";
  box.dataset.wid = win.window_uuid;
  box.dataset.view = win.view;
  const bar = document.createElement("div");
  bar.className = "bar";
  const title = document.createElement("span");
  title.className = "title";
  const minimise = button("minimise", "—", "Minimise to the dock");
  const close = button("close", "×", "Close");
  bar.append(title, minimise, close);
  const handle = document.createElement("div");
  handle.className = "resize";
  handle.title = "Resize";
  box.append(bar, handle);
  /** @type {Frame} */
  const frame = {
    wid: win.window_uuid,
    view: win.view,
    box,
    bar,
    titleEl: title,
    iframe: null,
    chip: null,
    helloed: false,
    status: "active",
    geometry: {},
    url,
  };
  frames.set(frame.wid, frame);
  framesEl.append(box);
  setTitle(frame.wid, win.title || win.view);
  place(frame, win.geometry ?? {});
  if (typeof win.z_index === "number") box.style.zIndex = String(win.z_index);

  bar.addEventListener("pointerdown", (event) => {
    if (isInside(event.target, "button")) return;
    gesture(frame, event, "move");
  });
  handle.addEventListener("pointerdown", (event) => gesture(frame, event, "resize"));
  box.addEventListener(
    "pointerdown",
    (event) => {
      // The bar's buttons act on their own; a focus PATCH racing a close would be refused.
      if (!isInside(event.target, ".bar button")) void focusFrame(frame.wid);
    },
    { capture: true },
  );
  minimise.addEventListener("click", () => void patch(frame, { status: "minimized" }));
  close.addEventListener("click", () => void closeFrame(frame.wid));

  if (win.status === "minimized") applyStatus(frame.wid, "minimized");
  else mount(frame, url);
  changed();
  return frame;
}

/** @param {EventTarget | null} target @param {string} selector */
function isInside(target, selector) {
  return target instanceof Element && target.closest(selector) !== null;
}

/** @param {string} cls @param {string} label @param {string} title */
function button(cls, label, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.title = title;
  b.setAttribute("aria-label", title);
  return b;
}

/** @param {Frame} frame @param {string} url */
function mount(frame, url) {
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", SANDBOX);
  iframe.title = frame.titleEl.textContent ?? "";
  iframe.style.height = frame.geometry.h + "px";
  iframe.src = url;
  frame.url = url;
  frame.helloed = false;
  frame.iframe = iframe;
  frame.bar.after(iframe);
}

/** @param {Frame} frame */
function unmount(frame) {
  frame.iframe?.remove();
  frame.iframe = null;
  frame.helloed = false;
}

/**
 * Reloads a mounted frame with a fresh token (live reload).
 * @param {string} wid
 */
export async function reloadFrame(wid) {
  const frame = frames.get(wid);
  if (!frame?.iframe) return;
  const link = await windowLink(wid);
  if (!link.ok) return;
  unmount(frame);
  mount(frame, link.url);
}

/**
 * Moves and sizes the frame: `x`/`y` on the desk, `w`/`h` the content box.
 * @param {Frame} frame
 * @param {Geometry} geometry
 */
function place(frame, geometry) {
  const g = { ...frame.geometry, ...geometry };
  frame.geometry = g;
  frame.box.style.left = (g.x ?? 0) + "px";
  frame.box.style.top = (g.y ?? 0) + "px";
  if (typeof g.w === "number") frame.box.style.width = g.w + "px";
  if (frame.iframe && typeof g.h === "number") frame.iframe.style.height = g.h + "px";
}

/** @param {string} wid @param {Geometry | undefined} geometry */
export function applyGeometry(wid, geometry) {
  const frame = frames.get(wid);
  if (frame && geometry) place(frame, geometry);
}

/**
 * Opens a new window away from the others when the harness put it at the origin.
 * @param {string} wid
 */
export function cascade(wid) {
  const frame = frames.get(wid);
  if (!frame || frames.size < 2) return;
  const g = frame.geometry;
  if ((g.x ?? 0) !== 0 || (g.y ?? 0) !== 0) return;
  const step = (frames.size - 1) * CASCADE_STEP_PX;
  void patch(frame, { geometry: { x: step, y: step } });
}

/**
 * A drag of the title bar (`move`) or of the corner handle (`resize`); one PATCH at the end.
 * @param {Frame} frame
 * @param {PointerEvent} event
 * @param {"move" | "resize"} kind
 */
function gesture(frame, event, kind) {
  const start = { ...frame.geometry };
  const b = sizeBounds(frame.view);
  pointerDrag(event, framesEl, {
    move(/** @type {number} */ dx, /** @type {number} */ dy) {
      if (kind === "move")
        place(frame, {
          x: Math.max(0, Math.round((start.x ?? 0) + dx)),
          y: Math.max(0, Math.round((start.y ?? 0) + dy)),
        });
      else
        place(frame, {
          // A window the harness gave no size yet resizes from what the page shows.
          w: clamp((start.w ?? frame.box.offsetWidth) + dx, b.minW, b.maxW),
          h: clamp((start.h ?? frame.iframe?.offsetHeight ?? 0) + dy, b.minH, b.maxH),
        });
    },
    end() {
      const g = frame.geometry;
      if (kind === "move" && (g.x !== start.x || g.y !== start.y))
        void patch(frame, { geometry: { x: g.x, y: g.y } });
      if (kind === "resize" && (g.w !== start.w || g.h !== start.h))
        void patch(frame, { geometry: { w: g.w, h: g.h } });
    },
  });
}

/**
 * PATCHes the window and shows what the harness kept (its clamp wins over the frame's guess).
 * @param {Frame} frame
 * @param {Record<string, unknown>} body
 * @returns {Promise<WindowInfo | undefined>}
 */
async function patch(frame, body) {
  const out = await patchWindow(frame.wid, body);
  if (!out.ok) {
    logEvent(
      `PATCH ${frame.wid} refused: ${out.error.code}: ${out.error.message}`,
      { patch: body, error: out.error },
      "error",
    );
    const link = await windowLink(frame.wid);
    if (link.ok) place(frame, link.window.geometry ?? {});
    return undefined;
  }
  place(frame, out.window.geometry ?? {});
  applyStatus(frame.wid, out.window.status);
  return out.window;
}

/**
 * The window a focus PATCH is in flight for: clicks and focus checks do not send it twice.
 * @type {string | undefined}
 */
let focusing;

/** @param {string} wid */
export async function focusFrame(wid) {
  const frame = frames.get(wid);
  if (!frame || frame.status !== "active" || focusedWid === wid || focusing === wid) return;
  focusing = wid;
  try {
    const win = await patch(frame, { focus: true });
    if (win) applyFocus(wid, win.z_index);
  } finally {
    if (focusing === wid) focusing = undefined;
  }
}

/**
 * Brings a frame to front when the user clicks inside its app. Such a click lands in the
 * iframe's document: this page sees only its window blur (focus went into an iframe), and nothing
 * at all when focus then moves from one iframe to another, so while focus is inside the iframes
 * the page checks which one holds it every FOCUS_POLL_MS.
 */
export function followIframeFocus() {
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let watch;
  const check = () => {
    const active = document.activeElement;
    const box = active instanceof HTMLIFrameElement ? active.closest(".frame") : null;
    if (box instanceof HTMLElement && box.dataset.wid) void focusFrame(box.dataset.wid);
  };
  window.addEventListener("blur", () => {
    setTimeout(check);
    watch ??= setInterval(check, FOCUS_POLL_MS);
  });
  window.addEventListener("focus", () => {
    clearInterval(watch);
    watch = undefined;
  });
}

/**
 * Single-instance re-open: the existing frame is focused and flashes.
 * @param {string} wid
 */
export function flashFrame(wid) {
  const frame = frames.get(wid);
  if (!frame) return;
  frame.box.classList.remove("flash");
  void frame.box.offsetWidth; // restart the animation
  frame.box.classList.add("flash");
  focusedWid = undefined;
  void focusFrame(wid);
}

/** @param {string} wid @param {number | undefined} zIndex */
export function applyFocus(wid, zIndex) {
  const frame = frames.get(wid);
  if (!frame) return;
  if (typeof zIndex === "number") frame.box.style.zIndex = String(zIndex);
  focusedWid = wid;
  for (const f of frames.values()) f.box.classList.toggle("focused", f.wid === wid);
  changed();
}

/** @param {string} wid @param {string | undefined} status */
export function applyStatus(wid, status) {
  const frame = frames.get(wid);
  if (!frame || !status || frame.status === status) return;
  const was = frame.status;
  frame.status = status;
  if (status === "minimized") {
    unmount(frame);
    frame.box.classList.add("minimised");
    frame.box.classList.remove("focused");
    if (focusedWid === wid) focusedWid = undefined;
    const title = frame.titleEl.textContent ?? "";
    const chip = button("chip", title, "Restore " + title);
    chip.dataset.wid = wid;
    chip.addEventListener("click", () => void restoreFrame(wid));
    frame.chip = chip;
    dockEl.append(chip);
  } else if (status === "active" && was === "minimized") {
    frame.chip?.remove();
    frame.chip = null;
    frame.box.classList.remove("minimised");
    void windowLink(wid).then((link) => {
      if (link.ok && frame.status === "active" && !frame.iframe) mount(frame, link.url);
    });
  } else if (status === "crashed") {
    frame.box.classList.add("crashed");
    setTitle(wid, frame.titleEl.textContent + " (crashed)");
  }
  changed();
}

/** @param {string} wid */
async function restoreFrame(wid) {
  const frame = frames.get(wid);
  if (!frame) return;
  const win = await patch(frame, { status: "active" });
  if (win) {
    focusedWid = undefined;
    await focusFrame(wid);
  }
}

/** @param {string} wid */
async function closeFrame(wid) {
  // A crashed window is already terminal on the harness (not live: DELETE would be not_found).
  if (frames.get(wid)?.status === "crashed") return removeFrame(wid);
  const out = await closeWindow(wid);
  if (out.ok) removeFrame(wid);
  else
    logEvent(`close ${wid} refused: ${out.error.code}: ${out.error.message}`, out.error, "error");
}

/** @param {string} wid */
export function removeFrame(wid) {
  const frame = frames.get(wid);
  if (!frame) return;
  frame.box.remove();
  frame.chip?.remove();
  frames.delete(wid);
  if (focusedWid === wid) focusedWid = undefined;
  changed();
}

/** @param {string} wid @param {string} title */
export function setTitle(wid, title) {
  const frame = frames.get(wid);
  if (!frame) return;
  frame.titleEl.textContent = title;
  if (frame.iframe) frame.iframe.title = title;
  if (frame.chip) frame.chip.textContent = title;
  changed();
}
