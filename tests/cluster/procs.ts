// The cluster test's child processes and clean-up: every process it starts and every thing it
// must stop (a pg_ctl cluster, s3rver, temp folders) is registered here, and `teardown()` ends
// them all — on success, on a failed assertion, on an exception and on SIGINT/SIGTERM — so a
// run leaves no orphans. Not tests/support/child-process.ts: that one ties processes to vitest's
// onTestFinished, and this runner is a plain tsx script.
import { type ChildProcess, spawn } from "node:child_process";

const KILL_GRACE_MS = 3_000;

export interface Proc {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match in stdout + stderr; rejects on exit or after `ms`. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpMatchArray>;
  /** Resolves once the process is gone (exit code, or null after a signal). */
  exited: Promise<number | null>;
}

const live = new Set<Proc>();
const cleanups: (() => unknown)[] = [];
let tearingDown: Promise<void> | undefined;

/** Output kept per process: enough for an error message, bounded for a long run. */
const KEEP_CHARS = 200_000;

export function spawnProc(
  name: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Proc {
  const child = spawn(command, [...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const waiters = new Set<() => void>();
  let ended = false;
  const append = (s: string) => {
    out = (out + s).slice(-KEEP_CHARS);
    waiters.forEach((w) => w());
  };
  child.stdout!.setEncoding("utf8").on("data", append);
  child.stderr!.setEncoding("utf8").on("data", append);
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      ended = true;
      live.delete(proc);
      waiters.forEach((w) => w());
      resolve(code);
    }),
  );
  child.on("error", (err) => append(`\n[spawn error] ${err.message}\n`));
  const proc: Proc = {
    name,
    child,
    output: () => out,
    exited,
    waitFor: (pattern, ms) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${name}: no ${pattern} within ${ms} ms; output:\n${out.slice(-4000)}`));
        }, ms);
        const check = () => {
          const m = out.match(pattern);
          if (m || ended) {
            waiters.delete(check);
            clearTimeout(timer);
            if (m) resolve(m);
            else
              reject(new Error(`${name} exited before ${pattern}; output:\n${out.slice(-4000)}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
  live.add(proc);
  return proc;
}

/** SIGKILL (a crash) or SIGTERM; resolves once the process is gone. */
export async function stopProc(p: Proc, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill(signal);
  const timer = setTimeout(() => p.child.kill("SIGKILL"), KILL_GRACE_MS);
  await p.exited;
  clearTimeout(timer);
}

/** Something to stop at the end that is not a child process of ours (pg_ctl's server, s3rver). */
export function onTeardown(fn: () => unknown): void {
  cleanups.push(fn);
}

export function teardown(): Promise<void> {
  tearingDown ??= (async () => {
    await Promise.all([...live].map((p) => stopProc(p)));
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch (err) {
        process.stderr.write(`cluster test: a clean-up step failed: ${String(err)}\n`);
      }
    }
  })();
  return tearingDown;
}

/** Ctrl-C or a CI cancel: stop everything, then exit as the signal would. */
export function teardownOnSignals(): void {
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(sig, () => {
      process.stderr.write(`\ncluster test: ${sig}, stopping every process it started\n`);
      void teardown().finally(() => process.exit(sig === "SIGINT" ? 130 : 143));
    });
  }
}
