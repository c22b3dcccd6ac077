// `anna-nexus` as a real child process (the built bin): wait for what it logs, stop it with a
// signal. Killed in onTestFinished whatever the test did.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/anna-nexus.js", import.meta.url));
export const PROCESS_TIMEOUT_MS = 15_000;

export interface NexusProcess {
  stderr(): string;
  stdout(): string;
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited(): Promise<number | null>;
  signal(sig: NodeJS.Signals): void;
}

export function startNexus(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  stdin?: string,
): NexusProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, DATABASE_URL: "", ANNA_DATA_DIR: "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end(stdin ?? "");
  const out = { stdout: "", stderr: "" };
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  child.stdout.setEncoding("utf8").on("data", (s: string) => ((out.stdout += s), wake()));
  child.stderr.setEncoding("utf8").on("data", (s: string) => ((out.stderr += s), wake()));
  const exit = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => (wake(), resolve(code))),
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const timeout = <T>(p: Promise<T>, what: string) =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; stderr:\n${out.stderr}`)),
        PROCESS_TIMEOUT_MS,
      );
      p.then(
        (v) => (clearTimeout(t), resolve(v)),
        (e: unknown) => (clearTimeout(t), reject(e as Error)),
      );
    });
  return {
    stderr: () => out.stderr,
    stdout: () => out.stdout,
    waitFor: (pattern) =>
      timeout(
        new Promise<RegExpMatchArray>((resolve, reject) => {
          const check = () => {
            const m = (out.stderr + out.stdout).match(pattern);
            if (m) {
              waiters.delete(check);
              resolve(m);
            } else if (child.exitCode !== null) {
              waiters.delete(check);
              reject(
                new Error(`exited ${child.exitCode} before ${pattern}; stderr:\n${out.stderr}`),
              );
            }
          };
          waiters.add(check);
          check();
        }),
        String(pattern),
      ),
    exited: () => timeout(exit, "exit"),
    signal: (sig) => child.kill(sig),
  };
}
