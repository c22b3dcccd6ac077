// `--account <provider>=<account_id>[,email=…][,label=…][,token=…][,status=…][,default]`: the
// user's connected accounts that `credentials/listAccounts|getToken` see (R67–R68). Not
// `--credential`, which is the per-invoke `context.credentials` map (H10), a different thing.
import type { OfflineCredentialAccount, OfflineCredentialsConfig } from "@anna-ai/executa-host";
import type { FlagValues } from "../cli/args.js";
import { usageError } from "../cli/exit-error.js";

const COMMAND = "executa dev";
const FORM = "<provider>=<account_id>[,email=…][,label=…][,token=…][,status=…][,default]";

/** Provider → accounts, in flag order; the first `default` (else the first) is the default. */
export function parseAccountFlags(value: FlagValues[string]): OfflineCredentialsConfig {
  if (value === undefined) return {};
  const out: Record<string, OfflineCredentialAccount[]> = {};
  for (const raw of Array.isArray(value) ? value : [String(value)]) {
    const [provider, accountId, extras] = split(raw);
    const account: OfflineCredentialAccount = { account_id: accountId };
    for (const extra of extras) applyExtra(account, extra, raw);
    const list = (out[provider] ??= []);
    if (list.some((a) => a.account_id === accountId)) {
      throw usageError(
        `--account ${raw}: ${provider} account ${accountId} is given twice`,
        COMMAND,
      );
    }
    list.push(account);
  }
  return out;
}

function split(raw: string): [string, string, string[]] {
  const eq = raw.indexOf("=");
  const provider = eq === -1 ? "" : raw.slice(0, eq).trim();
  const [accountId = "", ...extras] = (eq === -1 ? "" : raw.slice(eq + 1)).split(",");
  if (!/^[a-z][a-z0-9_-]*$/.test(provider) || accountId.trim() === "") {
    throw usageError(`--account '${raw}' is not ${FORM} (e.g. google=work,default)`, COMMAND);
  }
  return [provider, accountId.trim(), extras.map((e) => e.trim()).filter((e) => e !== "")];
}

function applyExtra(account: OfflineCredentialAccount, extra: string, raw: string): void {
  if (extra === "default") {
    account.is_default = true;
    return;
  }
  const eq = extra.indexOf("=");
  const key = eq === -1 ? extra : extra.slice(0, eq);
  const value = eq === -1 ? "" : extra.slice(eq + 1);
  if (value === "" && key !== "default") {
    throw usageError(`--account ${raw}: '${extra}' needs a value (${key}=…)`, COMMAND);
  }
  switch (key) {
    case "email":
      account.email = value;
      return;
    case "label":
      account.label = value;
      return;
    case "token":
      account.access_token = value;
      return;
    case "status":
      account.status = value;
      return;
    default:
      throw usageError(
        `--account ${raw}: unknown field '${key}'; use email, label, token, status or default`,
        COMMAND,
      );
  }
}
