// The argument checks every web method shares: the grant, the query, and counts within their
// caps. A refusal is WEB_INVALID_REQUEST or WEB_NOT_GRANTED naming what would be accepted.
import { WEB_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../service-error.js";
import type { WebGrant } from "../web-service.js";
import { WEB_QUERY_MAX_CHARS } from "./web-limits.js";
import { isIntegerIn } from "../integer-range.js";

export const invalid = (message: string, data?: Record<string, unknown>) =>
  catalogError(WEB_ERRORS.INVALID_REQUEST, message, data);

export function requireGrant(
  grant: WebGrant | undefined,
  flag: "allowSearch" | "allowFetch" | "allowImageSearch" | "allowImageFetch",
  method: string,
): WebGrant {
  if (grant?.enabled !== true) {
    throw catalogError(
      WEB_ERRORS.NOT_GRANTED,
      `${method}: web access is not granted; the user enables it for this app (web_grant), then retry`,
      { reason: "WEB_GRANT_DISABLED" },
    );
  }
  // Search and fetch default on once enabled; the image methods default off (R152).
  const allowed =
    flag === "allowSearch" || flag === "allowFetch" ? grant[flag] !== false : grant[flag] === true;
  if (!allowed) {
    throw catalogError(
      WEB_ERRORS.NOT_GRANTED,
      `${method}: web_grant.${flag} is off; the user allows it for this app, then retry`,
      { reason: `${flag.replace(/^allow/, "").toUpperCase()}_NOT_GRANTED` },
    );
  }
  return grant;
}

export function checkQuery(query: unknown, method: string): void {
  if (typeof query !== "string" || query.trim() === "" || query.length > WEB_QUERY_MAX_CHARS) {
    throw invalid(`${method}: 'query' must be 1 to ${WEB_QUERY_MAX_CHARS} chars of text`);
  }
}

/** A positive integer within `[1, cap]`; absent → `fallback`. Out of cap is refused (R153). */
export function checkCount(value: unknown, fallback: number, cap: number, name: string): number {
  if (value === undefined || value === null) return fallback;
  if (!isIntegerIn(value, 1, cap)) {
    throw invalid(`'${name}' must be an integer from 1 to ${cap}; got ${JSON.stringify(value)}`, {
      param: name,
      max: cap,
    });
  }
  return value;
}
