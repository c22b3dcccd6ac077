import { z } from "zod";
import { APP_VERSION_PATTERN } from "./app-version.js";
import { type AppIssue, type AppValidation, appIssue, hasErrors } from "./issues.js";
import { isDocumentObject, notAnObject, parseDocument } from "./parse-document.js";
import { boundedString, quote } from "./text.js";

/**
 * `app.json`: the store listing (L5155–L5204, inventory A2–A6) plus `bundled_executas`, the
 * handle → folder map `bundled:<handle>` refs resolve through (real-world-plugins.md "Apps").
 * It is a CLI-side file, so unknown keys are warned about, not rejected.
 */

export const APP_CATEGORIES = Object.freeze([
  "productivity",
  "developer-tools",
  "creative",
  "data",
  "lifestyle",
  "education",
  "communication",
  "entertainment",
  "utilities",
] as const);
export type AppCategory = (typeof APP_CATEGORIES)[number];

/** 3–80 characters, lowercase, no leading/trailing hyphen (L5172). */
export const APP_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,78}[a-z0-9]$/;
export const APP_NAME_MAX_CHARS = 120;
export const APP_TAGLINE_MAX_CHARS = 160;
export const APP_DESCRIPTION_MAX_CHARS = 20000;
export const APP_URL_MAX_CHARS = 500;
export const APP_SCREENSHOTS_MAX = 6;

const UrlSchema = boundedString(0, APP_URL_MAX_CHARS);

/** One bundled executa: the folder (relative to the project) holding it. */
export const BundledExecutaSchema = z.looseObject({
  path: z.string().min(1),
});
export type BundledExecuta = z.infer<typeof BundledExecutaSchema>;

export const AppListingSchema = z.looseObject({
  name: boundedString(1, APP_NAME_MAX_CHARS),
  slug: z.string().regex(APP_SLUG_PATTERN, {
    error: (issue) =>
      `${quote(issue.input)} is not a valid slug: 3–80 of a-z 0-9 -, starting and ending with a letter or digit (e.g. "focus-flow")`,
  }),
  category: z.enum(APP_CATEGORIES),
  tagline: boundedString(0, APP_TAGLINE_MAX_CHARS).nullish(),
  description: boundedString(0, APP_DESCRIPTION_MAX_CHARS).nullish(),
  logo_url: UrlSchema.nullish(),
  cover_url: UrlSchema.nullish(),
  screenshots: z.array(UrlSchema).max(APP_SCREENSHOTS_MAX).nullish(),
  homepage_url: UrlSchema.nullish(),
  support_url: UrlSchema.nullish(),
  privacy_url: UrlSchema.nullish(),
  /** Named as listing metadata (L4187) without a contract (X35); kept as given. */
  pricing: z.unknown().optional(),
  /**
   * Listing keys the upstream publish step reads (real-world-cli.md "Listing source keys",
   * real-world-plugins.md "Seen in published …"): the release's version, checked as the app
   * version publish creates from it (SemVer without +build); the rest are kept as given.
   */
  version: z
    .string()
    .regex(APP_VERSION_PATTERN, {
      error: (issue) =>
        `${quote(issue.input)} is not a version: use X.Y.Z with an optional -prerelease (e.g. "1.2.0" or "1.2.0-beta.1"); +build metadata is not supported`,
    })
    .nullish(),
  pricing_model: z.unknown().optional(),
  changelog: z.unknown().optional(),
  /** A logo image in the project, uploaded by publish instead of `logo_url`. */
  logo_file: z.string().min(1).nullish(),
  /**
   * Handle → `{path}`. The CLI reads an array too, with each index as the handle (L7411–L7423);
   * that is accepted and warned about.
   */
  bundled_executas: z
    .union([z.record(z.string(), BundledExecutaSchema), z.array(BundledExecutaSchema)])
    .nullish(),
});
export type AppListing = z.infer<typeof AppListingSchema>;

export const APP_LISTING_KEYS = Object.freeze(Object.keys(AppListingSchema.shape));

const URL_FIELDS = ["logo_url", "cover_url", "homepage_url", "support_url", "privacy_url"] as const;

function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s/]+/.test(value);
}

/** `bundled_executas` as handle → entry, whichever form was written. */
export function bundledExecutasOf(
  listing: Pick<AppListing, "bundled_executas">,
): Map<string, BundledExecuta> {
  const out = new Map<string, BundledExecuta>();
  const value = listing.bundled_executas;
  if (Array.isArray(value)) value.forEach((entry, index) => out.set(String(index), entry));
  else if (value !== undefined && value !== null) {
    for (const [handle, entry] of Object.entries(value)) out.set(handle, entry);
  }
  return out;
}

/** Validates a parsed `app.json`. */
export function validateAppListing(raw: unknown): AppValidation<AppListing> {
  if (!isDocumentObject(raw)) {
    return notAnObject(
      "schema.invalid_type",
      'app.json must hold a JSON object, e.g. {"name": "Focus Flow", "slug": "focus-flow", "category": "productivity"}',
    );
  }
  const parsed = parseDocument(AppListingSchema, raw);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const listing = parsed.data;
  const issues: AppIssue[] = [];
  for (const key of Object.keys(raw)) {
    if (APP_LISTING_KEYS.includes(key)) continue;
    issues.push(
      appIssue(
        "warning",
        "listing.unknown_field",
        [key],
        `unknown field ${quote(key)} in app.json; the listing has ${APP_LISTING_KEYS.join(", ")}`,
      ),
    );
  }
  for (const field of URL_FIELDS) {
    const value = listing[field];
    if (typeof value === "string" && value !== "" && !isHttpUrl(value)) {
      issues.push(
        appIssue(
          "warning",
          "listing.url",
          [field],
          `${quote(value)} does not look like an http(s) URL`,
        ),
      );
    }
  }
  (listing.screenshots ?? []).forEach((value, index) => {
    if (!isHttpUrl(value)) {
      issues.push(
        appIssue(
          "warning",
          "listing.url",
          ["screenshots", index],
          `${quote(value)} does not look like an http(s) URL`,
        ),
      );
    }
  });
  if (Array.isArray(listing.bundled_executas)) {
    issues.push(
      appIssue(
        "warning",
        "listing.bundled_executas_array",
        ["bundled_executas"],
        'bundled_executas is an array, so its handles are the indexes "0", "1", …; write an object keyed by handle: {"<handle>": {"path": "executas/<dir>"}}',
      ),
    );
  }
  for (const [handle, entry] of bundledExecutasOf(listing)) {
    if (entry.path.startsWith("/") || entry.path.split(/[\\/]/).includes("..")) {
      issues.push(
        appIssue(
          "warning",
          "listing.bundled_path",
          ["bundled_executas", handle, "path"],
          `path ${quote(entry.path)} leaves the project; use a folder under the project (e.g. "executas/${handle}")`,
        ),
      );
    }
  }
  const ok = !hasErrors(issues);
  return ok ? { ok, value: listing, issues } : { ok, issues };
}
