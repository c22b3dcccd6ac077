// Where the plugins these tests run live, and how to start one so it is gone when the test ends.

import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { onTestFinished } from "vitest";
import { startPlugin, type StartDirOptions, type StartedPlugin } from "@anna-ai/executa-test";

export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const EXAMPLES_DIR = join(REPO_ROOT, "examples", "executas");
/** The host's misbehaving fixture plugins (bad frames, wrapped describe, crashes, …). */
export const HOST_FIXTURES_DIR = join(REPO_ROOT, "packages/executa-host/test/fixtures/plugins");
export const LENIENT_DIR = fileURLToPath(new URL("./fixtures/lenient", import.meta.url));

/** `go run` compiles before it answers: a cold build on a busy 2-core runner takes a while. */
export const GO_RUN_TIMEOUT_MS = 120_000;

export async function hasCommand(command: string, args: readonly string[]): Promise<boolean> {
  try {
    await promisify(execFile)(command, [...args], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Offline Go on the installed toolchain, with the build cache the e2e tests share. */
export function goEnv(): Record<string, string> {
  const cache = join(tmpdir(), "anna-examples-go");
  mkdirSync(cache, { recursive: true });
  return {
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
    GOPROXY: "off",
    GOCACHE: join(cache, "build"),
    GOMODCACHE: join(cache, "mod"),
    GOPATH: join(cache, "path"),
  };
}

/** `startPlugin`, disposed when the test ends whatever happened. */
export async function started(options: StartDirOptions): Promise<StartedPlugin> {
  const plugin = await startPlugin(options);
  onTestFinished(() => plugin.client.dispose());
  return plugin;
}
