// The caller of a PAT-authed dev endpoint (`…/dev/session/*`, `…/dev/sessions`,
// `…/dev/storage/mint`). The published CLI sends the PAT in the body (`pat`) or, for GET, the
// query (`?pat=`), never as a header (real-world-cli.md §5); Bearer works too. A browser session
// cookie does not count: these endpoints mint credentials for tools, which a page never needs.
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Principal } from "./context.js";
import { patPrincipal, requireScopes } from "./guards.js";
import { bearerOf } from "./token-auth.js";

export type PatCaller = Extract<Principal, { via: "pat" }>;

export async function devCaller(
  c: Ctx,
  deps: AppDeps,
  pat: string | undefined,
): Promise<PatCaller> {
  const secret = bearerOf(c) ?? pat;
  if (!secret) {
    throw new NexusError(
      "unauthenticated",
      "send your developer token as `pat` in the body (or ?pat= for GET) or as Authorization: Bearer",
    );
  }
  const p = (await patPrincipal(secret, deps, deps.clock.now())) as PatCaller;
  c.set("principal", p);
  requireScopes(p, ["aps:dev"]);
  if (p.user.developerState === "revoked") {
    throw new NexusError(
      "DEVELOPER_REVOKED",
      "developer access was revoked; only an admin can restore it",
    );
  }
  return p;
}

/** Counts one mint for the user; 429 with Retry-After when over the configured limit. */
export async function countMint(deps: AppDeps, userId: number): Promise<void> {
  const { mints, mintWindowMs } = deps.config.rateLimits;
  const wait = (await deps.rateLimiter?.hit(`mint:${userId}`, mints, mintWindowMs)) ?? 0;
  if (wait > 0) {
    throw new NexusError("rate_limited", `too many token mints; retry in ${wait} s`, {
      retryAfterS: wait,
    });
  }
}
