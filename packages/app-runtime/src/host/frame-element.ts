// The DOM of one window frame: a box placed on the desk by the window's geometry (`w`/`h` = the
// iframe's content size), a title bar with minimise and close buttons, a corner resize handle, and
// the sandboxed iframe while the window is mounted. Class names are the host's stylesheet contract:
// `.frame` (`.focused`, `.minimised`, `.crashed`, `.flash`), `.bar`, `.title`, `button.minimise`,
// `button.close`, `.resize`, and `.chip` in the dock.
import { BUNDLE_FRAME_SANDBOX } from "@anna-ai/app-schema";
import type { Geometry } from "./runtime-client.js";

/** Never allow-same-origin (A5): the app's origin stays opaque. The bundle's CSP repeats it. */
export const SANDBOX = BUNDLE_FRAME_SANDBOX;

/** One window on the desk: its box, and the iframe while it is mounted. */
export interface FrameState {
  readonly wid: string;
  readonly view: string;
  readonly appId: string | undefined;
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
  url: string,
): FrameState {
  const box = document.createElement("div");
  box.className = "frame";
  box.dataset["wid"] = wid;
  box.dataset["view"] = view;
  const bar = document.createElement("div");
  bar.className = "bar";
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
