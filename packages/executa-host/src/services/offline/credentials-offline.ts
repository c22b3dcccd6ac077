// Offline platform authorizations (R67–R69, R151): the accounts a harness was told about, per
// provider, with the production answers — metadata only from `listAccounts`, exactly one default
// per provider, a short-lived token per `getToken` call, `NOT_GRANTED` with a reconnect hint for a
// provider outside the grant, an unknown account or a dead credential, `INVALID_REQUEST` for an
// email where an account id belongs. Refresh tokens do not exist here, so none can leak.
import { randomBytes } from "node:crypto";
import type {
  CredentialAccount,
  CredentialsGetTokenResult,
  CredentialsListAccountsResult,
} from "@anna-ai/app-schema";
import { CREDENTIALS_ERRORS } from "@anna-ai/app-schema/errors";
import type {
  CredentialsGrant,
  CredentialsService,
  CredentialsServiceContext,
} from "../credentials-service.js";
import { catalogError } from "../service-error.js";

/** Access tokens minted by `getToken` live this long unless an account says otherwise. */
export const CREDENTIALS_TOKEN_TTL_S = 3600;
/** Account statuses whose tokens are dead until the user reconnects (R151 "revoked / needs re-auth"). */
export const DEAD_CREDENTIAL_STATUSES: readonly string[] = [
  "revoked",
  "needs_reauth",
  "expired",
  "error",
];
const RECONNECT_HINT = "reconnect the account at /settings/authorizations";

/** One configured account: the metadata `listAccounts` shows, plus the token `getToken` hands out. */
export interface OfflineCredentialAccount {
  account_id: string;
  email?: string | null | undefined;
  label?: string | null | undefined;
  is_default?: boolean | undefined;
  status?: string | undefined;
  scopes?: string[] | undefined;
  /** The token to hand out; a fresh random `dev-…` token per call when absent. */
  access_token?: string | undefined;
  /** Seconds the handed-out token lives; default `CREDENTIALS_TOKEN_TTL_S`. */
  expires_in?: number | undefined;
}

/** Provider id → its accounts; e.g. `manifest.dev.credentials` in `anna-app dev`. */
export type OfflineCredentialsConfig = Readonly<
  Record<string, readonly OfflineCredentialAccount[]>
>;

export interface OfflineCredentialsOptions {
  accounts?: OfflineCredentialsConfig;
  /** Epoch ms for `expires_at`. Default `Date.now`. */
  clock?: () => number;
}

const notGranted = (message: string, data?: Record<string, unknown>) =>
  catalogError(CREDENTIALS_ERRORS.NOT_GRANTED, message, { hint: RECONNECT_HINT, ...data });

export function createOfflineCredentialsService(
  options: OfflineCredentialsOptions = {},
): CredentialsService {
  const clock = options.clock ?? Date.now;
  const byProvider = new Map<string, OfflineCredentialAccount[]>();
  for (const [provider, accounts] of Object.entries(options.accounts ?? {})) {
    byProvider.set(provider, withOneDefault(accounts));
  }

  function accountsOf(provider: unknown, grant: CredentialsGrant, method: string) {
    if (typeof provider !== "string" || provider === "") {
      throw catalogError(
        CREDENTIALS_ERRORS.INVALID_REQUEST,
        `${method}: 'provider' is required (a provider id such as "google")`,
      );
    }
    if (grant.enabled !== true) {
      throw notGranted(
        `${method}: connected accounts are not granted to this caller; the user enables them (credentials_grant), then retry`,
        { provider },
      );
    }
    const allowed = grant.providers ?? [];
    if (allowed.length > 0 && !allowed.includes(provider)) {
      throw notGranted(
        `${method}: provider ${JSON.stringify(provider)} is not granted (granted: ${allowed.join(", ")})`,
        {
          provider,
        },
      );
    }
    const accounts = byProvider.get(provider);
    if (accounts === undefined || accounts.length === 0) {
      throw notGranted(`${method}: no ${provider} account is connected; ${RECONNECT_HINT}`, {
        provider,
      });
    }
    return accounts;
  }

  return {
    async listAccounts(
      params,
      ctx: CredentialsServiceContext,
    ): Promise<CredentialsListAccountsResult> {
      const accounts = accountsOf(params.provider, ctx.grant, "credentials/listAccounts");
      return { accounts: accounts.map(metadata) };
    },
    async getToken(params, ctx: CredentialsServiceContext): Promise<CredentialsGetTokenResult> {
      const method = "credentials/getToken";
      const accounts = accountsOf(params.provider, ctx.grant, method);
      const wanted = params.account_id ?? undefined;
      if (
        wanted !== undefined &&
        wanted.includes("@") &&
        !accounts.some((a) => a.account_id === wanted)
      ) {
        throw catalogError(
          CREDENTIALS_ERRORS.INVALID_REQUEST,
          `${method}: account_id ${JSON.stringify(wanted)} looks like an email; pass the account_id from credentials/listAccounts`,
        );
      }
      const account =
        wanted === undefined
          ? accounts.find((a) => a.is_default === true)
          : accounts.find((a) => a.account_id === wanted);
      if (account === undefined) {
        throw notGranted(
          `${method}: no ${params.provider} account ${JSON.stringify(wanted)}; pick one from credentials/listAccounts`,
          { provider: params.provider, account_id: wanted },
        );
      }
      if (account.status !== undefined && DEAD_CREDENTIAL_STATUSES.includes(account.status)) {
        throw notGranted(
          `${method}: the ${params.provider} account ${account.account_id} is ${account.status}; ${RECONNECT_HINT}`,
          { provider: params.provider, account_id: account.account_id, status: account.status },
        );
      }
      const ttl = account.expires_in ?? CREDENTIALS_TOKEN_TTL_S;
      return {
        access_token:
          account.access_token ?? `dev-${params.provider}-${randomBytes(12).toString("hex")}`,
        account_id: account.account_id,
        expires_at: new Date(clock() + ttl * 1000).toISOString(),
      };
    },
  };
}

/** Exactly one default per provider (R67): the first flagged one, else the first account. */
function withOneDefault(accounts: readonly OfflineCredentialAccount[]): OfflineCredentialAccount[] {
  const first = accounts.findIndex((a) => a.is_default === true);
  const chosen = first === -1 ? 0 : first;
  return accounts.map((a, i) => ({ ...a, is_default: i === chosen }));
}

/** What may leave through `listAccounts`: never the token. */
function metadata(account: OfflineCredentialAccount): CredentialAccount {
  return {
    account_id: account.account_id,
    email: account.email ?? null,
    label: account.label ?? null,
    is_default: account.is_default === true,
    status: account.status ?? "active",
    scopes: account.scopes ?? [],
  };
}
