// Drives the built CLI (`node packages/cli/bin/anna-app.js`) as a child process in a temp dir,
// the way a developer or a CI script runs it. Every process is killed if a test leaves it behind.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

export const REPO = path.resolve(fileURLToPath(import.meta.url), "../../../../..");
export const CLI = path.join(REPO, "packages/cli/bin/anna-app.js");
export const EXAMPLES = path.join(REPO, "examples/executas");
export const FIXTURES = path.join(REPO, "packages/cli/test/executa-dev/fixtures");
export const example = (name: string): string => path.join(EXAMPLES, name);

/** A CLI run that takes longer than this failed (the whole suite should stay fast). */
export const CLI_TIMEOUT_MS = 20_000;
/**
 * CLI processes one test file runs at once (each starts a plugin too). Concurrent tests that each
 * start several would otherwise put dozens of processes on CI's two cores and time out.
 */
export const MAX_PARALLEL_CLI = 4;

let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL_CLI) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Written to stdin, which is then closed. Without it stdin is closed at once. */
  stdin?: string | Buffer;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** A fresh temp dir, removed when the test ends. */
export function tempDir(prefix = "executa-dev-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty config folder: no saved account unless a test passes its own XDG_CONFIG_HOME. */
const NO_ACCOUNTS = mkdtempSync(path.join(tmpdir(), "executa-dev-no-accounts-"));

/** Environment for the CLI: no colour, no inherited credentials of the example plugins. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", XDG_CONFIG_HOME: NO_ACCOUNTS };
  delete env.FORCE_COLOR;
  // A saved account turns sampling and agent real (L11605): tests opt in with their own folder.
  delete env.ANNA_APP_HOST;
  delete env.ANNA_APP_PAT;
  for (const name of ["NOTES_API_KEY", "KITCHEN_TOKEN", "WEATHER_API_KEY", "GREETING_PREFIX"]) {
    delete env[name];
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return slot(() => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? tmpdir(),
      env: cliEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    return collect(child, options);
  });
}

function collect(child: ChildProcess, options: CliOptions): Promise<CliResult> {
  const timeoutMs = options.timeoutMs ?? CLI_TIMEOUT_MS;
  return new Promise<CliResult>((resolve, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (c: Buffer) => stdout.push(c));
    child.stderr?.on("data", (c: Buffer) => stderr.push(c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `CLI did not exit within ${timeoutMs}ms; stderr so far: ${Buffer.concat(stderr).toString()}`,
        ),
      );
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
    // A plugin that exits early closes the pipe; the CLI may not read everything.
    child.stdin?.on("error", () => undefined);
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    else child.stdin?.end();
  });
}

/** Parses the one JSON line `--json` prints, failing loudly when there is anything else. */
export function jsonLine(result: CliResult): unknown {
  const lines = result.stdout.split("\n").filter((l) => l !== "");
  if (lines.length !== 1) {
    throw new Error(
      `expected exactly one stdout line, got ${lines.length}: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
  return JSON.parse(lines[0] as string);
}

/** `go version`, or undefined when Go is not installed (Go tests skip with this reason). */
/** `PYTHON` is the real python3 (not a pyenv shim), or undefined when Python is not installed. */
export {
  GO_VERSION,
  needs,
  PYTHON_EXECUTABLE as PYTHON,
} from "../../../../tests/support/toolchains.js";
export const GO_SKIP_REASON = "go is not installed (CI installs golang-go)";

/**
 * Builds a Go example once per test file into `outDir` (offline: module mode, local toolchain),
 * so tests launch the binary with --spec instead of paying `go run` each time.
 */
export function buildGo(exampleName: string, outDir: string, file?: string): string {
  const out = path.join(outDir, file ? path.basename(file, ".go") : exampleName);
  const built = spawnSync("go", ["build", "-o", out, ...(file ? [file] : ["."])], {
    cwd: example(exampleName),
    env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`go build ${exampleName} failed: ${built.stderr}`);
  return out;
}

/**
 * A PATH holding exactly `tools`: each maps a launcher name to a real executable (symlinked) or
 * to a `#!/bin/sh` script body (a fake launcher, e.g. a `go` that prints an old version).
 * Nothing else is on it (`/bin` may hold a python3): scripts use shell builtins only.
 */
export function toolPath(
  dir: string,
  tools: Record<string, { link: string } | { script: string }>,
): string {
  const bin = path.join(dir, "tool-bin");
  mkdirSync(bin, { recursive: true });
  for (const [name, tool] of Object.entries(tools)) {
    const file = path.join(bin, name);
    if ("link" in tool) symlinkSync(tool.link, file);
    else writeFileSync(file, `#!/bin/sh\n${tool.script}\n`, { mode: 0o755 });
  }
  return bin;
}
