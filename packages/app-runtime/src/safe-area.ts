// Safe areas (the mobile review checklist): a bundle pads its content with the
// `--anna-safe-area-{top,right,bottom,left}` CSS variables, 0 on desktop. `env(safe-area-inset-*)`
// is 0 inside an iframe (only the top-level page sees the notch and the home indicator), so the
// host page measures its own insets, works out how much of them lies over each window's iframe,
// and posts that to the iframe as the page-local `safe_area` event; the SDK writes the variables
// on the bundle's root element (CSSOM, which a strict `style-src` does not block).

/** The event name the host posts and the SDK applies. */
export const SAFE_AREA_EVENT = "safe_area";

export interface SafeAreaInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const NO_INSETS: Readonly<SafeAreaInsets> = Object.freeze({
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
});

const SIDES = ["top", "right", "bottom", "left"] as const;
/** No screen has a notch this big; a larger value is a bug or a hostile page, not an inset. */
const MAX_INSET_PX = 1024;

/** The CSS variable of one side: `--anna-safe-area-top`… */
export function safeAreaVariable(side: (typeof SIDES)[number]): string {
  return `--anna-safe-area-${side}`;
}

/** A `safe_area` payload as insets: each side a finite number in [0, 1024], else 0. */
export function readInsets(payload: unknown): SafeAreaInsets {
  const record = typeof payload === "object" && payload !== null ? payload : {};
  const side = (name: (typeof SIDES)[number]): number => {
    const value = (record as Record<string, unknown>)[name];
    return typeof value === "number" && Number.isFinite(value)
      ? Math.min(Math.max(Math.round(value), 0), MAX_INSET_PX)
      : 0;
  };
  return { top: side("top"), right: side("right"), bottom: side("bottom"), left: side("left") };
}

export interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

/**
 * How much of the page's insets lies over `frame` (the iframe's box in the viewport): a window
 * whose bar already sits below the status bar gets 0 at the top, a full-screen sheet gets the
 * home indicator at the bottom.
 */
export function insetsOver(
  frame: Rect,
  viewport: { width: number; height: number },
  page: SafeAreaInsets,
): SafeAreaInsets {
  const overlap = (unsafeEdge: number, distanceFromEdge: number, size: number): number =>
    size <= 0 ? 0 : Math.min(Math.max(unsafeEdge - distanceFromEdge, 0), size);
  return {
    top: overlap(page.top, frame.top, frame.height),
    left: overlap(page.left, frame.left, frame.width),
    bottom: overlap(page.bottom, viewport.height - (frame.top + frame.height), frame.height),
    right: overlap(page.right, viewport.width - (frame.left + frame.width), frame.width),
  };
}

export function sameInsets(a: SafeAreaInsets, b: SafeAreaInsets): boolean {
  return SIDES.every((side) => a[side] === b[side]);
}

/** What the SDK needs of the bundle's root element (structural: the sources also run under Node). */
export interface StyledElement {
  style: { setProperty(name: string, value: string): void };
}

/** Writes the four variables on `root` (the bundle's `<html>`). */
export function applyInsets(root: StyledElement, insets: SafeAreaInsets): void {
  for (const side of SIDES) root.style.setProperty(safeAreaVariable(side), `${insets[side]}px`);
}
