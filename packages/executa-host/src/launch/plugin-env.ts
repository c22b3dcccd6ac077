// The environment a plugin process starts with: the user's own (HOME included: plugins keep
// state under $HOME between runs), then the spec's variables, then the caller's extras.
import * as os from "node:os";
import * as path from "node:path";
import { isPathLike, prependPaths } from "./path-env.js";
import type { LaunchSpec } from "./types.js";
import { envKey } from "./which.js";

export interface PluginEnvOptions {
  /** The user's environment; default `process.env`. */
  baseEnv?: NodeJS.ProcessEnv;
  /**
   * Variables from the caller (credentials passed through, H10; test overrides). They replace
   * inherited values, except PATH-like ones, which are put in front of the merged list.
   */
  extra?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
}

/**
 * Adds `ANNA_WORKSPACE_DIR` (R52: `$ANNA_WORKSPACE_DIR` else `~/anna-workspace`) when the user
 * has none. PATH-like variables in `spec.env` are merged over `baseEnv` using
 * `spec.pathPrepend`, so the result is right even when `baseEnv` is not the environment the
 * spec was detected in.
 */
export function buildPluginEnv(
  spec: Pick<LaunchSpec, "env" | "pathPrepend">,
  options: PluginEnvOptions = {},
): Record<string, string> {
  const platform = options.platform ?? process.platform;
  const windows = platform === "win32";
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.baseEnv ?? process.env)) {
    if (value !== undefined) out[name] = value;
  }
  const set = (name: string, value: string): void => {
    out[envKey(out, name, windows)] = value;
  };
  const get = (name: string): string | undefined => out[envKey(out, name, windows)];

  for (const [name, value] of Object.entries(spec.env)) {
    const prefix = spec.pathPrepend?.[name];
    set(name, prefix === undefined ? value : prependPaths(prefix, get(name), platform));
  }
  if (get("ANNA_WORKSPACE_DIR") === undefined) {
    set("ANNA_WORKSPACE_DIR", path.join(get("HOME") ?? os.homedir(), "anna-workspace"));
  }
  for (const [name, value] of Object.entries(options.extra ?? {})) {
    if (value === undefined) continue;
    set(
      name,
      isPathLike(name, platform)
        ? prependPaths(value.split(windows ? ";" : ":"), get(name), platform)
        : value,
    );
  }
  return out;
}
