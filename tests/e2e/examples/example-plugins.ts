// Where the example plugins live and how to start them as real child processes.

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { onTestFinished } from "vitest";
import { startPluginCommand, type PluginClient } from "@anna-ai/executa-test";

const execFileAsync = promisify(execFile);

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const EXAMPLES_DIR = join(REPO_ROOT, "examples", "executas");

export function exampleDir(name: string): string {
  return join(EXAMPLES_DIR, name);
}

/** A Go build can take a while on a cold cache; it runs once per test file. */
export const GO_BUILD_TIMEOUT_MS = 120_000;

/** The environment plugins get: the test's own, minus anything that would leak a credential. */
export function pluginEnv(
  extra: NodeJS.ProcessEnv = {},
  drop: readonly string[] = [],
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PYTHONDONTWRITEBYTECODE: "1",
    NO_PROXY: "127.0.0.1,localhost",
  };
  for (const name of drop) delete env[name];
  return { ...env, ...extra };
}

/** Start a plugin and make sure it is gone when the test ends, whatever happened. */
export function startPlugin(
  command: string,
  args: readonly string[],
  cwd: string,
  env?: NodeJS.ProcessEnv,
): PluginClient {
  const client = startPluginCommand({ command: [command, ...args], cwd, env: env ?? pluginEnv() });
  onTestFinished(() => client.dispose());
  return client;
}

export function startPython(
  example: string,
  script: string,
  env?: NodeJS.ProcessEnv,
): PluginClient {
  const dir = exampleDir(example);
  return startPlugin("python3", [join(dir, script)], dir, env);
}

/**
 * Go settings that keep builds offline, on the installed toolchain (Debian's golang-go may be
 * older than a go.mod asks for) and cached across runs under the OS temp dir.
 */
export function goEnv(): NodeJS.ProcessEnv {
  const cache = join(tmpdir(), "anna-examples-go");
  mkdirSync(cache, { recursive: true });
  return {
    ...process.env,
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
    GOPROXY: "off",
    GOCACHE: join(cache, "build"),
    GOMODCACHE: join(cache, "mod"),
    GOPATH: join(cache, "path"),
  };
}

export interface GoBuild {
  /** Absolute path of the built binary for each requested output name. */
  binaries: Record<string, string>;
  outDir: string;
  cleanup(): void;
}

/** `go build -o` once per test file; `targets` maps an output name to the package/file to build. */
export async function goBuild(
  example: string,
  targets: Record<string, readonly string[]>,
): Promise<GoBuild> {
  const outDir = mkdtempSync(join(tmpdir(), `anna-${example}-`));
  const binaries: Record<string, string> = {};
  for (const [name, sources] of Object.entries(targets)) {
    const output = join(outDir, name);
    await execFileAsync("go", ["build", "-o", output, ...sources], {
      cwd: exampleDir(example),
      env: goEnv(),
      timeout: GO_BUILD_TIMEOUT_MS,
    });
    binaries[name] = output;
  }
  return { binaries, outDir, cleanup: () => rmSync(outDir, { recursive: true, force: true }) };
}

/** `go test -c`: compile the example's own tests once, so running them is quick. */
export async function goTestBinary(example: string, outDir: string): Promise<string> {
  const output = join(outDir, `${example}.test`);
  await execFileAsync("go", ["test", "-c", "-o", output, "."], {
    cwd: exampleDir(example),
    env: goEnv(),
    timeout: GO_BUILD_TIMEOUT_MS,
  });
  return output;
}

export async function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(command, [...args], {
      cwd,
      env,
      timeout: timeoutMs,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? "",
    };
  }
}
