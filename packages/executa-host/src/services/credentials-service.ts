// `credentials.*` for apps and `credentials/listAccounts|getToken` for plugins (R67–R69, R151):
// the user's platform-authorized accounts per provider. Metadata only from `listAccounts`; a
// short-lived access token per `getToken` call; a refresh token never crosses this interface.
import type {
  CredentialsGetTokenParams,
  CredentialsGetTokenResult,
  CredentialsListAccountsParams,
  CredentialsListAccountsResult,
} from "@anna-ai/app-schema";
import type { ServiceContext } from "./service-context.js";

/**
 * `credentials_grant {enabled, providers[]}` (R151): empty `providers` = every provider the
 * caller declared. Plugins reach the service through their `credentials_token` claim instead
 * (R66), so a plugin context carries `{enabled: true, providers: <claim>}`.
 */
export interface CredentialsGrant {
  enabled?: boolean;
  providers?: readonly string[];
}

export type CredentialsServiceContext = Omit<ServiceContext, "grant"> & {
  grant: CredentialsGrant;
};

export interface CredentialsService {
  listAccounts(
    params: CredentialsListAccountsParams,
    ctx: CredentialsServiceContext,
  ): Promise<CredentialsListAccountsResult>;
  getToken(
    params: CredentialsGetTokenParams,
    ctx: CredentialsServiceContext,
  ): Promise<CredentialsGetTokenResult>;
}
