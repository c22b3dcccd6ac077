// The accounts users connected at platform OAuth providers (spec "Credentials & platform
// authorization", multi-account): several per provider, exactly one default per provider, tokens
// sealed under the server's KEK. An access token leaves only through `accessToken` (for
// `credentials/getToken`, `credentials.get_token` and `$access_token` at invoke), refreshed first
// when it expired; the refresh token never leaves, except to the provider that issued it.
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import type { ConnectedAccountsTable } from "../db/schema-executas.js";
import {
  type KeyEncryptionKey,
  KeyEncryptionError,
  KEK_ENV,
  KEK_FILE,
} from "../tokens/key-encryption.js";
import {
  type AccountIdentity,
  type Fetch,
  OAuthRefusedError,
  OAuthUpstreamError,
  refreshTokens,
  revokeToken,
  type TokenSet,
} from "./oauth-client.js";
import type { OAuthProvider, OAuthRegistry } from "./oauth-providers.js";

/** Accounts one user may connect per provider (work, personal, a few more). */
export const MAX_ACCOUNTS_PER_PROVIDER = 20;
/** A token this close to its expiry is refreshed before it is handed out. */
export const REFRESH_SKEW_MS = 60_000;
export const RECONNECT_HINT = "reconnect the account at /settings/authorizations";

export const ACCOUNT_STATUS = { active: "active", needsReauth: "needs_reauth" } as const;

/** What the settings page and `listAccounts` see: metadata only, never a token. */
export interface ConnectedAccountView {
  provider: string;
  account_id: string;
  email: string | null;
  label: string | null;
  is_default: boolean;
  status: string;
  scopes: string[];
  /** When the current access token expires (it is refreshed on use). */
  expires_at: string | null;
  connected_at: string;
  refreshed_at: string | null;
}

/** Why no token could be handed out; each says what the user or the plugin does next. */
export type AccountProblem =
  "provider_not_configured" | "not_connected" | "unknown_account" | "needs_reauth" | "upstream";

export class ConnectedAccountError extends Error {
  constructor(
    readonly problem: AccountProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ConnectedAccountError";
  }
}

export interface LiveToken {
  accessToken: string;
  accountId: string;
  /** Epoch ms, or null when the provider gave no lifetime. */
  expiresAt: number | null;
}

export interface ConnectedAccounts {
  readonly registry: OAuthRegistry;
  list(userId: number, provider?: string): Promise<ConnectedAccountView[]>;
  /** A connect's outcome: a new account (the default if it is the provider's first) or a refreshed one. */
  save(
    userId: number,
    provider: OAuthProvider,
    identity: AccountIdentity,
    tokens: TokenSet,
    askedScopes: readonly string[],
  ): Promise<ConnectedAccountView>;
  setDefault(userId: number, provider: string, accountId: string): Promise<ConnectedAccountView[]>;
  /** Revokes upstream where the provider can, deletes the row, promotes the earliest other to default. */
  disconnect(userId: number, provider: string, accountId: string): Promise<{ revoked: boolean }>;
  /** The account's live access token (the default's when `accountId` is undefined). */
  accessToken(userId: number, provider: string, accountId?: string): Promise<LiveToken>;
}

