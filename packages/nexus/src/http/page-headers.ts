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
