// The built `anna-app` as a child process with a private home: HOME (and, when asked,
// XDG_CONFIG_HOME) point into a temp folder so no test ever reads or writes the developer's real
// credentials. Output is collected as it arrives so a test can wait for the login code.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
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

export interface CliProcess {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match in stdout + stderr. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited(): Promise<number | null>;
  signal(sig: NodeJS.Signals): void;
}

export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    env,
    cwd: tmpdir(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  child.stdout.setEncoding("utf8").on("data", (s: string) => ((out.stdout += s), wake()));
  child.stderr.setEncoding("utf8").on("data", (s: string) => ((out.stderr += s), wake()));
  const exit = new Promise<number | null>((resolve) =>
    child.on("close", (code) => (wake(), resolve(code))),
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const within = <T>(p: Promise<T>, what: string) =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(
        () =>
          reject(
            new Error(
              `timed out waiting for ${what}; stdout:\n${out.stdout}\nstderr:\n${out.stderr}`,
            ),
          ),
        WAIT_TIMEOUT_MS,
      );
      p.then(
        (v) => (clearTimeout(t), resolve(v)),
        (e: unknown) => (clearTimeout(t), reject(e as Error)),
      );
    });
  return {
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    waitFor: (pattern) =>
      within(
        new Promise<RegExpMatchArray>((resolve, reject) => {
          const check = () => {
            const m = (out.stdout + out.stderr).match(pattern);
            if (m) {
              waiters.delete(check);
              resolve(m);
            } else if (child.exitCode !== null) {
              waiters.delete(check);
              reject(
                new Error(
                  `exited ${child.exitCode} before ${pattern}:\n${out.stdout}\n${out.stderr}`,
                ),
              );
            }
          };
          waiters.add(check);
          check();
        }),
        String(pattern),
      ),
    exited: () => within(exit, "exit"),
    signal: (sig) => child.kill(sig),
  };
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
