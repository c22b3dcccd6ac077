// Window tokens (U41): short-lived JWTs bound to (window_uuid, user_id, app_id, version_id) with
// the audience `anna-app-window`, minted on open and hydrate and refreshed with `auth.refresh`.
// HS256 with a per-process secret: only the dispatcher that minted a token checks it (the server
// passes one shared secret to all its nodes). Tokens are secrets: never log one.
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.js";
import { SYSTEM_CLOCK } from "../clock.js";
import { HostApiError } from "../errors/host-api-error.js";

/** TTL of a window token (L5506, L6321). */
export const WINDOW_TOKEN_TTL_S = 120;
export const WINDOW_TOKEN_AUDIENCE = "anna-app-window";
export const WINDOW_TOKEN_ISSUER = "anna-app-core";
/** Skew tolerated on `exp`; small, since the dispatcher usually checks its own tokens. */
export const WINDOW_TOKEN_CLOCK_TOLERANCE_S = 5;

export interface WindowTokenClaims {
  windowUuid: string;
  userId: string;
  appId: string;
  versionId: string;
}

export interface VerifiedWindowToken extends WindowTokenClaims {
  expiresAtS: number;
}

export interface WindowTokenIssuerOptions {
  /** At least 32 bytes; a random one per issuer when omitted. */
  secret?: Uint8Array;
  clock?: Clock;
  ttlSeconds?: number;
}

/**
 * What the dispatcher needs of token issuance; inject another (a key service, a secret shared by
 * the server's nodes) through `tokens`. `verify` rejects with `invalid_token` whatever is wrong.
 */
export interface WindowTokenService {
  readonly ttlSeconds: number;
  mint(claims: WindowTokenClaims): Promise<string>;
  verify(token: unknown): Promise<VerifiedWindowToken>;
}

/** The per-process (or shared) HS256 secret implementation. */
export class WindowTokenIssuer implements WindowTokenService {
  readonly ttlSeconds: number;
  readonly #secret: Uint8Array;
  readonly #clock: Clock;

  constructor(options: WindowTokenIssuerOptions = {}) {
    if (options.secret !== undefined && options.secret.byteLength < 32) {
      throw new Error("a window token secret needs at least 32 bytes");
    }
    this.#secret = options.secret ?? new Uint8Array(randomBytes(32));
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.ttlSeconds = options.ttlSeconds ?? WINDOW_TOKEN_TTL_S;
  }

  mint(claims: WindowTokenClaims): Promise<string> {
    const iat = Math.floor(this.#clock() / 1000);
    return new SignJWT({
      wid: claims.windowUuid,
      app_id: claims.appId,
      version_id: claims.versionId,
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(WINDOW_TOKEN_ISSUER)
      .setAudience(WINDOW_TOKEN_AUDIENCE)
      .setSubject(claims.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.#secret);
  }

  /** Rejects with `invalid_token` (expired, bad signature, wrong audience, malformed). */
  async verify(token: unknown): Promise<VerifiedWindowToken> {
    if (typeof token !== "string" || token === "") {
      throw new HostApiError("invalid_token", "no window token: send it in X-Anna-App-Token");
    }
    try {
      const { payload } = await jwtVerify(token, this.#secret, {
        algorithms: ["HS256"],
        issuer: WINDOW_TOKEN_ISSUER,
        audience: WINDOW_TOKEN_AUDIENCE,
        currentDate: new Date(this.#clock()),
        clockTolerance: WINDOW_TOKEN_CLOCK_TOLERANCE_S,
        requiredClaims: ["exp", "sub"],
      });
      const { wid, app_id: appId, version_id: versionId, sub: userId, exp } = payload;
      if (
        typeof wid !== "string" ||
        typeof appId !== "string" ||
        typeof versionId !== "string" ||
        typeof userId !== "string"
      ) {
        throw new HostApiError("invalid_token", "window token lacks its window binding");
      }
      return { windowUuid: wid, userId, appId, versionId, expiresAtS: exp ?? 0 };
    } catch (error) {
      if (error instanceof HostApiError) throw error;
      const reason =
        error instanceof joseErrors.JWTExpired
          ? "window token has expired: refresh it with auth.refresh"
          : "window token is not valid";
      throw new HostApiError("invalid_token", reason, undefined, { cause: error });
    }
  }
}
