import { z } from "zod";
import { formatSpecMessage } from "./spec-messages.js";
import { quote } from "./text.js";

/** `ui.csp_overrides` (L5690–L5719): additive, and only for these directives. */

export const CSP_OVERRIDABLE_DIRECTIVES = Object.freeze([
  "connect-src",
  "img-src",
  "media-src",
  "font-src",
  "style-src",
  "script-src",
] as const);
export type CspOverridableDirective = (typeof CSP_OVERRIDABLE_DIRECTIVES)[number];

/** Directives whose overrides may only be `'self'`, a hash or a nonce. */
export const CSP_RESTRICTED_DIRECTIVES = Object.freeze(["script-src", "style-src"] as const);

/** `'self'`, `'sha256-…'`, `'nonce-…'` (quotes included, as CSP writes them). */
export const CSP_RESTRICTED_SOURCE_PATTERN =
  /^'(self|sha256-[A-Za-z0-9+/_-]+={0,2}|nonce-[A-Za-z0-9+/_-]+={0,2})'$/;

/** The base policy every bundle gets (L5705–L5719); `<sdk-origin>` is filled by the server. */
export const BASE_CSP: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "default-src": ["'none'"],
  "base-uri": ["'self'"],
  "script-src": ["'self'", "<sdk-origin>"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:"],
  "font-src": ["'self'", "data:"],
  "media-src": ["'self'", "blob:"],
  "connect-src": ["'self'"],
  "worker-src": ["'self'", "blob:"],
  "frame-ancestors": ["'self'"],
  "form-action": ["'self'"],
});

const OVERRIDABLE = new Set<string>(CSP_OVERRIDABLE_DIRECTIVES);
const RESTRICTED = new Set<string>(CSP_RESTRICTED_DIRECTIVES);

/** Python-style list, as the platform's message prints it: `['frame-ancestors']`. */
function pyList(values: readonly string[]): string {
  return `[${values.map((value) => `'${value}'`).join(", ")}]`;
}

export const CspOverridesSchema = z
  .record(z.string(), z.array(z.string()))
  .check((ctx) => {
    const bad = Object.keys(ctx.value).filter((directive) => !OVERRIDABLE.has(directive));
    if (bad.length > 0) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `these directives cannot be overridden: ${bad.join(", ")}; only ${CSP_OVERRIDABLE_DIRECTIVES.join(", ")} can`,
        params: {
          code: "ui.csp.directive",
          specMessage: formatSpecMessage("cspDirectiveNotAllowed", { directives: pyList(bad) })
            .text,
        },
      });
    }
    for (const [directive, values] of Object.entries(ctx.value)) {
      if (!RESTRICTED.has(directive)) continue;
      values.forEach((value, index) => {
        if (CSP_RESTRICTED_SOURCE_PATTERN.test(value)) return;
        ctx.issues.push({
          code: "custom",
          input: value,
          path: [directive, index],
          message: `${quote(value)} is not allowed in ${directive}: use 'self', 'sha256-<base64>' or 'nonce-<base64>' (with the single quotes)`,
          params: {
            code: "ui.csp.restricted_source",
            specMessage: formatSpecMessage("cspScriptSrcValues", { directive }).text,
          },
        });
      });
    }
  })
  .meta({
    propertyNames: { enum: [...CSP_OVERRIDABLE_DIRECTIVES] },
    properties: Object.fromEntries(
      CSP_RESTRICTED_DIRECTIVES.map((directive) => [
        directive,
        { type: "array", items: { type: "string", pattern: CSP_RESTRICTED_SOURCE_PATTERN.source } },
      ]),
    ),
  });
export type CspOverrides = z.infer<typeof CspOverridesSchema>;

/**
 * The policy a bundle is served with: the base, plus `external_origins` on `connect-src` and
 * `img-src`, plus each allowed override appended (L5719). Duplicates are dropped.
 */
export function buildBundleCsp(
  overrides: Readonly<Record<string, readonly string[]>> | undefined,
  externalOrigins: readonly string[] = [],
  sdkOrigin?: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [directive, values] of Object.entries(BASE_CSP)) {
    out[directive] = values
      .map((value) => (value === "<sdk-origin>" ? sdkOrigin : value))
      .filter((value): value is string => value !== undefined);
  }
  const add = (directive: string, value: string): void => {
    const list = (out[directive] ??= []);
    if (!list.includes(value)) list.push(value);
  };
  for (const origin of externalOrigins) {
    add("connect-src", origin);
    add("img-src", origin);
  }
  for (const [directive, values] of Object.entries(overrides ?? {})) {
    if (!OVERRIDABLE.has(directive)) continue;
    for (const value of values) add(directive, value);
  }
  return out;
}

/** `default-src 'none'; base-uri 'self'; …` */
export function serializeCsp(policy: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(policy)
    .map(([directive, values]) => [directive, ...values].join(" "))
    .join("; ");
}
