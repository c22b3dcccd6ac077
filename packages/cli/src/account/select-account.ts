// Which saved account a command uses (real-world-cli.md §0.1): `ANNA_APP_HOST` + `ANNA_APP_PAT`
// together win over everything (CI); else `--account <host>` (canonicalised); else the file's
// `current`. A PAT whose saved `expires_at` has passed is refused before any request.
import type { FlagDef, FlagValues } from "../cli/args.js";
import { EXIT_USAGE, ExitError } from "../cli/exit-error.js";
import { canonicalHost } from "./canonical-host.js";
import {
  displayPath,
  loadCredentials,
  type LoadedCredentials,
  type SavedAccount,
} from "./credentials-file.js";
import { loginHint } from "./nexus-error.js";
import { NexusClient } from "./nexus-client.js";

/** `--account <host>` on every command that talks to a Nexus. */
export const ACCOUNT_FLAG: FlagDef = {
  name: "account",
  type: "string",
  value: "<host>",
  description: "Saved account to use (default: the current one, see anna-app whoami)",
};

export interface SelectedAccount {
  host: string;
  /** `env` when ANNA_APP_HOST + ANNA_APP_PAT were used; then there is no saved entry. */
  source: "env" | "file";
  saved?: SavedAccount;
  credentials: LoadedCredentials;
  client: NexusClient;
}

export interface SelectOptions {
  command: string;
  /** The host flag's value (`--account`, or `--host` where a command names it so). */
  account?: string | undefined;
  now?: number;
  fetch?: typeof fetch;
}

/** The flag value of `--account` (or `--host` on commands that spell it that way). */
export function accountFlag(flags: FlagValues): string | undefined {
  const value = flags.account ?? flags.host;
  return typeof value === "string" ? value : undefined;
}

export async function selectAccount(
  env: NodeJS.ProcessEnv,
  options: SelectOptions,
): Promise<SelectedAccount> {
  const credentials = await loadCredentials(env);
  const fetchFn = options.fetch === undefined ? {} : { fetch: options.fetch };
  const envHost = env.ANNA_APP_HOST;
  const envPat = env.ANNA_APP_PAT;
  if (envHost && envPat) {
    const host = canonicalHost(envHost, options.command);
    return {
      host,
      source: "env",
      credentials,
      client: new NexusClient({ host, pat: envPat, ...fetchFn }),
    };
  }
  const file = displayPath(credentials.path, env);
  const ignored = credentials.problem ? ` (${file} was ignored: ${credentials.problem})` : "";
  const host =
    options.account !== undefined
      ? canonicalHost(options.account, options.command)
      : soleOrCurrent(credentials);
  if (host === undefined) {
    throw new ExitError(
      EXIT_USAGE,
      `not logged in: no PAT in ${file}${ignored} and ANNA_APP_PAT not set; ` +
        `run 'anna-app login --host <url>' first`,
    );
  }
  const saved = credentials.store.accounts[host];
  if (saved === undefined) {
    const others = Object.keys(credentials.store.accounts);
    throw new ExitError(
      EXIT_USAGE,
      `no saved account for ${host} in ${file}${ignored}` +
        (others.length ? ` (saved: ${others.join(", ")})` : "") +
        `; ${loginHint(host)} first`,
    );
  }
  const nowS = Math.floor((options.now ?? Date.now()) / 1000);
  if (typeof saved.expires_at === "number" && saved.expires_at > 0 && saved.expires_at < nowS) {
    throw new ExitError(
      EXIT_USAGE,
      `the saved token for ${host} expired on ${new Date(saved.expires_at * 1000).toISOString().slice(0, 10)}; ${loginHint(host)} for a new one`,
    );
  }
  return {
    host,
    source: "file",
    saved,
    credentials,
    client: new NexusClient({ host, pat: saved.pat, ...fetchFn }),
  };
}

/** `current`, or the only saved account when `current` is unset (a hand-edited file). */
function soleOrCurrent(credentials: LoadedCredentials): string | undefined {
  const { current, accounts } = credentials.store;
  if (current !== null && current in accounts) return current;
  const keys = Object.keys(accounts);
  return keys.length === 1 ? keys[0] : (current ?? undefined);
}
