// The server's side of OAuth 2.0 with a platform provider: the authorize URL (authorization code
// with PKCE S256, RFC 7636), the code exchange and the refresh_token grant at the token endpoint,
// the account's identity from its userinfo URL, and revocation (RFC 7009). Every answer is read
// under a byte cap and a timeout; no token is ever put in an error message.
import { createHash, randomBytes } from "node:crypto";
import type { OAuthProvider } from "./oauth-providers.js";

/** A provider answer larger than this is not a token response. */
export const OAUTH_MAX_RESPONSE_BYTES = 64 * 1024;
/** Each call to a provider gives up after this. */
export const OAUTH_REQUEST_TIMEOUT_MS = 10_000;

export interface TokenSet {
  accessToken: string;
  /** Absent when the provider rotates nothing (a refresh that returns none keeps the old one). */
  refreshToken: string | undefined;
  /** Seconds from now, when the provider said. */
  expiresInS: number | undefined;
  /** The scopes granted, when the provider said (they may be fewer than asked). */
  scopes: string[] | undefined;
}

export interface AccountIdentity {
  accountId: string;
  email: string | null;
  label: string | null;
}

/** The provider refused the grant (`invalid_grant`, a revoked or expired refresh token). */
export class OAuthRefusedError extends Error {
  constructor(
    message: string,
    readonly oauthError: string | undefined,
  ) {
    super(message);
    this.name = "OAuthRefusedError";
  }
}

/** The provider could not be reached, or answered something that is not OAuth. */
export class OAuthUpstreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OAuthUpstreamError";
  }
}

export interface PkcePair {
  verifier: string;
  challenge: string;
}

/** A 43-character verifier (32 random bytes) and its S256 challenge. */
export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function authorizeUrl(
  provider: OAuthProvider,
  o: { redirectUri: string; state: string; challenge: string; scopes: readonly string[] },
): string {
  const url = new URL(provider.authorizeUrl);
  const q = url.searchParams;
  q.set("response_type", "code");
  q.set("client_id", provider.clientId);
  q.set("redirect_uri", o.redirectUri);
  q.set("state", o.state);
  q.set("code_challenge", o.challenge);
  q.set("code_challenge_method", "S256");
  if (o.scopes.length > 0) q.set("scope", o.scopes.join(" "));
  for (const [k, v] of Object.entries(provider.authorizeParams)) q.set(k, v);
  return url.toString();
}

export type Fetch = typeof globalThis.fetch;

