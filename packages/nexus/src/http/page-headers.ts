// The headers of Nexus's few server-rendered pages (device approval, email verification): only
// the page's own nonce'd script runs and it may only call this origin, no framing
// (clickjacking), no Referer (a page URL may carry a code or token), no caching.
import { randomBytes } from "node:crypto";
import type { Ctx } from "./context.js";

/** Sets the headers and returns the nonce the page's `<script nonce>` must carry. */
export function setPageHeaders(c: Ctx): string {
  const nonce = randomBytes(16).toString("base64");
  c.header(
    "Content-Security-Policy",
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cache-Control", "no-store");
  return nonce;
}

/** HTML-escapes text for element content and quoted attributes. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The web dashboard's Content-Security-Policy: its scripts and styles are files of its own
 * origin (Vite writes no inline script), it calls only this origin's API, may frame only this
 * origin (app windows come from the bundle route, sandboxed), and nobody may frame it.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // Listing images may be the developer's https URLs, and an S3 blob store's signed URLs (where
  // /api/v1/app-media redirects) are on the bucket's origin; an image cannot run code.
  "img-src 'self' data: blob: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The headers of every dashboard response; `cache` is the file's Cache-Control. */
export function setDashboardHeaders(c: Ctx, cache: string): void {
  c.header("Content-Security-Policy", DASHBOARD_CSP);
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cross-Origin-Opener-Policy", "same-origin");
  c.header("Cache-Control", cache);
}
