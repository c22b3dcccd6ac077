// The machine facts detection depends on, injectable so tests can simulate "uv missing",
// "Go 1.19 installed" or macOS.
import { createWhich } from "./which.js";
import type { Which } from "./which.js";
import { probeVersion } from "./tool-version.js";
import type { VersionProbe } from "./tool-version.js";

export interface DetectOptions {
  /** PATH lookup for `uv`, `python3`, `go`, `node`; default searches `env.PATH`. */
  which?: Which;
  /** Installed version of an executable; default runs it with `--version` (`go version`). */
  versionOf?: VersionProbe;
  /** The environment plugins will inherit; PATH-like values in `spec.env` are merged over it. */
  env?: NodeJS.ProcessEnv;
  /** Decides the library-path variable (LD_/DYLD_) and the PATH delimiter; default this host. */
  platform?: NodeJS.Platform;
}

export interface DetectContext {
  which: Which;
  versionOf: VersionProbe;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export function detectContext(options: DetectOptions = {}): DetectContext {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  return {
    which: options.which ?? createWhich({ env, platform }),
    versionOf: options.versionOf ?? probeVersion,
    env,
    platform,
  };
}
