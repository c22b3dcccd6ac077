import {
  UI_SIZE_MAX_PX,
  UI_SIZE_MIN_PX,
  type UiView,
  type WindowGeometry,
} from "@anna-ai/app-schema";

/** The size a view opens at when it declares no `default_size` (unspecified; our choice). */
export const DEFAULT_WINDOW_SIZE = Object.freeze({ w: 960, h: 640 });

export interface SizeBounds {
  minW: number;
  minH: number;
  maxW: number;
  maxH: number;
}

/** A view's `min_size`/`max_size`, within the schema's 120–4096 px range (R92). */
export function sizeBounds(view: UiView | undefined): SizeBounds {
  return {
    minW: view?.min_size?.w ?? UI_SIZE_MIN_PX,
    minH: view?.min_size?.h ?? UI_SIZE_MIN_PX,
    maxW: view?.max_size?.w ?? UI_SIZE_MAX_PX,
    maxH: view?.max_size?.h ?? UI_SIZE_MAX_PX,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** Clamps `w`/`h` to the view's bounds (U27); rounds to whole pixels. */
export function clampSize(
  view: UiView | undefined,
  w: number,
  h: number,
): { w: number; h: number } {
  const b = sizeBounds(view);
  return { w: Math.round(clamp(w, b.minW, b.maxW)), h: Math.round(clamp(h, b.minH, b.maxH)) };
}

export function initialGeometry(view: UiView | undefined): WindowGeometry {
  const size = view?.default_size ?? DEFAULT_WINDOW_SIZE;
  return { x: 0, y: 0, ...clampSize(view, size.w, size.h) };
}

/**
 * Merges a geometry patch: sizes clamped to the view, positions kept non-negative (x/y bounds are
 * unspecified, Z21), the dock and snap fields kept as sent.
 */
export function applyGeometry(
  view: UiView | undefined,
  current: WindowGeometry,
  patch: WindowGeometry,
): WindowGeometry {
  const next: WindowGeometry = { ...current, ...patch };
  const size = clampSize(view, next.w ?? DEFAULT_WINDOW_SIZE.w, next.h ?? DEFAULT_WINDOW_SIZE.h);
  next.w = size.w;
  next.h = size.h;
  if (typeof next.x === "number") next.x = Math.max(0, Math.round(next.x));
  if (typeof next.y === "number") next.y = Math.max(0, Math.round(next.y));
  return next;
}
