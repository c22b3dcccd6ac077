// A real child process a test talks to through its output: collect stdout and stderr as they
// arrive, wait for a line with an explicit timeout (never a sleep), send a signal, await the
// exit. The process is SIGKILLed when the test ends, whatever the test did. Package helpers
// (`startNexus`, `spawnCli`) wrap this with their bin and environment.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { onTestFinished } from "vitest";

export interface WatchedProcess {
  pid: number | undefined;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match in stdout + stderr; rejects if the process ends first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** The exit code (null when a signal ended it), once stdout and stderr are drained. */
  exited(): Promise<number | null>;
  signal(sig: NodeJS.Signals): void;
}

export interface WatchOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to stdin, which is then closed; without it stdin is not connected. */
  stdin?: string;
  /** How long waitFor and exited wait before failing with the output so far. */
  timeoutMs: number;
}

export function spawnWatched(
  command: string,
  args: readonly string[],
  opts: WatchOptions,
): WatchedProcess {
  const child = spawn(command, [...args], {
    env: opts.env,
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
  const out = { stdout: "", stderr: "" };
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  // stdio[1] and [2] are "pipe", so both streams exist.
  child.stdout!.setEncoding("utf8").on("data", (s: string) => ((out.stdout += s), wake()));
  child.stderr!.setEncoding("utf8").on("data", (s: string) => ((out.stderr += s), wake()));
  const exit = new Promise<number | null>((resolve) =>
    child.on("close", (code) => ((ended = true), wake(), resolve(code))),
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const output = () => `stdout:\n${out.stdout}\nstderr:\n${out.stderr}`;
  const within = <T>(p: Promise<T>, what: string) =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; ${output()}`)),
        opts.timeoutMs,
      );
      p.then(
        (v) => (clearTimeout(t), resolve(v)),
        (e: unknown) => (clearTimeout(t), reject(e as Error)),
      );
    });
  return {
    pid: child.pid,
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
            } else if (ended) {
              waiters.delete(check);
              reject(new Error(`exited ${child.exitCode} before ${pattern}; ${output()}`));
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

/** Every live process below `pid`, read from /proc (Linux). */
export async function descendants(pid: number): Promise<number[]> {
  const out: number[] = [];
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const task of tasks) {
    let children = "";
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    } catch {
      continue; // the task ended while we looked
    }
    for (const child of children === "" ? [] : children.split(" ").map(Number)) {
      out.push(child, ...(await descendants(child)));
    }
  }
  return out;
}

/** Alive and not a zombie waiting to be reaped. */
export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
