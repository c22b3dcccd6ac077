// `manifest.dev.credentials` (our extension of the open `dev` block, L4994–L5021): the accounts
// `credentials.*` sees in `anna-app dev`, provider id → accounts, e.g.
//   "dev": {"credentials": {"google": [{"account_id": "acct-1", "email": "ada@example.com"}]}}
// A wrong shape is a launch error naming the path (dev-block-records.ts).
import type { OfflineCredentialAccount, OfflineCredentialsConfig } from "@anna-ai/executa-host";
import { devBlockKey } from "./dev-block-records.js";

const STRING_FIELDS = ["email", "label", "status", "access_token"] as const;

export function devCredentials(dev: unknown): OfflineCredentialsConfig {
  const { raw, fail, record } = devBlockKey(dev, "credentials");
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw fail(
      "",
      'must be an object of provider → accounts, e.g. {"google": [{"account_id": "acct-1"}]}',
    );
  }
  const out: Record<string, OfflineCredentialAccount[]> = {};
  for (const [provider, accounts] of Object.entries(raw)) {
    if (!Array.isArray(accounts)) throw fail(`.${provider}`, "must be an array of accounts");
    out[provider] = accounts.map((account: unknown, i) => {
      const at = `.${provider}[${i}]`;
      const a = record(account, at, "account_id", STRING_FIELDS);
      if (a.is_default !== undefined && typeof a.is_default !== "boolean") {
        throw fail(`${at}.is_default`, "must be true or false");
      }
      if (
        a.scopes !== undefined &&
        !(Array.isArray(a.scopes) && a.scopes.every((s) => typeof s === "string"))
      ) {
        throw fail(`${at}.scopes`, "must be an array of strings");
      }
      if (
        a.expires_in !== undefined &&
        !(typeof a.expires_in === "number" && Number.isInteger(a.expires_in) && a.expires_in > 0)
      ) {
        throw fail(`${at}.expires_in`, "must be a positive whole number of seconds");
      }
      return a as unknown as OfflineCredentialAccount;
    });
  }
  return out;
}
