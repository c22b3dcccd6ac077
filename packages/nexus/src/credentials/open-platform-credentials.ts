// Connected accounts as a server runs them: the account store and the connect flows on one
// database and KEK, and the `credentials/*` / `credentials.*` service on the same accounts.
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import type { PlatformCredentials } from "../routes/platform-credentials.js";
import type { KeyEncryptionKey } from "../tokens/key-encryption.js";
import { sqlConnectedAccounts } from "./connected-accounts.js";
import type { Fetch } from "./oauth-client.js";
import { sqlOAuthFlows } from "./oauth-flows.js";
import type { OAuthRegistry } from "./oauth-providers.js";
import { platformCredentialsService } from "./platform-credentials-service.js";

export function openPlatformCredentials(deps: {
  db: Kysely<Database>;
  kek: KeyEncryptionKey;
  clock: Clock;
  logger: Logger;
  registry: OAuthRegistry;
  fetch?: Fetch;
}): PlatformCredentials & { service: ReturnType<typeof platformCredentialsService> } {
  const accounts = sqlConnectedAccounts(deps);
  const flows = sqlOAuthFlows({ ...deps, accounts });
  return { accounts, flows, service: platformCredentialsService(accounts) };
}
