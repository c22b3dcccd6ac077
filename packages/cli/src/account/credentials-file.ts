// The credentials file both CLIs share (real-world-cli.md §0.1): where it lives, its shape, and
// how it is written (mode 0600 in a 0700 folder, temp file + rename so a crash never leaves half
// a file). Fields we do not know are kept as they are, so a newer CLI's additions survive us.
import { chmod, mkdir, open, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { describeJsonError, parseJsonText } from "../cli/json-text.js";

/** One saved login. `pat` is a bearer secret: never print it. */
export interface SavedAccount {
  host: string;
  /** The published CLI always writes null; ours records the id from `GET /api/v1/me`. */
  user_id: number | string | null;
  pat: string;
  /** Unix seconds. */
  issued_at: number;
  /** Unix seconds; 0 or absent means unknown (the published CLI then skips its local check). */
  expires_at: number;
  /** Whatever the server returned: usually an array, a comma string in old servers. */
  scopes: unknown;
  /** Ours only: the server's id of this PAT (device poll `token_id`), for logout and `token list`. */
  token_id?: number;
  /** Ours only: the account's email, for whoami without a network call. */
  email?: string;
  [extra: string]: unknown;
}

export interface CredentialsStore {
  version: 1;
  current: string | null;
  accounts: Record<string, SavedAccount>;
  [extra: string]: unknown;
}

export interface LoadedCredentials {
  path: string;
  store: CredentialsStore;
  /** False when there is no file. */
  exists: boolean;
  /** Permission bits of the file (e.g. 0o600) when it exists. */
  mode?: number;
  /**
   * Why the file's content was ignored (unparseable, wrong shape). The published CLI treats such
   * a file as empty without a word; we do the same but let commands say so.
   */
  problem?: string;
}

export const CREDENTIALS_FILE_MODE = 0o600;
export const CREDENTIALS_DIR_MODE = 0o700;

export function emptyStore(): CredentialsStore {
  return { version: 1, current: null, accounts: {} };
}

/** `$XDG_CONFIG_HOME/anna/credentials.json` when set and non-empty, else `~/.config/anna/…`. */
export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg !== "" ? xdg : path.join(homeOf(env), ".config");
  return path.join(base, "anna", "credentials.json");
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
}

/** The path as people like to read it: `~/.config/anna/credentials.json` under the home folder. */
export function displayPath(file: string, env: NodeJS.ProcessEnv): string {
  const home = homeOf(env);
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

/** Whether group or others may read or write the file (`mode & 0o077`), as whoami warns. */
export function isLoose(mode: number): boolean {
  return (mode & 0o077) !== 0;
}

export async function loadCredentials(env: NodeJS.ProcessEnv): Promise<LoadedCredentials> {
  const file = credentialsPath(env);
  let text: string;
  let mode: number;
  try {
    const handle = await open(file, "r");
    try {
      mode = (await handle.stat()).mode & 0o777;
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { path: file, store: emptyStore(), exists: false };
    return {
      path: file,
      store: emptyStore(),
      exists: true,
      problem: `cannot read it (${code ?? (error as Error).message})`,
    };
  }
  const parsed = parseStore(text);
  return {
    path: file,
    store: parsed.store,
    exists: true,
    mode,
    ...(parsed.problem === undefined ? {} : { problem: parsed.problem }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The store, or an empty one and what was wrong (never throws: the file is user-editable). */
export function parseStore(text: string): { store: CredentialsStore; problem?: string } {
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch (error) {
    return { store: emptyStore(), problem: `not JSON: ${describeJsonError(error)}` };
  }
  if (!isRecord(value) || !isRecord(value.accounts)) {
    return { store: emptyStore(), problem: 'not a credentials file: no "accounts" object' };
  }
  if (value.version !== 1) {
    return {
      store: emptyStore(),
      problem: `version ${JSON.stringify(value.version)} is not 1 (written by a newer CLI?)`,
    };
  }
  const accounts: Record<string, SavedAccount> = {};
  const skipped: string[] = [];
  for (const [key, account] of Object.entries(value.accounts)) {
    if (isRecord(account) && typeof account.pat === "string" && account.pat !== "") {
      accounts[key] = { ...account, host: key } as SavedAccount;
    } else skipped.push(key);
  }
  const current = typeof value.current === "string" ? value.current : null;
  const store: CredentialsStore = { ...value, version: 1, current, accounts };
  return skipped.length === 0
    ? { store }
    : { store, problem: `account ${skipped.join(", ")} has no "pat" and is ignored` };
}

/**
 * Writes the whole store: `credentials.json.tmp.<pid>` (0600) → fsync → rename → chmod 0600,
 * in a folder created 0700. Two-space JSON without a trailing newline, as the published CLI.
 */
export async function saveCredentials(file: string, store: CredentialsStore): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: CREDENTIALS_DIR_MODE });
  const tmp = `${file}.tmp.${process.pid}`;
  // A stale temp file of an earlier crashed run with our pid may have any mode: start afresh.
  await rm(tmp, { force: true });
  const handle = await open(tmp, "wx", CREDENTIALS_FILE_MODE);
  try {
    await handle.writeFile(JSON.stringify(store, null, 2), "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  await chmod(file, CREDENTIALS_FILE_MODE);
}

/** The file's permission bits, or undefined when it does not exist. */
export async function credentialsMode(file: string): Promise<number | undefined> {
  return stat(file).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
}

/** `login`: save (or replace) the account for `host` and make it the current one. */
export function withAccount(store: CredentialsStore, account: SavedAccount): CredentialsStore {
  const accounts = { ...store.accounts, [account.host]: account };
  return { ...store, current: account.host, accounts };
}

/**
 * `logout`: drop `host`; when it was current, the first remaining account (insertion order)
 * becomes current, or none (the published CLI's rule).
 */
export function withoutAccount(store: CredentialsStore, host: string): CredentialsStore {
  const accounts = { ...store.accounts };
  delete accounts[host];
  const current =
    store.current === host || (store.current !== null && !(store.current in accounts))
      ? (Object.keys(accounts)[0] ?? null)
      : store.current;
  return { ...store, current, accounts };
}
