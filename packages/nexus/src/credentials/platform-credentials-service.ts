// `credentials/listAccounts|getToken` for the server's plugins and `credentials.*` for app
// windows, on the accounts users connected (connected-accounts.ts). The caller's reach is the
// context's grant: for a plugin, its `credentials_token`'s `providers` claim (the OAuth providers
// its declared credential names map to, R66); for a window, the app's `credentials_grant` within
// its manifest's `ui.host_api.credentials`. Every refusal is -32061 with what to do next, an email
// where an account id belongs is -32062, a provider that cannot be reached -32063.
import { CREDENTIALS_ERRORS } from "@anna-ai/app-schema/errors";
import {
  catalogError,
  type CredentialsService,
  type CredentialsServiceContext,
} from "@anna-ai/executa-host";
import {
  ConnectedAccountError,
  type ConnectedAccounts,
  RECONNECT_HINT,
} from "./connected-accounts.js";

function userOf(ctx: CredentialsServiceContext, method: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(ctx.userId)) {
    throw catalogError(
      CREDENTIALS_ERRORS.NOT_GRANTED,
      `${method}: this caller is not a user of this server`,
    );
  }
  return Number(ctx.userId);
}

function checkGrant(ctx: CredentialsServiceContext, provider: string, method: string): void {
  const { grant } = ctx;
  if (grant.enabled !== true) {
    throw catalogError(
      CREDENTIALS_ERRORS.NOT_GRANTED,
      `${method}: connected accounts are not granted to this caller; the user enables them for the app (credentials_grant), then retry`,
      { provider, hint: RECONNECT_HINT },
    );
  }
  const allowed = grant.providers ?? [];
  if (!allowed.includes(provider)) {
    throw catalogError(
      CREDENTIALS_ERRORS.NOT_GRANTED,
      `${method}: provider ${JSON.stringify(provider.slice(0, 60))} is not covered (covered: ${allowed.join(", ") || "none"}); declare a credential name that maps to it (e.g. GOOGLE_ACCESS_TOKEN for google)`,
      { provider, nexus_code: "APP_NOT_GRANTED" },
    );
  }
}

function wireError(err: unknown, provider: string, method: string): never {
  if (err instanceof ConnectedAccountError) {
    const entry =
      err.problem === "upstream" ? CREDENTIALS_ERRORS.UPSTREAM : CREDENTIALS_ERRORS.NOT_GRANTED;
    throw catalogError(
      entry,
      `${method}: ${err.message}`,
      { provider, reason: err.problem, hint: RECONNECT_HINT },
      { cause: err },
    );
  }
  throw err;
}

export function platformCredentialsService(accounts: ConnectedAccounts): CredentialsService {
  return {
    async listAccounts(params, ctx) {
      const method = "credentials/listAccounts";
      const userId = userOf(ctx, method);
      checkGrant(ctx, params.provider, method);
      if (accounts.registry.get(params.provider) === undefined) {
        wireError(
          new ConnectedAccountError(
            "provider_not_configured",
            `provider ${JSON.stringify(params.provider.slice(0, 60))} is not configured on this server; the operator adds it with ANNA_OAUTH_PROVIDERS`,
          ),
          params.provider,
          method,
        );
      }
      const list = await accounts.list(userId, params.provider);
      return {
        accounts: list.map((a) => ({
          account_id: a.account_id,
          email: a.email,
          label: a.label,
          is_default: a.is_default,
          status: a.status,
          scopes: a.scopes,
        })),
      };
    },

    async getToken(params, ctx) {
      const method = "credentials/getToken";
      const userId = userOf(ctx, method);
      checkGrant(ctx, params.provider, method);
      const wanted = params.account_id ?? undefined;
      let token;
      try {
        token = await accounts.accessToken(userId, params.provider, wanted);
      } catch (err) {
        if (
          err instanceof ConnectedAccountError &&
          err.problem === "unknown_account" &&
          wanted?.includes("@") === true
        ) {
          throw catalogError(
            CREDENTIALS_ERRORS.INVALID_REQUEST,
            `${method}: account_id ${JSON.stringify(wanted.slice(0, 200))} looks like an email; pass the account_id from credentials/listAccounts`,
          );
        }
        wireError(err, params.provider, method);
      }
      return {
        access_token: token.accessToken,
        account_id: token.accountId,
        expires_at: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
      };
    },
  };
}
