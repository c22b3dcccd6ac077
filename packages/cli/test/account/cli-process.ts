// The built `anna-app` as a child process with a private home: HOME (and, when asked,
// XDG_CONFIG_HOME) point into a temp folder so no test ever reads or writes the developer's real
// credentials. The process itself is the shared watcher (tests/support/child-process.ts), so a
// test can wait for the login code.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
import { spawnWatched, type WatchedProcess } from "../../../../tests/support/child-process.js";
import { CLI, testEnv } from "../executa-init/helpers.js";

export const WAIT_TIMEOUT_MS = 60_000;

/** An environment whose home is a fresh temp folder (removed when the test ends). */
export function privateHome(extra: NodeJS.ProcessEnv = {}): {
  env: NodeJS.ProcessEnv;
  home: string;
} {
  const home = mkdtempSync(path.join(tmpdir(), "cli-accounts-home-"));
  onTestFinished(() => rmSync(home, { recursive: true, force: true }));
  const env = testEnv({ HOME: home, ANNA_LOGIN_NO_OPEN: "", BROWSER: "", ...extra });
  delete env.ANNA_APP_HOST;
  delete env.ANNA_APP_PAT;
  if (extra.XDG_CONFIG_HOME === undefined) delete env.XDG_CONFIG_HOME;
  return { env, home };
}

export type CliProcess = WatchedProcess;

export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv): CliProcess {
  return spawnWatched(process.execPath, [CLI, ...args], {
    env,
    cwd: tmpdir(),
    timeoutMs: WAIT_TIMEOUT_MS,
  });
}

/** The one-time code login prints (`ABCD-EFGH`). */
export const USER_CODE_RE = /one-time code: ([A-Z0-9]{4}-[A-Z0-9]{4})/;

/** `anna-app login --host <url> --no-browser`, approved by `cookie` as soon as the code shows. */
export async function loginWithCli(
  url: string,
  env: NodeJS.ProcessEnv,
  approve: (userCode: string) => Promise<void>,
  extraArgs: readonly string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = spawnCli(["login", "--host", url, "--no-browser", ...extraArgs], env);
  const [, userCode] = await cli.waitFor(USER_CODE_RE);
  await approve(userCode as string);
  const code = await cli.exited();
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}
