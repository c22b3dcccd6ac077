// Mock-answer files named by the `--mock-*` flags, parsed before the plugin starts so a broken
// line is a launch error (`file:line: message`, exit 2) instead of a failure in the middle of an
// invoke.
import path from "node:path";
import { MockFixture, MockFixtureError } from "@anna-ai/executa-host";
import type { FlagValues } from "../cli/args.js";
import { EXIT_USAGE, ExitError } from "../cli/exit-error.js";

export const FIXTURE_FLAGS = {
  sampling: "mock-sampling",
  agent: "mock-agent",
  storage: "mock-storage",
  image: "mock-image",
  upload: "mock-upload",
  embeddings: "mock-embeddings",
  web: "mock-web",
} as const;

export type FixtureFamily = keyof typeof FIXTURE_FLAGS;
export type DevFixtures = Partial<Record<FixtureFamily, MockFixture>>;

export async function loadFixtures(flags: FlagValues, cwd: string): Promise<DevFixtures> {
  const entries = Object.entries(FIXTURE_FLAGS) as Array<[FixtureFamily, string]>;
  // Flags naming the same file share one parse.
  const byFile = new Map<string, Promise<MockFixture>>();
  const loaded = await Promise.all(
    entries.map(async ([family, flag]) => {
      const value = flags[flag];
      if (typeof value !== "string") return undefined;
      const file = path.resolve(cwd, value);
      let pending = byFile.get(file);
      if (pending === undefined) {
        pending = MockFixture.load(file);
        byFile.set(file, pending);
      }
      try {
        return [family, await pending] as const;
      } catch (error) {
        throw fixtureExitError(flag, value, error);
      }
    }),
  );
  const out: DevFixtures = {};
  for (const item of loaded) if (item) out[item[0]] = item[1];
  return out;
}

function fixtureExitError(flag: string, value: string, error: unknown): ExitError {
  if (error instanceof MockFixtureError) {
    // Line 0 means the file itself (missing, unreadable): name the flag instead of a line.
    const message =
      error.line === 0
        ? `--${flag} ${value}: ${error.message.replace(/^.*?:0: /, "")}`
        : `--${flag}: ${error.message}`;
    return new ExitError(EXIT_USAGE, message, { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ExitError(EXIT_USAGE, `--${flag} ${value}: ${reason}`, { cause: error });
}
