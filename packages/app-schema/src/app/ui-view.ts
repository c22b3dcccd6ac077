import { z } from "zod";
import { boundedString, quote } from "./text.js";
import { BundlePathSchema } from "./ui-bundle.js";

/** `ui.views[]` (L5645–L5671, R92). */

export const UI_VIEWS_MIN = 1;
export const UI_VIEWS_MAX = 16;
export const UI_SIZE_MIN_PX = 120;
export const UI_SIZE_MAX_PX = 4096;
export const VIEW_NAME_PATTERN = /^[a-z0-9_-]{1,40}$/;
export const VIEW_TITLE_MAX_CHARS = 120;
export const VIEW_SUMMARY_TEMPLATE_MAX_CHARS = 400;

const Pixels = z.int().min(UI_SIZE_MIN_PX).max(UI_SIZE_MAX_PX);

/** CSS pixels, each side in [120, 4096]. */
export const UiSizeSchema = z.strictObject({ w: Pixels, h: Pixels });
export type UiSize = z.infer<typeof UiSizeSchema>;

export const UiViewSchema = z.strictObject({
  name: z.string().regex(VIEW_NAME_PATTERN, {
    error: (issue) =>
      `${quote(issue.input)} is not a valid view name: use 1–40 of a-z 0-9 _ - (e.g. "main", "chart_preview")`,
  }),
  title: boundedString(1, VIEW_TITLE_MAX_CHARS),
  /** Opened when `open_app_view` omits `view`; at most one view may set it. */
  default: z.boolean().nullish(),
  /** Optional; defaults to `ui.bundle.entry`. May carry a `#/route`. */
  entry: BundlePathSchema.nullish(),
  /** Served instead of `entry` in a mobile container (L6840). */
  mobile_entry: BundlePathSchema.nullish(),
  min_size: UiSizeSchema.nullish(),
  default_size: UiSizeSchema.nullish(),
  max_size: UiSizeSchema.nullish(),
  resizable: z.boolean().nullish(),
  movable: z.boolean().nullish(),
  /** Reopening the view re-focuses the window and merges the payload (ruling A6). */
  single_instance: z.boolean().nullish(),
  summary_template: boundedString(0, VIEW_SUMMARY_TEMPLATE_MAX_CHARS).nullish(),
  /** Bundle-relative icon for the window chrome and dock. */
  icon: BundlePathSchema.nullish(),
});
export type UiView = z.infer<typeof UiViewSchema>;
