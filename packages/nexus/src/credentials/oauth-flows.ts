// Connecting an account: the authorize redirect and its callback. The state and the PKCE
// verifier stay on the server (a row per flow, by the state's hash, the verifier sealed), bound
// to the user and the session that started the flow; a callback in another session, for another
// provider, after the TTL or a second time is refused. The code is exchanged once, the account's
// identity read from the provider's userinfo URL, and the account saved (connected-accounts.ts).
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import type { Database } from "../db/schema.js";
import type { KeyEncryptionKey } from "../tokens/key-encryption.js";
import type { ConnectedAccounts, ConnectedAccountView } from "./connected-accounts.js";
import {
  type AccountIdentity,
  authorizeUrl,
  exchangeCode,
  type Fetch,
  fetchIdentity,
  pkcePair,
} from "./oauth-client.js";
import type { OAuthProvider } from "./oauth-providers.js";

/** A connect must come back from the provider within this. */
export const OAUTH_FLOW_TTL_MS = 10 * 60_000;
/** Flows one user may have open at once; the oldest goes first. */
export const MAX_OPEN_FLOWS_PER_USER = 10;

/** Why a callback was refused: the settings page shows the message. */
export class OAuthFlowError extends Error {
  constructor(
    readonly reason: "state_invalid" | "provider_denied" | "exchange_failed",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "OAuthFlowError";
  }
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

export interface OAuthFlows {
  /** The provider's authorize URL for this user and session; the flow is stored first. */
  start(o: {
    userId: number;
    sessionHash: string;
    provider: OAuthProvider;
    scopes: readonly string[];
    redirectUri: string;
  }): Promise<string>;
  /** Checks and consumes the state, exchanges the code, saves the account. */
  finish(o: {
    userId: number;
    sessionHash: string;
    provider: OAuthProvider;
    state: string;
    code: string;
    redirectUri: string;
  }): Promise<ConnectedAccountView>;
}

export function sqlOAuthFlows(deps: {
  db: Kysely<Database>;
  kek: KeyEncryptionKey;
  clock: Clock;
  accounts: ConnectedAccounts;
  fetch?: Fetch;
}): OAuthFlows {
  const { db, kek, clock, accounts } = deps;
  const fetch = deps.fetch ?? globalThis.fetch;
  const verifierAad = (stateHash: string) => `oauth-flow:${stateHash}:verifier`;

  return {
    async start({ userId, sessionHash, provider, scopes, redirectUri }) {
      const now = clock.now();
      const state = randomBytes(32).toString("base64url");
      const stateHash = sha(state);
      const pkce = pkcePair();
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom("oauth_flows").where("expires_at", "<=", now).execute();
        const open = await tx
          .selectFrom("oauth_flows")
          .select("state_hash")
          .where("user_id", "=", userId)
          .orderBy("created_at", "desc")
          .execute();
        const stale = open.slice(MAX_OPEN_FLOWS_PER_USER - 1).map((r) => r.state_hash);
        if (stale.length > 0) {
          await tx.deleteFrom("oauth_flows").where("state_hash", "in", stale).execute();
        }
        await tx
          .insertInto("oauth_flows")
          .values({
            state_hash: stateHash,
            user_id: userId,
            session_hash: sessionHash,
            provider: provider.id,
            verifier_sealed: kek.seal(pkce.verifier, verifierAad(stateHash)),
            scopes: JSON.stringify(scopes),
            created_at: now,
            expires_at: now + OAUTH_FLOW_TTL_MS,
          })
          .execute();
      });
      return authorizeUrl(provider, { redirectUri, state, challenge: pkce.challenge, scopes });
    },

    async finish({ userId, sessionHash, provider, state, code, redirectUri }) {
      const stateHash = sha(state);
      // Consumed before anything else: a state is good for one callback, whatever its outcome.
      const flow = await db.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom("oauth_flows")
          .selectAll()
          .where("state_hash", "=", stateHash)
          .executeTakeFirst();
        if (row !== undefined) {
          await tx.deleteFrom("oauth_flows").where("state_hash", "=", stateHash).execute();
        }
        return row;
      });
      const restart = `start again from /settings/authorizations`;
      if (flow === undefined) {
        throw new OAuthFlowError(
          "state_invalid",
          `this ${provider.name} sign-in is unknown or was already used; ${restart}`,
        );
      }
      if (flow.user_id !== userId || flow.session_hash !== sessionHash) {
        throw new OAuthFlowError(
          "state_invalid",
          `this ${provider.name} sign-in was started in another session; ${restart}`,
        );
      }
      if (flow.provider !== provider.id) {
        throw new OAuthFlowError(
          "state_invalid",
          `this sign-in was started for ${flow.provider}, not ${provider.id}; ${restart}`,
        );
      }
      if (Number(flow.expires_at) <= clock.now()) {
        throw new OAuthFlowError(
          "state_invalid",
          `this ${provider.name} sign-in took longer than ${OAUTH_FLOW_TTL_MS / 60_000} minutes; ${restart}`,
        );
      }
      const verifier = kek.open(flow.verifier_sealed, verifierAad(stateHash));
      const asked = JSON.parse(flow.scopes) as string[];
      let identity: AccountIdentity | undefined;
      let tokens;
      try {
        tokens = await exchangeCode(fetch, provider, { code, redirectUri, verifier });
        identity = await fetchIdentity(fetch, provider, tokens.accessToken);
      } catch (err) {
        throw new OAuthFlowError(
          "exchange_failed",
          `${provider.name} did not complete the sign-in: ${(err as Error).message}`,
          { cause: err },
        );
      }
      // Without a userinfo URL the account has no provider-side id: it gets one of ours.
      identity ??= {
        accountId: `${provider.id}-${randomBytes(8).toString("hex")}`,
        email: null,
        label: null,
      };
      return accounts.save(userId, provider, identity, tokens, asked);
    },
  };
}
