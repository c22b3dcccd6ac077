// `anna-app dev` as a real child process: wait for what it prints, talk to it over HTTP, stop it
// with a signal. Killed in onTestFinished whatever the test did.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

const CLI = fileURLToPath(new URL("../../bin/anna-app.js", import.meta.url));
/** How long a wait for output or exit may take before the test fails with what was printed. */
export const DEV_PROCESS_TIMEOUT_MS = 10_000;

export interface DevProcess {
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the first match of `pattern` in stdout (or stderr), waiting for it. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<RegExpMatchArray>;
  /** The exit code, waiting for it. */
  exited(): Promise<number | null>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startDevProcess(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): DevProcess {
  const child = spawn(process.execPath, [CLI, "dev", ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => ((out.stdout += chunk), wake()));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => ((out.stderr += chunk), wake()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const within = <T>(what: string, promise: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `anna-app dev: no ${what} within ${DEV_PROCESS_TIMEOUT_MS} ms\n${out.stdout}${out.stderr}`,
            ),
          ),
        DEV_PROCESS_TIMEOUT_MS,
      );
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  return {
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    waitFor(pattern, stream = "stdout") {
      return within(
        `${stream} matching ${pattern}`,
        new Promise<RegExpMatchArray>((resolve, reject) => {
          const check = () => {
            const match = out[stream].match(pattern);
            if (match !== null) {
              waiters.delete(check);
              resolve(match);
            } else if (child.exitCode !== null) {
              waiters.delete(check);
              reject(
                new Error(
                  `anna-app dev exited ${child.exitCode} before ${pattern}\n${out.stdout}${out.stderr}`,
                ),
              );
            }
          };
          waiters.add(check);
          void exit.then(check);
          check();
        }),
      );
    },
    exited: () => within("exit", exit),
    stop(signal = "SIGINT") {
      child.kill(signal);
      return within("exit", exit);
    },
  };
}
