// Finding `uv`, `python3`, `go` and `node` on PATH. Injectable so tests can simulate a machine
// without uv (the common case for real Python plugins, real-world-plugins.md "Launching").
import { accessSync, constants, statSync } from "node:fs";
import * as path from "node:path";

/** Absolute path of an executable found on PATH, or undefined. */
export type Which = (command: string) => string | undefined;

export interface WhichOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** A PATH lookup over `env` (default `process.env`), like the shell does it. */
export function createWhich(options: WhichOptions = {}): Which {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const windows = platform === "win32";
  const delimiter = windows ? ";" : ":";
  const pathValue = envValue(env, "PATH", windows) ?? "";
  const dirs = pathValue.split(delimiter).filter((d) => d !== "");
  const extensions = windows
    ? ["", ...(envValue(env, "PATHEXT", true) ?? ".EXE;.CMD;.BAT;.COM").split(";")]
    : [""];
  return (command) => {
    if (command.includes("/") || (windows && command.includes("\\"))) {
      return isExecutableFile(command, windows) ? path.resolve(command) : undefined;
    }
    for (const dir of dirs) {
      for (const ext of extensions) {
        const candidate = path.join(dir, command + ext);
        if (isExecutableFile(candidate, windows)) return candidate;
      }
    }
    return undefined;
  };
}

export function isExecutableFile(file: string, windows = process.platform === "win32"): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    // Windows has no execute bit; existence with a PATHEXT extension is what counts there.
    if (!windows) accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Windows env names are case-insensitive (`Path`); elsewhere they are exact. */
export function envKey(env: NodeJS.ProcessEnv, name: string, windows: boolean): string {
  if (!windows) return name;
  const upper = name.toUpperCase();
  return Object.keys(env).find((k) => k.toUpperCase() === upper) ?? name;
}

function envValue(env: NodeJS.ProcessEnv, name: string, windows: boolean): string | undefined {
  return env[envKey(env, name, windows)];
}
