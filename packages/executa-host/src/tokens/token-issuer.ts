// Per-invoke tokens (H15): EdDSA JWTs bound to (user, tool_id, invoke_id) with the audience of
// their family and a 600 s lifetime. Nexus mints them in production; offline tools mint them with
// a local dev key (dev-token-issuer.ts) and check them the same way, so a plugin that forwards a
// token sees the same shape everywhere. Tokens are secrets: never log them, never put one in an
// error message.
//
// Minting signs with node:crypto's one-shot Ed25519 `sign`, on the calling thread: one token per
// granted family is minted on every invoke, and WebCrypto's (jose's) signing runs each one as a
// threadpool job whose hand-back costs the invoke a thread wake-up and an event-loop turn. Ed25519
// is deterministic, so the bytes are the ones jose's SignJWT produces (test/tokens/token-issuer.test.ts checks that);
// verification stays with jose.
import {
  createPrivateKey,
  sign as ed25519Sign,
  type JsonWebKeyInput,
  type KeyObject as NodeKeyObject,
} from "node:crypto";
import { calculateJwkThumbprint, errors as joseErrors, importJWK, jwtVerify } from "jose";
import type { CryptoKey, JWK, JWTPayload, KeyObject } from "jose";

/** Lifetime of every per-invoke token (L1225, L1881, L2367, L3195). */
export const TOKEN_TTL_S = 600;
/** Clock skew tolerated when checking `iat`/`exp`. */
export const TOKEN_CLOCK_TOLERANCE_S = 5;
export const DEFAULT_TOKEN_ISSUER = "anna-executa-host";

/**
 * The audience of each token family. `executa-image` is our choice: the spec names the
 * `image_token` but never its audience (D-host-52).
 */
export const TOKEN_AUDIENCES = {
  sampling: "executa-sampling",
  storage: "aps-storage",
  image: "executa-image",
  upload: "executa-upload",
  credentials: "executa-credentials",
} as const;
export type TokenAudience = (typeof TOKEN_AUDIENCES)[keyof typeof TOKEN_AUDIENCES];

/** What a token is bound to (L1228: `user_id`, `executa_tool_id`, `tool_invoke_id`). */
export interface TokenBinding {
  userId: string;
  toolId: string;
  invokeId: string;
}

export interface MintClaims extends TokenBinding {
  audience: string;
  /**
   * Family claims, written as given (snake_case on the wire: `allowed_scopes`, `max_calls`,
   * `max_file_bytes`, …). They cannot override the registered or binding claims.
   */
  extra?: Readonly<Record<string, unknown>>;
  /** Defaults to TOKEN_TTL_S. */
  ttlSeconds?: number;
}

export interface VerifiedToken extends TokenBinding {
  audience: string;
  issuedAtS: number;
  expiresAtS: number;
  /** Every claim of the token, including the family ones. */
  claims: JWTPayload;
}

export type TokenErrorCode =
  | "TOKEN_MALFORMED"
  | "TOKEN_BAD_SIGNATURE"
  | "TOKEN_EXPIRED"
  | "TOKEN_WRONG_AUDIENCE"
  | "TOKEN_WRONG_ISSUER"
  | "TOKEN_BINDING_MISMATCH";

/** Why a token was refused. The message never contains the token itself. */
export class TokenError extends Error {
  readonly code: TokenErrorCode;
  constructor(code: TokenErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TokenError";
    this.code = code;
  }
}

export interface TokenIssuer {
  mint(claims: MintClaims): Promise<string>;
  /**
   * Check signature, issuer, audience, expiry and — for each field given in `binding` — that the
   * token is bound to that user, tool and invoke. Rejects with a TokenError.
   */
  verify(token: string, audience: string, binding?: Partial<TokenBinding>): Promise<VerifiedToken>;
  /** The public key set verifiers need (published by Nexus as JWKS). */
  jwks(): Promise<{ keys: JWK[] }>;
}

export interface JwtTokenIssuerOptions {
  /** An Ed25519 private key as a JWK (`kty: "OKP"`, `crv: "Ed25519"`, with `d`). */
  privateJwk: JWK;
  issuer?: string;
  /** Epoch ms; injectable so tests can reach expiry without sleeping. */
  now?: () => number;
}

const RESERVED_CLAIMS = new Set([
  "iss",
  "sub",
  "aud",
  "iat",
  "exp",
  "nbf",
  "jti",
  "user_id",
  "executa_tool_id",
  "tool_invoke_id",
]);

