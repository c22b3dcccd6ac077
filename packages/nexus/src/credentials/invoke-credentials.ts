// The pool's per-invoke `context.credentials` (H10), in the spec's resolution order: the
// platform broker first — each declared name whose `credential_mapping` is `$access_token`
// receives the live (refreshed if expired) token of the user's default account at that provider
// — then the values the user entered for the executa fill the names the broker did not.
import type { Kysely } from "kysely";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import { ConnectedAccountError, type ConnectedAccounts } from "./connected-accounts.js";
import type { CredentialVault } from "./credential-vault.js";
import { declaredCredentials } from "./declared-credentials.js";

export type InvokeCredentials = (
  poolUserId: string,
  toolId: string,
) => Promise<Readonly<Record<string, string>> | undefined>;

export function brokeredInvokeCredentials(deps: {
  db: Kysely<Database>;
  vault: CredentialVault;
  accounts: ConnectedAccounts;
  logger: Logger;
}): InvokeCredentials {
  const { db, vault, accounts, logger } = deps;
  return async (poolUserId, toolId) => {
    const entered = await vault.forInvoke(poolUserId, toolId);
    if (!/^[1-9][0-9]{0,14}$/.test(poolUserId) || accounts.registry.providers.length === 0) {
      return entered;
    }
    const userId = Number(poolUserId);
    const declared = (await declaredCredentials(db, userId, toolId)) ?? [];
    const brokered: Record<string, string> = {};
    // One token per provider however many of its names the executa declares.
    const byProvider = new Map<string, Promise<string | undefined>>();
    for (const { name } of declared) {
      const provider = accounts.registry.providerForCredential(name);
      if (provider === undefined) continue;
      let token = byProvider.get(provider.id);
      if (token === undefined) {
        token = accounts.accessToken(userId, provider.id).then(
          (t) => t.accessToken,
          (err: unknown) => {
            if (!(err instanceof ConnectedAccountError)) throw err;
            // Not connected is the usual case; a dead or unreachable account is worth a line.
            if (err.problem !== "not_connected") {
              logger.log("warn", "platform credential not injected", {
                tool_id: toolId,
                provider: provider.id,
                reason: err.problem,
              });
            }
            return undefined;
          },
        );
        byProvider.set(provider.id, token);
      }
      const value = await token;
      if (value !== undefined) brokered[name] = value;
    }
    if (Object.keys(brokered).length === 0) return entered;
    return { ...entered, ...brokered };
  };
}
