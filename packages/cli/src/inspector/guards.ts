// The inspector's own guards, after the harness's Host and Origin checks: a per-run token (the
// URL printed in the terminal carries it once; the page then holds it as an HttpOnly,
// SameSite=Strict cookie, scripts send `Authorization: Bearer`), and JSON-only POSTs, so no
// cross-site form or `text/plain` beacon can drive the plugin even without the Origin check.
import { timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "@anna-ai/app-core/http";

/** Cookies are shared by every port of a host: the name carries the port. */
export function cookieName(port: number): string {
  return `anna_inspector_${port}`;
}

export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1];
}

export function isAuthorized(c: Context, token: string, cookie: string): boolean {
  return (
    sameToken(cookieValue(c.req.header("cookie"), cookie), token) ||
    sameToken(bearerToken(c.req.header("authorization")), token)
  );
}

/** 401 unless the request carries the token (cookie or bearer). */
export function tokenGuard(token: string, cookie: () => string): MiddlewareHandler {
  return async (c, next) => {
    if (!isAuthorized(c, token, cookie())) {
      throw new HttpError(
        "invalid_token",
        `${c.req.method} ${new URL(c.req.url).pathname} needs the inspector's token: open the URL anna-app executa dev --ui printed (…/?token=…), or send Authorization: Bearer <token>`,
      );
    }
    await next();
  };
}

/** 415 for a POST whose body is not declared `application/json`. */
export const jsonPostGuard: MiddlewareHandler = async (c, next) => {
  if (c.req.method === "POST") {
    const type = c.req.header("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
    if (type !== "application/json") {
      throw new HttpError(
        "unsupported_media_type",
        `POST ${new URL(c.req.url).pathname} takes Content-Type: application/json, not ${type === undefined || type === "" ? "(none)" : type}`,
      );
    }
  }
  await next();
};