/** Signs and verifies per-invoke tokens with one Ed25519 key, identified by its thumbprint. */
export class JwtTokenIssuer implements TokenIssuer {
  readonly issuer: string;
  readonly #now: () => number;
  readonly #privateJwk: JWK;
  #keys?: Promise<{
    /** For node:crypto's synchronous `sign`. */
    signingKey: NodeKeyObject;
    /** The `{"alg":"EdDSA","kid":…,"typ":"JWT"}` header, base64url, the same for every token. */
    header: string;
    publicKey: CryptoKey | KeyObject;
    publicJwk: JWK;
    kid: string;
  }>;

  constructor(options: JwtTokenIssuerOptions) {
    const jwk = options.privateJwk;
    if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.d !== "string") {
      throw new TokenError("TOKEN_MALFORMED", "the signing key must be an Ed25519 private JWK");
    }
    this.#privateJwk = jwk;
    this.issuer = options.issuer ?? DEFAULT_TOKEN_ISSUER;
    this.#now = options.now ?? Date.now;
  }

  #loadKeys() {
    this.#keys ??= (async () => {
      const { d: _d, ...pub } = this.#privateJwk;
      const publicBase: JWK = { kty: pub.kty, crv: pub.crv, x: pub.x };
      const kid = this.#privateJwk.kid ?? (await calculateJwkThumbprint(publicBase));
      const signingKey = importSigningKey(this.#privateJwk);
      const publicKey = await importJWK(publicBase, "EdDSA");
      if (publicKey instanceof Uint8Array) {
        throw new TokenError("TOKEN_MALFORMED", "the signing key is not an asymmetric key");
      }
      const publicJwk: JWK = { ...publicBase, kid, alg: "EdDSA", use: "sig" };
      const header = base64url(JSON.stringify({ alg: "EdDSA", kid, typ: "JWT" }));
      return { signingKey, header, publicKey, publicJwk, kid };
    })();
    return this.#keys;
  }

  async kid(): Promise<string> {
    return (await this.#loadKeys()).kid;
  }

  async mint(claims: MintClaims): Promise<string> {
    const { signingKey, header } = await this.#loadKeys();
    const iat = Math.floor(this.#now() / 1000);
    const exp = iat + (claims.ttlSeconds ?? TOKEN_TTL_S);
    if (!Number.isFinite(exp)) {
      throw new TypeError(
        `ttlSeconds must be a finite number of seconds, got ${claims.ttlSeconds}`,
      );
    }
    // Claim order as SignJWT writes it: the payload given, then iss, sub, aud, iat, exp.
    const payload: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(claims.extra ?? {})) {
      if (!RESERVED_CLAIMS.has(key)) payload[key] = value;
    }
    payload.user_id = claims.userId;
    payload.executa_tool_id = claims.toolId;
    payload.tool_invoke_id = claims.invokeId;
    payload.iss = this.issuer;
    payload.sub = claims.userId;
    payload.aud = claims.audience;
    payload.iat = iat;
    payload.exp = exp;
    const signingInput = `${header}.${base64url(JSON.stringify(payload))}`;
    const signature = ed25519Sign(null, Buffer.from(signingInput), signingKey);
    return `${signingInput}.${signature.toString("base64url")}`;
  }

  async verify(
    token: string,
    audience: string,
    binding?: Partial<TokenBinding>,
  ): Promise<VerifiedToken> {
    const { publicKey, kid } = await this.#loadKeys();
    let payload: JWTPayload;
    try {
      const result = await jwtVerify(token, publicKey, {
        algorithms: ["EdDSA"],
        issuer: this.issuer,
        audience,
        currentDate: new Date(this.#now()),
        clockTolerance: TOKEN_CLOCK_TOLERANCE_S,
        requiredClaims: ["iat", "exp", "sub"],
      });
      if (result.protectedHeader.kid !== kid) {
        throw new TokenError("TOKEN_BAD_SIGNATURE", "token was signed with an unknown key id");
      }
      payload = result.payload;
    } catch (error) {
      throw toTokenError(error, audience);
    }
    const verified = readBinding(payload, audience);
    for (const field of ["userId", "toolId", "invokeId"] as const) {
      const expected = binding?.[field];
      if (expected !== undefined && verified[field] !== expected) {
        throw new TokenError(
          "TOKEN_BINDING_MISMATCH",
          `token is bound to another ${BINDING_LABEL[field]} (expected ${JSON.stringify(expected)})`,
        );
      }
    }
    return verified;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    const { publicJwk } = await this.#loadKeys();
    return { keys: [{ ...publicJwk }] };
  }
}

function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/** The Ed25519 private JWK as a node:crypto key; a malformed one is a TOKEN_MALFORMED. */
function importSigningKey(jwk: JWK): NodeKeyObject {
  try {
    const { kty, crv, x, d } = jwk;
    return createPrivateKey({ key: { kty, crv, x, d } as JsonWebKeyInput["key"], format: "jwk" });
  } catch (error) {
    throw new TokenError(
      "TOKEN_MALFORMED",
      "the signing key is not a valid Ed25519 private JWK (kty OKP, crv Ed25519, x and d set)",
      { cause: error },
    );
  }
}

const BINDING_LABEL = { userId: "user", toolId: "tool_id", invokeId: "invoke_id" } as const;

function readBinding(payload: JWTPayload, audience: string): VerifiedToken {
  const userId = payload.user_id;
  const toolId = payload.executa_tool_id;
  const invokeId = payload.tool_invoke_id;
  if (
    typeof userId !== "string" ||
    typeof toolId !== "string" ||
    typeof invokeId !== "string" ||
    payload.sub !== userId
  ) {
    throw new TokenError(
      "TOKEN_MALFORMED",
      "token lacks the user_id/executa_tool_id/tool_invoke_id binding",
    );
  }
  return {
    userId,
    toolId,
    invokeId,
    audience,
    issuedAtS: payload.iat ?? 0,
    expiresAtS: payload.exp ?? 0,
    claims: payload,
  };
}

function toTokenError(error: unknown, audience: string): TokenError {
  if (error instanceof TokenError) return error;
  if (error instanceof joseErrors.JWTExpired) {
    return new TokenError("TOKEN_EXPIRED", "token has expired", { cause: error });
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "aud") {
      return new TokenError(
        "TOKEN_WRONG_AUDIENCE",
        `token is not meant for audience '${audience}'`,
        {
          cause: error,
        },
      );
    }
    if (error.claim === "iss") {
      return new TokenError("TOKEN_WRONG_ISSUER", "token was issued by someone else", {
        cause: error,
      });
    }
    return new TokenError("TOKEN_MALFORMED", `token claim '${error.claim}' is invalid`, {
      cause: error,
    });
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new TokenError("TOKEN_BAD_SIGNATURE", "token signature does not verify", {
      cause: error,
    });
  }
  return new TokenError("TOKEN_MALFORMED", "token is not a valid JWT", { cause: error });
}
