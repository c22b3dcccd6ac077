// The DOM of one window frame: a box placed on the desk by the window's geometry (`w`/`h` = the
// iframe's content size), a title bar with minimise and close buttons (the bar takes the keyboard
// focus: Alt+arrows move the window, Alt+Shift+arrows resize it), a corner resize handle, and the
// sandboxed iframe while the window is mounted. Class names are the host's stylesheet contract:
// `.frame` (`.focused`, `.minimised`, `.crashed`, `.flash`, `.fixed-size`, `.fixed-place`),
// `.bar`, `.title`, `button.minimise`, `button.close`, `.resize`, and `.chip` in the dock.
import { BUNDLE_FRAME_SANDBOX } from "@anna-ai/app-schema";
import type { Geometry } from "./runtime-client.js";

/** Never allow-same-origin (A5): the app's origin stays opaque. The bundle's CSP repeats it. */
export const SANDBOX = BUNDLE_FRAME_SANDBOX;

/** One window on the desk: its box, and the iframe while it is mounted. */
export interface FrameState {
  readonly wid: string;
  readonly view: string;
  readonly appId: string | undefined;
  /** The conversation the window belongs to (`conversation_session_uuid`); null for none. */
  readonly conversationId: string | null;
  readonly box: HTMLDivElement;
  readonly bar: HTMLDivElement;
  readonly titleEl: HTMLSpanElement;
  /** What the title bar shows. */
  title: string;
  readonly minimiseButton: HTMLButtonElement;
  readonly closeButton: HTMLButtonElement;
  readonly resizeHandle: HTMLDivElement;
  iframe: HTMLIFrameElement | null;
  /** The dock chip while minimised. */
  chip: HTMLButtonElement | null;
  /** Events reach the iframe only after its `window.hello`. */
  helloed: boolean;
  status: string;
  geometry: Geometry;
  url: string;
  /**
   * What the view's manifest allows, from the app's `window.hello` answer (`view_meta`):
   * undefined until then, when the host's configured bounds (or the schema's) apply.
   */
  limits: ViewLimits | undefined;
}

/** A view's size bounds and whether the person may resize and move it (`view_meta`). */
export interface ViewLimits {
  minW?: number;
  minH?: number;
  maxW?: number;
  maxH?: number;
  resizable: boolean;
  movable: boolean;
}

export function button(cls: string, label: string, title: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.title = title;
  b.setAttribute("aria-label", title);
  return b;
}

/** The frame's elements for window `wid` (not yet on the page, no iframe). */
export function buildFrame(
  wid: string,
  view: string,
  appId: string | undefined,
  conversationId: string | null,
  url: string,
): FrameState {
  const box = document.createElement("div");
  box.className = "frame";
  box.dataset["wid"] = wid;
  box.dataset["view"] = view;
  const bar = document.createElement("div");
  bar.className = "bar";
  // The keyboard's handle on the window: focused, arrows with Alt move it (L5427: drag/resize).
  bar.tabIndex = 0;
  const titleEl = document.createElement("span");
  titleEl.className = "title";
  const minimiseButton = button("minimise", "—", "Minimise to the dock");
  const closeButton = button("close", "×", "Close");
  bar.append(titleEl, minimiseButton, closeButton);
  const resizeHandle = document.createElement("div");
  resizeHandle.className = "resize";
  resizeHandle.title = "Resize";
  box.append(bar, resizeHandle);
  return {
    wid,
    view,
    appId,
    conversationId,
    box,
    bar,
    titleEl,
    title: "",
    minimiseButton,
    closeButton,
    resizeHandle,
    iframe: null,
    chip: null,
    helloed: false,
    status: "active",
    geometry: {},
    url,
    limits: undefined,
  };
}

/** What the bar says to a screen reader: the window, and how to move it from the keyboard. */
export function barLabel(title: string, limits: ViewLimits | undefined): string {
  const keys = [
    limits?.movable === false ? null : "Alt+arrow keys move it",
    limits?.resizable === false ? null : "Alt+Shift+arrow keys resize it",
  ].filter((k) => k !== null);
  return keys.length === 0 ? `${title} window` : `${title} window: ${keys.join(", ")}`;
}

/**
 * The limits a `window.hello` answer's `view_meta` declares (min_size, max_size, resizable,
 * movable), or undefined for an answer without one.
 */
export function limitsOf(result: unknown): ViewLimits | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const meta = (result as { view_meta?: unknown }).view_meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const m = meta as Record<string, unknown>;
  const size = (value: unknown): { w?: number; h?: number } => {
    if (typeof value !== "object" || value === null) return {};
    const { w, h } = value as { w?: unknown; h?: unknown };
    return {
      ...(typeof w === "number" && w > 0 ? { w } : {}),
      ...(typeof h === "number" && h > 0 ? { h } : {}),
    };
  };
  const min = size(m["min_size"]);
  const max = size(m["max_size"]);
  return {
    ...(min.w === undefined ? {} : { minW: min.w }),
    ...(min.h === undefined ? {} : { minH: min.h }),
    ...(max.w === undefined ? {} : { maxW: max.w }),
    ...(max.h === undefined ? {} : { maxH: max.h }),
    resizable: m["resizable"] !== false,
    movable: m["movable"] !== false,
  };
}

/** Mounts a fresh sandboxed iframe at `url`: a new document, so not helloed yet. */
export function mountIframe(frame: FrameState, url: string): void {
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", SANDBOX);
  iframe.title = frame.title;
  iframe.style.height = `${frame.geometry.h}px`;
  iframe.src = url;
  frame.url = url;
  frame.helloed = false;
  frame.iframe = iframe;
  frame.bar.after(iframe);
}

export function unmountIframe(frame: FrameState): void {
  frame.iframe?.remove();
  frame.iframe = null;
  frame.helloed = false;
}

/** Moves and sizes the frame: `x`/`y` on the desk, `w`/`h` the content box. */
export function placeFrame(frame: FrameState, geometry: Geometry): void {
  const g = { ...frame.geometry, ...geometry };
  frame.geometry = g;
  frame.box.style.left = `${g.x ?? 0}px`;
  frame.box.style.top = `${g.y ?? 0}px`;
  if (typeof g.w === "number") frame.box.style.width = `${g.w}px`;
  if (frame.iframe && typeof g.h === "number") frame.iframe.style.height = `${g.h}px`;
}
