// The doctor row for the saved Nexus account: the credentials file is private (0600) and
// parseable, its PAT has not expired, and the server answers `GET /api/v1/me` with it. Optional
// like every platform piece: a problem is a ! row that says the fix, never a failed doctor.
// The PAT itself is never shown.
import { describeExpiry } from "../account/account-view.js";
import { accountView } from "../account/account-view.js";
import { displayPath, isLoose, loadCredentials } from "../account/credentials-file.js";
import { fetchMe } from "../account/me.js";
import { NexusClient } from "../account/nexus-client.js";
import { loginHint } from "../account/nexus-error.js";
import type { CheckResult } from "./check.js";

/** Doctor must not hang on a Nexus that does not answer. */
export const ACCOUNT_PROBE_TIMEOUT_MS = 5_000;

export interface AccountCheckOptions {
  now?: number;
  fetch?: typeof fetch;
}

export async function checkSavedAccount(
  env: NodeJS.ProcessEnv,
  options: AccountCheckOptions = {},
): Promise<CheckResult> {
  const base = { id: "account", label: "account", required: false } as const;
  const loaded = await loadCredentials(env);
  const file = displayPath(loaded.path, env);
  const needs = "real modes and publishing need anna-app login --host <url>";
  if (!loaded.exists) {
    return {
      ...base,
      status: "warn",
      found: "none",
      detail: `not logged in (no ${file}): ${needs}`,
    };
  }
  const problems: string[] = [];
  if (loaded.mode !== undefined && isLoose(loaded.mode)) {
    problems.push(
      `${file} is readable by others (mode ${loaded.mode.toString(8)}): chmod 600 ${file}`,
    );
  }
  if (loaded.problem) problems.push(`${file} is ignored: ${loaded.problem}`);
  const { current, accounts } = loaded.store;
  const saved = current === null ? undefined : accounts[current];
  const path = { path: loaded.path };
  if (saved === undefined) {
    const detail = [...problems, `no current account in ${file}: ${needs}`].join("; ");
    return {
      ...base,
      ...path,
      status: "warn",
      found: loaded.problem ? "unreadable" : "none",
      detail,
    };
  }
  const now = options.now ?? Date.now();
  const view = accountView(saved, true, now);
  if (view.expired) {
    problems.push(
      `the token for ${saved.host} expired ${describeExpiry(view.expires_at, now)}; ${loginHint(saved.host)}`,
    );
    return { ...base, ...path, status: "warn", found: "expired", detail: problems.join("; ") };
  }
  const client = new NexusClient({
    host: saved.host,
    pat: saved.pat,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  try {
    const me = await fetchMe(client, AbortSignal.timeout(ACCOUNT_PROBE_TIMEOUT_MS));
    const who = me.email ?? `user ${me.id}`;
    const ok = `${saved.host}: the token is accepted (${who}); expires ${describeExpiry(view.expires_at, now)}`;
    if (problems.length > 0) {
      return {
        ...base,
        ...path,
        status: "warn",
        found: "loose",
        detail: `${problems.join("; ")}; ${ok}`,
      };
    }
    return { ...base, ...path, status: "ok", found: "ok", detail: ok };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    problems.push(error instanceof Error ? error.message : String(error));
    return {
      ...base,
      ...path,
      status: "warn",
      found: status === undefined ? "unreachable" : "rejected",
      detail: problems.join("; "),
    };
  }
}
