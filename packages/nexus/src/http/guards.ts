// Request guards in the order createApp applies them: Host header, CSRF, then authentication
// helpers the routes call.
import { getConnInfo } from "@hono/node-server/conninfo";
import { getCookie } from "hono/cookie";
import type { MiddlewareHandler } from "hono";
import { RUNTIME_API } from "@anna-ai/app-core/http";
import { hashSecret } from "../auth/secrets.js";
import type { NexusConfig } from "../core/config.js";
import { NexusError } from "../core/errors.js";
import { PAT_PREFIX, type Scope } from "../auth/scopes.js";
import type { AppDeps, Ctx, Env, Principal } from "./context.js";

export const SESSION_COOKIE = "anna_session";
/**
 * The mobile shell's cookie (routes/mobile-shell.ts): the developer token the shell was first
 * loaded with, sent back only under RUNTIME_COOKIE_PATH and honoured only there, so it reaches
 * the runtime wire (windows, event stream) and nothing else, with the token's own expiry,
 * revocation and scopes.
 */
export const RUNTIME_COOKIE = "anna_runtime";
export const RUNTIME_COOKIE_PATH = RUNTIME_API;
/** Don't write `last_used_at` more often than this per token. */
const TOUCH_INTERVAL_MS = 60_000;
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const HOST_CHECK_EXEMPT = new Set(["/healthz", "/readyz"]);

function isLoopbackHostname(h: string): boolean {
  return h === "localhost" || h === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** `host[:port]` → hostname in URL form (`[::1]` keeps its brackets). */
function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return "";
  }
}

function publicHost(config: NexusConfig): string | undefined {
  return config.publicOrigin ? new URL(config.publicOrigin).host.toLowerCase() : undefined;
}

/** Rejects requests whose Host is neither loopback nor the configured public origin (DNS rebinding). */
export function hostGuard(config: NexusConfig): MiddlewareHandler<Env> {
  const allowed = publicHost(config);
  return async (c, next) => {
    const host = (c.req.header("host") ?? new URL(c.req.url).host).toLowerCase();
    const proto =
      config.trustProxy && c.req.header("x-forwarded-proto")
        ? (c.req.header("x-forwarded-proto") as string).split(",")[0]!.trim()
        : new URL(c.req.url).protocol.replace(":", "");
    const ok = host === allowed || isLoopbackHostname(hostnameOf(host));
    if (!ok && !HOST_CHECK_EXEMPT.has(c.req.path)) {
      throw new NexusError("misdirected_host", "this server does not answer for that Host");
    }
    c.set(
      "secure",
      proto === "https" || (host === allowed && config.publicOrigin?.startsWith("https:") === true),
    );
    c.set(
      "ownOrigin",
      host === allowed && config.publicOrigin
        ? new URL(config.publicOrigin).origin
        : `${proto}://${host}`,
    );
    c.set("clientIp", clientIp(c, config));
    await next();
  };
}

function clientIp(c: Ctx, config: NexusConfig): string {
  if (config.trustProxy) {
    const fwd = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (fwd) return fwd;
  }
  try {
    return getConnInfo(c).remote.address ?? "local";
  } catch {
    return "local";
  }
}

/**
 * Cross-site request forgery: a write that a browser could send with the session cookie must
 * come from our own origin. Bearer-authenticated calls carry no ambient credential and pass;
 * non-browser clients that send neither `Origin` nor `Sec-Fetch-Site` pass too.
 */
export function csrfGuard(): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (UNSAFE.has(c.req.method) && !/^bearer\s/i.test(c.req.header("authorization") ?? "")) {
      const site = c.req.header("sec-fetch-site");
      const origin = c.req.header("origin");
      if (site !== undefined && site !== "same-origin") {
        throw new NexusError("csrf_rejected", "cross-site request refused");
      }
      if (origin !== undefined && origin !== c.get("ownOrigin")) {
        throw new NexusError("csrf_rejected", "cross-origin request refused");
      }
    }
    await next();
  };
}

/** Resolves the caller from a Bearer PAT or the session cookie; undefined when anonymous. */
export async function authenticate(c: Ctx, deps: AppDeps): Promise<Principal | undefined> {
  const cached = c.get("principal");
  if (cached) return cached;
  const now = deps.clock.now();
  const auth = c.req.header("authorization");
  let principal: Principal | undefined;
  if (auth !== undefined) {
    const m = /^bearer\s+(\S+)$/i.exec(auth);
    if (!m) throw new NexusError("unauthenticated", "malformed Authorization header");
    principal = await patPrincipal(m[1] as string, deps, now);
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie) {
      const sessionHash = hashSecret(cookie);
      const user = await deps.stores.sessions.findUser(sessionHash, now);
      if (user) principal = { via: "session", user, sessionHash };
    }
    if (principal === undefined && c.req.path.startsWith(`${RUNTIME_COOKIE_PATH}/`)) {
      const scoped = getCookie(c, RUNTIME_COOKIE);
      if (scoped) principal = await runtimeCookiePrincipal(scoped, deps, now);
    }
  }
  c.set("principal", principal);
  return principal;
}

/** The principal for a PAT (Bearer header or the dev endpoints' `pat` field). */
export async function patPrincipal(pat: string, deps: AppDeps, now: number): Promise<Principal> {
  const found = pat.startsWith(PAT_PREFIX)
    ? await deps.stores.tokens.findWithUser(hashSecret(pat))
    : undefined;
  if (!found) throw new NexusError("unauthenticated", "unknown token");
  const { token, user } = found;
  if (token.revokedAt !== null) throw new NexusError("token_revoked", "this token was revoked");
  if (token.expiresAt <= now) throw new NexusError("token_expired", "this token has expired");
  if (token.lastUsedAt === null || now - token.lastUsedAt >= TOUCH_INTERVAL_MS) {
    await deps.stores.tokens.touch(token.id, now);
    token.lastUsedAt = now;
  }
  return { via: "pat", user, token };
}

/** The mobile shell's cookie, whose failures say where the token came from and what to do. */
async function runtimeCookiePrincipal(pat: string, deps: AppDeps, now: number): Promise<Principal> {
  try {
    return await patPrincipal(pat, deps, now);
  } catch (error) {
    if (!(error instanceof NexusError)) throw error;
    throw new NexusError(
      error.code,
      `the mobile shell's token (cookie ${RUNTIME_COOKIE}) no longer works: ${error.message}; load the shell again with a valid token in Authorization: Bearer`,
    );
  }
}

export async function requireUser(c: Ctx, deps: AppDeps): Promise<Principal> {
  const p = await authenticate(c, deps);
  if (!p) throw new NexusError("unauthenticated", "sign in or send a developer token");
  return p;
}

/** A PAT must carry every scope in `needed`; a browser session has them all. */
export function requireScopes(p: Principal, needed: readonly Scope[]): void {
  if (p.via !== "pat") return;
  const have = p.token.scopes;
  const missing = needed.filter((s) => !have.includes(s));
  if (missing.length) {
    throw new NexusError("missing_scope", `this call needs PAT scope: ${missing.join(", ")}`, {
      details: { detail: "missing_scope", needed: [...needed], missing, have },
    });
  }
}

/** Some actions (approving a device login) need a person in a browser, not a token. */
export function requireSession(p: Principal): Extract<Principal, { via: "session" }> {
  if (p.via !== "session") {
    throw new NexusError("PAT_NOT_ALLOWED", "this action needs a browser session, not a token");
  }
  return p;
}
