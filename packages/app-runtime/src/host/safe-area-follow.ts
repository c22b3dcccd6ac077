// The host page's side of safe areas (../safe-area.ts): measure the page's own
// `env(safe-area-inset-*)` with one hidden probe element, and tell each helloed iframe how much of
// them lies over it, again whenever the viewport changes (rotation, a keyboard) or a window's
// frame is mounted. A frame hears only changes: a desktop page whose insets are all 0 posts
// nothing, the SDK's default already says 0.
import {
  insetsOver,
  NO_INSETS,
  SAFE_AREA_EVENT,
  sameInsets,
  type SafeAreaInsets,
} from "../safe-area.js";
import { postNamedEvent } from "./event-relay.js";
import type { FrameState } from "./frame-element.js";

const SIDES = ["top", "right", "bottom", "left"] as const;

/** The page's insets, from a fixed, invisible probe padded by `env(safe-area-inset-*)`. */
export function measurePageInsets(doc: Document): SafeAreaInsets {
  const probe = doc.createElement("div");
  // CSSOM writes: a strict style-src (no inline styles) does not block them.
  probe.style.setProperty("position", "fixed");
  probe.style.setProperty("visibility", "hidden");
  probe.style.setProperty("pointer-events", "none");
  for (const side of SIDES)
    probe.style.setProperty(`padding-${side}`, `env(safe-area-inset-${side}, 0px)`);
  doc.body.append(probe);
  try {
    const computed = doc.defaultView?.getComputedStyle(probe);
    if (computed === undefined) return NO_INSETS;
    const px = (side: (typeof SIDES)[number]): number =>
      Number.parseFloat(computed.getPropertyValue(`padding-${side}`)) || 0;
    return { top: px("top"), right: px("right"), bottom: px("bottom"), left: px("left") };
  } finally {
    probe.remove();
  }
}

export class SafeAreaFollower {
  #page: SafeAreaInsets = NO_INSETS;
  /** What each frame was last told: a WeakMap, so a removed frame needs no cleanup. */
  readonly #told = new WeakMap<FrameState, SafeAreaInsets>();

  constructor(
    private readonly frames: () => Iterable<FrameState>,
    /** The page's insets, overridable for tests and for a native shell that knows them. */
    private readonly measure: () => SafeAreaInsets,
  ) {}

  /** The page's insets as last measured. */
  page(): SafeAreaInsets {
    return this.#page;
  }

  /** Re-measures the page and tells every helloed frame what changed for it. */
  refresh(): void {
    this.#page = this.measure();
    for (const frame of this.frames()) this.tell(frame);
  }

  /** Tells one frame its insets if they differ from what it was last told (or from 0). */
  tell(frame: FrameState): void {
    const iframe = frame.iframe;
    if (!iframe || !frame.helloed) return;
    const view = iframe.ownerDocument.defaultView;
    const box = iframe.getBoundingClientRect();
    const insets = insetsOver(
      { top: box.top, left: box.left, width: box.width, height: box.height },
      { width: view?.innerWidth ?? 0, height: view?.innerHeight ?? 0 },
      this.#page,
    );
    if (sameInsets(insets, this.#told.get(frame) ?? NO_INSETS)) return;
    this.#told.set(frame, insets);
    postNamedEvent(frame, SAFE_AREA_EVENT, insets);
  }

  /** A new document in the frame (mounted again, reloaded) starts from 0 again. */
  forget(frame: FrameState): void {
    this.#told.delete(frame);
  }

  /** Follows the viewport: `resize` covers rotation and the on-screen keyboard. */
  follow(win: Window): () => void {
    const onResize = (): void => this.refresh();
    win.addEventListener("resize", onResize);
    this.refresh();
    return () => win.removeEventListener("resize", onResize);
  }
}
