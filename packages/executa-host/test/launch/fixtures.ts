// Shared by the launch tests: fixture folders and a simulated machine (which tools exist, which
// versions they report), so "uv missing" or "Go 1.19 installed" need no real toolchain.
import { cp, mkdtemp, rm } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";
import type { DetectOptions } from "../../src/launch/detect-context.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/launch/", import.meta.url));

export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

export interface Machine {
  /** Programs on PATH, mapped to their version ("" = present, version unknown). */
  tools: Record<string, string>;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

/** Detection options for a simulated machine; tools resolve to `/usr/bin/<name>`. */
export function machine(m: Machine): DetectOptions {
  return {
    which: (command) => (command in m.tools ? `/usr/bin/${command}` : undefined),
    versionOf: (executable) => {
      const version = m.tools[path.basename(executable)];
      return Promise.resolve(version === undefined || version === "" ? undefined : version);
    },
    platform: m.platform ?? "linux",
    env: m.env ?? { PATH: "/usr/bin:/bin", HOME: "/home/dev" },
  };
}

/** Python 3.11 and Node, no uv, Go 1.19: the machine real plugins most often meet. */
export const NO_UV = machine({ tools: { python3: "3.11.7", node: "20.19.0", go: "1.19.8" } });
export const WITH_UV = machine({
  tools: { uv: "0.5.0", python3: "3.11.7", node: "20.19.0", go: "1.19.8" },
});

/** A private copy of a fixture folder (for tests that add files), removed after the test. */
export async function copyFixture(name: string): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "launch-"));
  onTestFinished(() => rm(tmp, { recursive: true, force: true }));
  const target = path.join(tmp, path.basename(name));
  await cp(fixture(name), target, { recursive: true });
  return target;
}

export async function tempDir(): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "launch-"));
  onTestFinished(() => rm(tmp, { recursive: true, force: true }));
  return tmp;
}