type Row = ConnectedAccountsTable & { id: number };

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function scopesOf(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

export function viewOf(row: Row): ConnectedAccountView {
  return {
    provider: row.provider,
    account_id: row.account_id,
    email: row.email,
    label: row.label,
    is_default: row.is_default === 1,
    status: row.status,
    scopes: scopesOf(row.scopes),
    expires_at: iso(row.expires_at),
    connected_at: iso(row.created_at)!,
    refreshed_at: iso(row.refreshed_at),
  };
}

/** Bound into each sealed token: a token copied into another user's or account's row won't open. */
function aad(userId: number, provider: string, accountId: string, which: "access" | "refresh") {
  return `connected-account:${userId}:${provider}:${accountId}:${which}`;
}

export function sqlConnectedAccounts(deps: {
  db: Kysely<Database>;
  kek: KeyEncryptionKey;
  clock: Clock;
  registry: OAuthRegistry;
  logger: Logger;
  fetch?: Fetch;
}): ConnectedAccounts {
  const { db, kek, clock, registry, logger } = deps;
  const fetch = deps.fetch ?? globalThis.fetch;
  /** Concurrent refreshes of one row share one request to the provider (keyed by row id). */
  const refreshing = new Map<number, Promise<LiveToken>>();

  const rows = (userId: number, provider?: string) => {
    let q = db.selectFrom("connected_accounts").selectAll().where("user_id", "=", userId);
    if (provider !== undefined) q = q.where("provider", "=", provider);
    return q
      .orderBy("provider")
      .orderBy("created_at")
      .orderBy("id")
      .limit(MAX_ACCOUNTS_PER_PROVIDER * 64)
      .execute() as Promise<Row[]>;
  };

  function open(row: Row, which: "access" | "refresh"): string {
    const sealed = which === "access" ? row.access_sealed : row.refresh_sealed;
    if (sealed === null) throw new Error(`no ${which} token`);
    try {
      return kek.open(sealed, aad(row.user_id, row.provider, row.account_id, which));
    } catch (err) {
      if (!(err instanceof KeyEncryptionError)) throw err;
      throw new NexusError(
        "internal",
        `the ${row.provider} account ${row.account_id} cannot be opened with the key-encryption key from ${kek.source}: it was sealed with another one (set ${KEK_ENV} or restore ${KEK_FILE} in the data folder), or the row was altered`,
        { cause: err },
      );
    }
  }

  function configured(provider: string): OAuthProvider {
    const p = registry.get(provider);
    if (p === undefined) {
      const names = registry.providers.map((x) => x.id).join(", ") || "none";
      throw new ConnectedAccountError(
        "provider_not_configured",
        `provider ${JSON.stringify(provider.slice(0, 60))} is not configured on this server (configured: ${names}); the operator adds it with ANNA_OAUTH_PROVIDERS`,
      );
    }
    return p;
  }

  async function refresh(row: Row, provider: OAuthProvider): Promise<LiveToken> {
    if (row.refresh_sealed === null) {
      await markNeedsReauth(row);
      throw new ConnectedAccountError(
        "needs_reauth",
        `the ${provider.id} account ${row.account_id}'s access token expired and ${provider.name} gave no refresh token; ${RECONNECT_HINT}`,
      );
    }
    let tokens: TokenSet;
    try {
      tokens = await refreshTokens(fetch, provider, open(row, "refresh"));
    } catch (err) {
      if (err instanceof OAuthRefusedError) {
        await markNeedsReauth(row);
        logger.log("warn", "oauth refresh refused", {
          provider: provider.id,
          account_id: row.account_id,
          user_id: row.user_id,
          oauth_error: err.oauthError ?? null,
        });
        throw new ConnectedAccountError(
          "needs_reauth",
          `${provider.name} refused to refresh the ${provider.id} account ${row.account_id} (${err.oauthError ?? "refused"}): the user revoked access or the grant expired; ${RECONNECT_HINT}`,
          { cause: err },
        );
      }
      if (err instanceof OAuthUpstreamError) {
        throw new ConnectedAccountError("upstream", `${err.message}; retry in a moment`, {
          cause: err,
        });
      }
      throw err;
    }
    const now = clock.now();
    const expiresAt = tokens.expiresInS === undefined ? null : now + tokens.expiresInS * 1000;
    await db
      .updateTable("connected_accounts")
      .set({
        access_sealed: kek.seal(
          tokens.accessToken,
          aad(row.user_id, row.provider, row.account_id, "access"),
        ),
        // A provider that rotates refresh tokens sends a new one; one that does not keeps the old.
        ...(tokens.refreshToken === undefined
          ? {}
          : {
              refresh_sealed: kek.seal(
                tokens.refreshToken,
                aad(row.user_id, row.provider, row.account_id, "refresh"),
              ),
            }),
        ...(tokens.scopes === undefined ? {} : { scopes: JSON.stringify(tokens.scopes) }),
        expires_at: expiresAt,
        status: ACCOUNT_STATUS.active,
        refreshed_at: now,
        updated_at: now,
      })
      .where("id", "=", row.id)
      .execute();
    logger.log("info", "oauth token refreshed", {
      provider: provider.id,
      account_id: row.account_id,
      user_id: row.user_id,
    });
    return { accessToken: tokens.accessToken, accountId: row.account_id, expiresAt };
  }

  async function markNeedsReauth(row: Row) {
    await db
      .updateTable("connected_accounts")
      .set({ status: ACCOUNT_STATUS.needsReauth, updated_at: clock.now() })
      .where("id", "=", row.id)
      .execute();
  }

  return {
    registry,

    async list(userId, provider) {
      return (await rows(userId, provider)).map(viewOf);
    },

    async save(userId, provider, identity, tokens, askedScopes) {
      const now = clock.now();
      const accountId = identity.accountId;
      const seal = (v: string, which: "access" | "refresh") =>
        kek.seal(v, aad(userId, provider.id, accountId, which));
      const fields = {
        email: identity.email,
        label: identity.label,
        scopes: JSON.stringify(tokens.scopes ?? askedScopes),
        status: ACCOUNT_STATUS.active,
        access_sealed: seal(tokens.accessToken, "access"),
        expires_at: tokens.expiresInS === undefined ? null : now + tokens.expiresInS * 1000,
        updated_at: now,
        refreshed_at: now,
      };
      await db.transaction().execute(async (tx) => {
        const existing = await tx
          .selectFrom("connected_accounts")
          .select(["id", "account_id", "is_default"])
          .where("user_id", "=", userId)
          .where("provider", "=", provider.id)
          .limit(MAX_ACCOUNTS_PER_PROVIDER + 1)
          .execute();
        const same = existing.find((r) => r.account_id === accountId);
        if (same !== undefined) {
          // A reconnect: fresh tokens, the default stays where it was.
          await tx
            .updateTable("connected_accounts")
            .set({
              ...fields,
              ...(tokens.refreshToken === undefined
                ? {}
                : { refresh_sealed: seal(tokens.refreshToken, "refresh") }),
            })
            .where("id", "=", same.id)
            .execute();
          return;
        }
        if (existing.length >= MAX_ACCOUNTS_PER_PROVIDER) {
          throw new NexusError(
            "account_limit_reached",
            `you have ${existing.length} ${provider.name} accounts connected, the most one person may; disconnect one at /settings/authorizations first`,
          );
        }
        await tx
          .insertInto("connected_accounts")
          .values({
            ...fields,
            user_id: userId,
            provider: provider.id,
            account_id: accountId,
            is_default: existing.length === 0 ? 1 : 0,
            refresh_sealed:
              tokens.refreshToken === undefined ? null : seal(tokens.refreshToken, "refresh"),
            created_at: now,
          })
          .execute();
      });
      const saved = (await rows(userId, provider.id)).find((r) => r.account_id === accountId);
      return viewOf(saved!);
    },

    async setDefault(userId, provider, accountId) {
      await db.transaction().execute(async (tx) => {
        const target = await tx
          .selectFrom("connected_accounts")
          .select("id")
          .where("user_id", "=", userId)
          .where("provider", "=", provider)
          .where("account_id", "=", accountId)
          .executeTakeFirst();
        if (target === undefined) {
          throw new NexusError(
            "not_found",
            `you have no ${provider.slice(0, 60)} account ${JSON.stringify(accountId.slice(0, 200))}; GET /api/v1/platform-credentials/my lists yours`,
          );
        }
        // Clear first, then set: the partial unique index never sees two defaults.
        await tx
          .updateTable("connected_accounts")
          .set({ is_default: 0 })
          .where("user_id", "=", userId)
          .where("provider", "=", provider)
          .where("is_default", "=", 1)
          .execute();
        await tx
          .updateTable("connected_accounts")
          .set({ is_default: 1, updated_at: clock.now() })
          .where("id", "=", target.id)
          .execute();
      });
      return (await rows(userId, provider)).map(viewOf);
    },

    async disconnect(userId, provider, accountId) {
      const row = (await rows(userId, provider)).find((r) => r.account_id === accountId);
      if (row === undefined) {
        throw new NexusError(
          "not_found",
          `you have no ${provider.slice(0, 60)} account ${JSON.stringify(accountId.slice(0, 200))} to disconnect`,
        );
      }
      const p = registry.get(provider);
      let revoked = false;
      if (p !== undefined) {
        const which = row.refresh_sealed === null ? "access" : "refresh";
        revoked = await revokeToken(fetch, p, open(row, which), `${which}_token`);
      }
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom("connected_accounts").where("id", "=", row.id).execute();
        if (row.is_default !== 1) return;
        // Injection never dangles: the earliest remaining account becomes the default.
        const next = await tx
          .selectFrom("connected_accounts")
          .select("id")
          .where("user_id", "=", userId)
          .where("provider", "=", provider)
          .orderBy("created_at")
          .orderBy("id")
          .limit(1)
          .executeTakeFirst();
        if (next !== undefined) {
          await tx
            .updateTable("connected_accounts")
            .set({ is_default: 1 })
            .where("id", "=", next.id)
            .execute();
        }
      });
      logger.log("info", "oauth account disconnected", {
        provider,
        account_id: accountId,
        user_id: userId,
        revoked,
      });
      return { revoked };
    },

    async accessToken(userId, providerId, accountId) {
      const provider = configured(providerId);
      const all = await rows(userId, providerId);
      if (all.length === 0) {
        throw new ConnectedAccountError(
          "not_connected",
          `no ${provider.name} account is connected; the user connects one at /settings/authorizations`,
        );
      }
      const row =
        accountId === undefined
          ? all.find((r) => r.is_default === 1)
          : all.find((r) => r.account_id === accountId);
      if (row === undefined) {
        throw new ConnectedAccountError(
          "unknown_account",
          `no ${provider.id} account ${JSON.stringify((accountId ?? "default").slice(0, 200))}; pick an account_id from credentials/listAccounts`,
        );
      }
      if (row.status !== ACCOUNT_STATUS.active) {
        throw new ConnectedAccountError(
          "needs_reauth",
          `the ${provider.id} account ${row.account_id} is ${row.status}; ${RECONNECT_HINT}`,
        );
      }
      const fresh =
        row.expires_at === null || Number(row.expires_at) - clock.now() > REFRESH_SKEW_MS;
      if (fresh) {
        return {
          accessToken: open(row, "access"),
          accountId: row.account_id,
          expiresAt: row.expires_at === null ? null : Number(row.expires_at),
        };
      }
      let pending = refreshing.get(row.id);
      if (pending === undefined) {
        pending = refresh(row, provider).finally(() => refreshing.delete(row.id));
        refreshing.set(row.id, pending);
      }
      return pending;
    },
  };
}
