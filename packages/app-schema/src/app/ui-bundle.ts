import { z } from "zod";
import { SPEC_MESSAGES } from "./spec-messages.js";
import { quote } from "./text.js";

/** `ui.bundle` (L5629–L5643, R91). */

export const UI_BUNDLE_FORMATS = Object.freeze(["static-spa"] as const);
export const DEFAULT_UI_BUNDLE_FORMAT = "static-spa";

/** The path part of a bundle entry (before `?`/`#`) must match this (L5641). */
export const BUNDLE_PATH_PATTERN = /^[A-Za-z0-9_./-]+$/;

/**
 * Why a bundle-relative path (`entry`, a view's `entry`/`mobile_entry`/`icon`) is unacceptable,
 * or `undefined` when it is fine. Only the part before `?`/`#` is checked (L5641).
 */
export function bundlePathProblem(value: string): string | undefined {
  const path = value.split(/[?#]/, 1)[0] ?? "";
  if (path === "") return "needs a file path before any ? or #";
  if (path.includes("..")) return 'must not contain ".."';
  if (path.includes("\\")) return 'must not contain "\\" (use "/")';
  if (path.includes("//")) return 'must not contain "//"';
  if (!BUNDLE_PATH_PATTERN.test(path)) {
    return "may contain only letters, digits, _ . / - before any ? or #";
  }
  if (path.startsWith("/")) return "must be relative to the bundle root (no leading /)";
  return undefined;
}

/** The file a bundle path names: `index.html#/chart` → `index.html`. */
export function bundlePathFile(value: string): string {
  return value.split(/[?#]/, 1)[0] ?? "";
}

/** `bundlePathProblem` as a JSON Schema pattern, for the generated documents. */
export const BUNDLE_PATH_JSON_PATTERN =
  "^(?!/)(?:(?!\\.\\.|//)[A-Za-z0-9_./-])+(?:[?#][\\s\\S]*)?$";

export const BundlePathSchema = z
  .string()
  .check((ctx) => {
    const problem = bundlePathProblem(ctx.value);
    if (problem !== undefined) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `${quote(ctx.value)} is not a valid bundle path: it ${problem} (e.g. "index.html" or "views/main.html#/route")`,
        params: { code: "ui.bundle_path" },
      });
    }
  })
  .meta({ pattern: BUNDLE_PATH_JSON_PATTERN });

export const ExternalOriginSchema = z
  .string()
  .check((ctx) => {
    const value = ctx.value;
    if (!value.startsWith("https://")) {
      ctx.issues.push({
        code: "custom",
        input: value,
        message: `${quote(value)} must start with https:// (e.g. "https://api.example.com")`,
        params: { code: "ui.external_origin_scheme" },
      });
    } else if (value.includes("*")) {
      ctx.issues.push({
        code: "custom",
        input: value,
        message: `${quote(value)} must not contain a * wildcard; list each origin`,
        params: { code: "ui.external_origin_wildcard" },
      });
    }
  })
  .meta({ pattern: "^https://[^*]*$" });

export const UiBundleSchema = z.strictObject({
  /** Only `static-spa` (validated by the server with a Chinese message, see SPEC_MESSAGES). */
  format: z
    .string()
    .check((ctx) => {
      if (ctx.value === DEFAULT_UI_BUNDLE_FORMAT) return;
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `bundle format ${quote(ctx.value)} is not supported: use "static-spa" (or omit format)`,
        params: { code: "ui.bundle.format", specMessage: SPEC_MESSAGES.uiBundleFormat.text },
      });
    })
    .meta({ enum: [...UI_BUNDLE_FORMATS] })
    .default(DEFAULT_UI_BUNDLE_FORMAT),
  entry: BundlePathSchema,
  /** Auto-added to `connect-src` and `img-src` of the bundle CSP. */
  external_origins: z.array(ExternalOriginSchema).nullish(),
});
export type UiBundle = z.infer<typeof UiBundleSchema>;