async function boundedText(res: Response, what: string): Promise<string> {
  const reader = res.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > OAUTH_MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new OAuthUpstreamError(
        `${what} answered more than ${OAUTH_MAX_RESPONSE_BYTES} bytes; a token response is a small JSON object`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function call(
  fetch: Fetch,
  url: string,
  init: RequestInit,
  what: string,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      redirect: "error",
      signal: AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new OAuthUpstreamError(
      `${what} (${new URL(url).origin}) did not answer: ${(err as Error).message}`,
      { cause: err },
    );
  }
  const text = await boundedText(res, what);
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = text === "" ? undefined : JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      body = parsed as Record<string, unknown>;
    }
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
const clip = (s: string | undefined) => (s === undefined ? undefined : s.slice(0, 300));

function tokenRequest(provider: OAuthProvider, form: Record<string, string>): RequestInit {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  const body = new URLSearchParams(form);
  if (provider.tokenAuth === "basic") {
    const id = encodeURIComponent(provider.clientId);
    const secret = encodeURIComponent(provider.clientSecret);
    headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
  } else {
    body.set("client_id", provider.clientId);
    body.set("client_secret", provider.clientSecret);
  }
  return { method: "POST", headers, body: body.toString() };
}

function tokenSetOf(
  provider: OAuthProvider,
  status: number,
  body: Record<string, unknown> | undefined,
  grant: string,
): TokenSet {
  const what = `${provider.name}'s token endpoint (${grant})`;
  const error = str(body?.error);
  if (status === 400 || status === 401 || error !== undefined) {
    const description = clip(str(body?.error_description));
    const message = `${what} refused: ${error ?? `HTTP ${status}`}${description ? ` (${description})` : ""}`;
    if (status >= 500) throw new OAuthUpstreamError(message);
    throw new OAuthRefusedError(message, error);
  }
  if (status < 200 || status > 299) throw new OAuthUpstreamError(`${what} answered HTTP ${status}`);
  const accessToken = str(body?.access_token);
  if (accessToken === undefined) {
    throw new OAuthUpstreamError(`${what} answered no access_token`);
  }
  const type = str(body?.token_type);
  if (type !== undefined && type.toLowerCase() !== "bearer") {
    throw new OAuthUpstreamError(
      `${what} answered a ${type.slice(0, 40)} token; only bearer tokens are used`,
    );
  }
  const expiresIn = Number(body?.expires_in);
  return {
    accessToken,
    refreshToken: str(body?.refresh_token),
    expiresInS: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
    scopes: str(body?.scope)
      ?.split(" ")
      .filter((s) => s !== ""),
  };
}

export async function exchangeCode(
  fetch: Fetch,
  provider: OAuthProvider,
  o: { code: string; redirectUri: string; verifier: string },
): Promise<TokenSet> {
  const form = {
    grant_type: "authorization_code",
    code: o.code,
    redirect_uri: o.redirectUri,
    code_verifier: o.verifier,
  };
  const res = await call(
    fetch,
    provider.tokenUrl,
    tokenRequest(provider, form),
    `${provider.name}'s token endpoint`,
  );
  return tokenSetOf(provider, res.status, res.body, "authorization_code");
}

export async function refreshTokens(
  fetch: Fetch,
  provider: OAuthProvider,
  refreshToken: string,
): Promise<TokenSet> {
  const form = { grant_type: "refresh_token", refresh_token: refreshToken };
  const res = await call(
    fetch,
    provider.tokenUrl,
    tokenRequest(provider, form),
    `${provider.name}'s token endpoint`,
  );
  return tokenSetOf(provider, res.status, res.body, "refresh_token");
}

/**
 * The account behind a token: `sub` (OpenID), `id`, or X's `data.id`; email and a display name
 * where given. Without a userinfo URL the caller names the account itself.
 */
export async function fetchIdentity(
  fetch: Fetch,
  provider: OAuthProvider,
  accessToken: string,
): Promise<AccountIdentity | undefined> {
  if (provider.userinfoUrl === undefined) return undefined;
  const what = `${provider.name}'s userinfo endpoint`;
  const res = await call(
    fetch,
    provider.userinfoUrl,
    { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } },
    what,
  );
  if (res.status < 200 || res.status > 299 || res.body === undefined) {
    throw new OAuthUpstreamError(`${what} answered HTTP ${res.status} without an identity`);
  }
  const data =
    res.body.data !== null && typeof res.body.data === "object"
      ? (res.body.data as Record<string, unknown>)
      : res.body;
  const id =
    str(data.sub) ?? str(data.id) ?? (typeof data.id === "number" ? String(data.id) : undefined);
  if (id === undefined) throw new OAuthUpstreamError(`${what} answered no account id (sub or id)`);
  const email = str(data.email) ?? null;
  const label = str(data.name) ?? str(data.username) ?? email;
  return {
    accountId: id.slice(0, 200),
    email: email?.slice(0, 320) ?? null,
    label: label?.slice(0, 200) ?? null,
  };
}

/** RFC 7009, best effort: a disconnect goes on whether the provider answered or not. */
export async function revokeToken(
  fetch: Fetch,
  provider: OAuthProvider,
  token: string,
  hint: "refresh_token" | "access_token",
): Promise<boolean> {
  if (provider.revokeUrl === undefined) return false;
  try {
    const res = await call(
      fetch,
      provider.revokeUrl,
      tokenRequest(provider, { token, token_type_hint: hint }),
      `${provider.name}'s revocation endpoint`,
    );
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}
