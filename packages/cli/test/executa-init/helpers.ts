// Runs the built CLI and the templates' own toolchains as child processes in temp dirs. Every
// process is killed when it overruns; every temp dir is removed when its test ends.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

export const REPO = path.resolve(fileURLToPath(import.meta.url), "../../../../..");
export const CLI = path.join(REPO, "packages/cli/bin/anna-app.js");
export const SDK_DIR = path.join(REPO, "packages/executa-sdk");
export const TSC = path.join(REPO, "node_modules/typescript/bin/tsc");
/** A child process that takes longer than this failed. */
export const RUN_TIMEOUT_MS = 25_000;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** A fresh temp dir, removed when the current test ends. */
export function tempDir(prefix = "executa-init-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A temp dir for a whole describe block; the caller removes it in afterAll. */
export function suiteDir(prefix = "executa-init-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/**
 * The real Python first on PATH: pyenv-style shims cost a shell and half a second per start,
 * which would dominate the Python tests. Unchanged when there is no python3.
 */
function fastPath(base: string | undefined): string {
  const found = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
  });
  const python = found.status === 0 ? found.stdout.trim() : "";
  return python === "" ? (base ?? "") : `${path.dirname(python)}${path.delimiter}${base ?? ""}`;
}

const FAST_PATH = fastPath(process.env.PATH);

/** No colour, no greeting credential from the developer's shell, offline Go. */
export function testEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: FAST_PATH,
    NO_COLOR: "1",
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
  };
  delete env.FORCE_COLOR;
  delete env.HELLO_GREETING;
  delete env.ANNA_NEXUS_ROOT;
  return { ...env, ...extra };
}

export function run(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? RUN_TIMEOUT_MS;
  const child = spawn(command, [...args], {
    cwd: options.cwd ?? tmpdir(),
    env: options.env ?? testEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise<RunResult>((resolve, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => stdout.push(c));
    child.stderr.on("data", (c: Buffer) => stderr.push(c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `${command} ${args.join(" ")} did not exit within ${timeoutMs}ms; stderr: ${Buffer.concat(stderr).toString()}`,
        ),
      );
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

/** `anna-app <args>` through the built CLI, as a developer runs it. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return run(process.execPath, [CLI, ...args], options);
}

/** The one JSON line `--json` prints; fails loudly on anything else. */
export function jsonLine(result: RunResult): unknown {
  const lines = result.stdout.split("\n").filter((l) => l !== "");
  if (lines.length !== 1) {
    throw new Error(
      `expected one stdout line, got ${lines.length}: ${result.stdout}\n${result.stderr}`,
    );
  }
  return JSON.parse(lines[0] as string);
}

/** The error lines on stderr (the CLI prints exactly one per failure). */
export function stderrLines(result: RunResult): string[] {
  return result.stderr.split("\n").filter((l) => l !== "");
}

/** `go version` / `python3 --version`, or undefined when missing: those tests skip. */
export { GO_VERSION, PYTHON_VERSION } from "../../../../tests/support/toolchains.js";
export const GO_SKIP_REASON = "go is not installed (CI installs golang-go)";
