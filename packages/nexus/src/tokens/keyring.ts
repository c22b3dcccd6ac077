// Nexus's per-invoke token issuer (H15): EdDSA JWTs whose `kid` names one of the signing keys in
// the database. It implements executa-host's TokenIssuer, so the reverse-RPC router can use it
// where the harness uses its local dev key; each key is an executa-host JwtTokenIssuer, so the
// claims, the binding checks and the error codes are the same everywhere.
//
// Rotation: a new key signs from the moment it is added; the keys it supersedes keep verifying
// (and stay in the JWKS) until the last token they signed has expired, then they are retired and
// their private half forgotten. Other processes (the admin command, other nodes) see a rotation
// on their next reload: at most RELOAD_MS later, or at once when a token names an unknown kid.
import {
  JwtTokenIssuer,
  TOKEN_CLOCK_TOLERANCE_S,
  TOKEN_TTL_S,
  TokenError,
  type MintClaims,
  type TokenBinding,
  type TokenIssuer,
  type VerifiedToken,
} from "@anna-ai/executa-host";
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, generateKeyPair } from "jose";
import type { JWK } from "jose";
import type { Clock } from "../core/clock.js";
import type { SigningKeyStore } from "../stores/signing-key-store.js";
import type { KeyEncryptionKey } from "./key-encryption.js";

export const NEXUS_TOKEN_ISSUER = "anna-nexus";
/** No token outlives this (the spec's 600 s; a longer `ttl_seconds` is capped). */
export const MAX_TOKEN_TTL_S = TOKEN_TTL_S;
/** A superseded key verifies this long: a token's lifetime, the clock tolerance and a margin. */
export const KEY_RETIRE_AFTER_MS = (MAX_TOKEN_TTL_S + TOKEN_CLOCK_TOLERANCE_S + 60) * 1000;
const RELOAD_MS = 30_000;
/** At most one reload per second for tokens naming a kid we do not know. */
const UNKNOWN_KID_RELOAD_MS = 1_000;
const ALG = "EdDSA";

interface LoadedKey {
  kid: string;
  issuer: JwtTokenIssuer;
  publicJwk: JWK;
  retireAt: number | null;
  /** Not superseded: may sign. */
  signs: boolean;
}

interface Loaded {
  at: number;
  /** Newest first; the first one signs. */
  keys: LoadedKey[];
}

export interface KeyringOptions {
  store: SigningKeyStore;
  kek: KeyEncryptionKey;
  clock: Clock;
  issuer?: string;
}

export interface RotateResult {
  kid: string;
  /** Kids that stopped signing now and verify until `retireAt`. */
  superseded: string[];
  retireAt: number;
  /** Kids retired by this call (their tokens had all expired). */
  retired: string[];
}

export class SigningKeyring implements TokenIssuer {
  readonly issuer: string;
  readonly #store: SigningKeyStore;
  readonly #kek: KeyEncryptionKey;
  readonly #clock: Clock;
  #loaded: Loaded | undefined;
  #loading: Promise<Loaded> | undefined;
  #lastUnknownReload = -Infinity;

  constructor(options: KeyringOptions) {
    this.#store = options.store;
    this.#kek = options.kek;
    this.#clock = options.clock;
    this.issuer = options.issuer ?? NEXUS_TOKEN_ISSUER;
  }

  /** Makes sure a key signs (the first start creates one) and that every live key decrypts. */
  async ensureKey(): Promise<string> {
    const loaded = await this.#reload();
    if (loaded.keys[0]?.signs) return loaded.keys[0].kid;
    return (await this.rotate()).kid;
  }

  /** A new signing key; the current one verifies until its tokens have expired. */
  async rotate(): Promise<RotateResult> {
    const now = this.#clock.now();
    const { privateKey } = await generateKeyPair(ALG, { crv: "Ed25519", extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const publicJwk = { kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x };
    const kid = await calculateJwkThumbprint(publicJwk as JWK);
    const before = await this.#store.listLive(now);
    const retireAt = now + KEY_RETIRE_AFTER_MS;
    await this.#store.rotate(
      { kid, alg: ALG, publicJwk, privateSealed: this.#kek.seal(JSON.stringify(privateJwk), kid) },
      now,
      retireAt,
    );
    const retired = await this.#store.retireDue(now);
    await this.#reload();
    return {
      kid,
      superseded: before.filter((k) => k.supersededAt === null).map((k) => k.kid),
      retireAt,
      retired,
    };
  }

  async mint(claims: MintClaims): Promise<string> {
    let signer = (await this.#current()).keys[0];
    // The very first mint of a fresh database creates the first key (start does it up front).
    if (!signer?.signs) {
      await this.ensureKey();
      signer = (await this.#current()).keys[0];
    }
    if (!signer?.signs) throw new TokenError("TOKEN_MALFORMED", "no current signing key");
    const ttlSeconds = Math.min(claims.ttlSeconds ?? MAX_TOKEN_TTL_S, MAX_TOKEN_TTL_S);
    return signer.issuer.mint({ ...claims, ttlSeconds });
  }

  async verify(
    token: string,
    audience: string,
    binding?: Partial<TokenBinding>,
  ): Promise<VerifiedToken> {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch (err) {
      throw new TokenError("TOKEN_MALFORMED", "token is not a valid JWT", { cause: err });
    }
    if (typeof kid !== "string" || kid === "") {
      throw new TokenError("TOKEN_BAD_SIGNATURE", "token names no signing key (kid)");
    }
    let key = this.#find(await this.#current(), kid);
    const now = this.#clock.now();
    if (!key && now - this.#lastUnknownReload >= UNKNOWN_KID_RELOAD_MS) {
      this.#lastUnknownReload = now;
      key = this.#find(await this.#reload(), kid);
    }
    if (!key)
      throw new TokenError("TOKEN_BAD_SIGNATURE", "token was signed with an unknown key id");
    return key.issuer.verify(token, audience, binding);
  }

  /** Public halves of every key that still verifies. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const now = this.#clock.now();
    const { keys } = await this.#current();
    return {
      keys: keys
        .filter((k) => k.retireAt === null || k.retireAt > now)
        .map((k) => ({ ...k.publicJwk })),
    };
  }

  #find(loaded: Loaded, kid: string): LoadedKey | undefined {
    const now = this.#clock.now();
    return loaded.keys.find((k) => k.kid === kid && (k.retireAt === null || k.retireAt > now));
  }

  async #current(): Promise<Loaded> {
    const l = this.#loaded;
    if (l && this.#clock.now() - l.at < RELOAD_MS) return l;
    return this.#reload();
  }

  #reload(): Promise<Loaded> {
    this.#loading ??= (async () => {
      try {
        const now = this.#clock.now();
        const rows = await this.#store.listLive(now);
        // Superseded keys keep verifying; only an unsuperseded key signs (newest wins a race).
        rows.sort((a, b) => Number(a.supersededAt !== null) - Number(b.supersededAt !== null));
        const keys = rows.map((r): LoadedKey => {
          const privateJwk = JSON.parse(this.#kek.open(r.privateSealed as string, r.kid)) as JWK;
          return {
            kid: r.kid,
            issuer: new JwtTokenIssuer({
              privateJwk: { ...privateJwk, kid: r.kid },
              issuer: this.issuer,
              now: () => this.#clock.now(),
            }),
            publicJwk: { ...(r.publicJwk as JWK), kid: r.kid, alg: r.alg, use: "sig" },
            retireAt: r.retireAt,
            signs: r.supersededAt === null,
          };
        });
        this.#loaded = { at: now, keys };
        return this.#loaded;
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }
}
