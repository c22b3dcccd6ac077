// The one place tests learn which outside toolchains this machine has: Debian's Chromium (for
// the browser tests), Python 3 and Go (for the example plugins and templates). A test that needs
// one runs under `describe.skipIf(skip)` with `needs(...)`'s reason in its title, so a machine
// without it (`npm ci && npm test` on a laptop) reports what was skipped and why instead of
// failing; CI (.ci/run) installs all three and runs everything.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** `ANNA_CHROMIUM` points the browser tests at another Chromium (or, to prove the skip, at none). */
export const CHROMIUM = process.env["ANNA_CHROMIUM"] ?? "/usr/bin/chromium";
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

function versionOf(command: string, args: readonly string[]): string | undefined {
  const found = spawnSync(command, [...args], { encoding: "utf8" });
  return found.status === 0 ? `${found.stdout}${found.stderr}`.trim() : undefined;
}

/** `Python 3.11.2`, or undefined when `python3` is not on PATH. */
export const PYTHON_VERSION = versionOf("python3", ["--version"]);
/** The real `python3` (`sys.executable`, not a pyenv shim), or undefined without Python 3. */
export const PYTHON_EXECUTABLE =
  PYTHON_VERSION === undefined
    ? undefined
    : versionOf("python3", ["-c", "import sys; print(sys.executable)"]);
/** `go version go1.22 linux/amd64`, or undefined when `go` is not on PATH. */
export const GO_VERSION = versionOf("go", ["version"]);

export type Toolchain = "chromium" | "python3" | "go";

const MISSING: Readonly<Record<Toolchain, () => string | undefined>> = {
  chromium: () =>
    HAVE_CHROMIUM
      ? undefined
      : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set ANNA_CHROMIUM)`,
  python3: () => (PYTHON_VERSION === undefined ? "python3 is not on PATH" : undefined),
  go: () =>
    GO_VERSION === undefined ? "go is not on PATH (apt-get install golang-go)" : undefined,
};

export interface Needs {
  /** True when any of the toolchains is missing. */
  readonly skip: boolean;
  /** `""`, or ` [skipped: …]` to append to the suite's title. */
  readonly reason: string;
}

/** Whether a suite needing `tools` can run here, and why not. */
export function needs(...tools: Toolchain[]): Needs {
  const missing = tools.map((tool) => MISSING[tool]()).filter((m) => m !== undefined);
  return {
    skip: missing.length > 0,
    reason: missing.length === 0 ? "" : ` [skipped: ${missing.join("; ")}]`,
  };
}
