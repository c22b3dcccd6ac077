// MIME checks of host uploads (T28, R61): there is no allowlist, only a hard denylist of
// executables and SVG (it can carry script). Malformed types are refused too. Both are -32205;
// the accepted type is echoed lower-cased.
import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../service-error.js";

/** Refused whatever the grant says (L3217, L9590, R61). */
export const UPLOAD_DENIED_MIME_TYPES: readonly string[] = [
  "application/x-msdownload",
  "application/x-msdos-program",
  "application/x-executable",
  "application/x-sharedlib",
  "image/svg+xml",
];
/** Longest MIME type accepted (RFC 6838 caps each name at 127 characters). */
export const UPLOAD_MIME_MAX_CHARS = 255;

const TOKEN = "[a-z0-9][a-z0-9!#$&^_.+-]*";
const MIME_PATTERN = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=("[^"]*"|[^;\\s]+))*$`);

/** The lower-cased MIME type, or -32205 for a malformed or denied one. */
export function checkMime(mime: unknown, method: string): string {
  const lowered = typeof mime === "string" ? mime.trim().toLowerCase() : "";
  if (lowered === "" || lowered.length > UPLOAD_MIME_MAX_CHARS || !MIME_PATTERN.test(lowered)) {
    throw catalogError(
      UPLOAD_ERRORS.MIME_REJECTED,
      `${method}: 'mime_type' ${JSON.stringify(mime)} is not a valid MIME type such as "image/png"`,
      { reason: "MALFORMED" },
    );
  }
  const essence = (lowered.split(";")[0] ?? "").trim();
  if (UPLOAD_DENIED_MIME_TYPES.includes(essence)) {
    throw catalogError(
      UPLOAD_ERRORS.MIME_REJECTED,
      `${method}: '${essence}' uploads are not allowed (executables and SVG are refused)`,
      { reason: "DENYLISTED", mime_type: essence },
    );
  }
  return lowered;
}
