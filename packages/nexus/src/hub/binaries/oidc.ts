// Verifying a CI's OIDC id-token for B2 (spec L2550–2580, real-world-cli.md §B): the issuer must
// be one this server trusts (`--oidc-issuer`, default GitHub Actions'), its keys come from the
// issuer's discovery document (`/.well-known/openid-configuration` → `jwks_uri`), and the token
// must carry the pinned audience, an asymmetric signature by one of those keys and an unexpired
// `exp`. What it proves is returned as claims for the trusted-publisher match; nothing else of
// the token is trusted.
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import type { Clock } from "../../core/clock.js";
import { NexusError } from "../../core/errors.js";

/** Only asymmetric algorithms: a shared-secret or unsigned (`none`) token proves nothing here. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"];
const DISCOVERY_TIMEOUT_MS = 10_000;
/** Tokens a CI mints live minutes; allow a little clock skew between it and us. */
const CLOCK_TOLERANCE_S = 30;

export interface OidcClaims {
  issuer: string;
  /** `owner/repo` */
  repository: string;
  /** `workflow_ref` and, for reusable workflows, `job_workflow_ref`: `owner/repo/.github/workflows/x.yml@ref`. */
  workflowRefs: string[];
  environment: string | null;
  subject: string | undefined;
}

export interface OidcVerifier {
  verify(token: string): Promise<OidcClaims>;
}

const rejected = (why: string, cause?: unknown) =>
  new NexusError("oidc_rejected", `OIDC token refused: ${why}`, { cause });

const trimSlash = (s: string) => s.replace(/\/+$/, "");

export function oidcVerifier(opts: {
  issuers: readonly string[];
  audience: string;
  clock: Clock;
  fetch?: typeof fetch;
}): OidcVerifier {
  const trusted = new Set(opts.issuers.map(trimSlash));
  const doFetch = opts.fetch ?? fetch;
  const keySets = new Map<string, Promise<ReturnType<typeof createRemoteJWKSet>>>();

  async function discover(issuer: string) {
    const url = `${issuer}/.well-known/openid-configuration`;
    let res: Response;
    try {
      res = await doFetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    } catch (err) {
      throw new NexusError("upstream_error", `cannot reach the OIDC issuer at ${url}`, {
        cause: err,
      });
    }
    const doc = (await res.json().catch(() => undefined)) as { jwks_uri?: unknown } | undefined;
    if (!res.ok || typeof doc?.jwks_uri !== "string") {
      throw new NexusError(
        "upstream_error",
        `the OIDC issuer's ${url} answered ${res.status} without a jwks_uri`,
      );
    }
    return createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: DISCOVERY_TIMEOUT_MS });
  }

  function keysOf(issuer: string) {
    let p = keySets.get(issuer);
    if (!p) {
      p = discover(issuer);
      // A failed discovery is retried by the next exchange, not cached.
      p.catch(() => keySets.delete(issuer));
      keySets.set(issuer, p);
    }
    return p;
  }

  return {
    async verify(token) {
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch (err) {
        throw rejected("it is not a JWT", err);
      }
      if (typeof iss !== "string" || !trusted.has(trimSlash(iss))) {
        throw rejected(
          `issuer ${JSON.stringify(iss ?? null)} is not trusted by this server (trusted: ${[...trusted].join(", ")})`,
        );
      }
      const keys = await keysOf(trimSlash(iss));
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: iss,
          audience: opts.audience,
          algorithms: ALGORITHMS,
          currentDate: new Date(opts.clock.now()),
          clockTolerance: CLOCK_TOLERANCE_S,
          requiredClaims: ["exp"],
        }));
      } catch (err) {
        const code = (err as { code?: string }).code;
        const why =
          code === "ERR_JWT_EXPIRED"
            ? "it has expired; mint a fresh one in the workflow run"
            : code === "ERR_JWT_CLAIM_VALIDATION_FAILED" &&
                (err as { claim?: string }).claim === "aud"
              ? `its audience is not "${opts.audience}" (request the id-token with audience=${opts.audience})`
              : code === "ERR_JWKS_NO_MATCHING_KEY"
                ? "no key of the issuer matches its kid"
                : `${(err as Error).message}`;
        throw rejected(why, err);
      }
      const repository = payload.repository;
      if (typeof repository !== "string") throw rejected("it has no `repository` claim");
      const workflowRefs = [payload.workflow_ref, payload.job_workflow_ref].filter(
        (v): v is string => typeof v === "string",
      );
      return {
        issuer: iss,
        repository,
        workflowRefs,
        environment: typeof payload.environment === "string" ? payload.environment : null,
        subject: typeof payload.sub === "string" ? payload.sub : undefined,
      };
    },
  };
}
