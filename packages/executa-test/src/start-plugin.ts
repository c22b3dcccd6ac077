// Starting a plugin exactly as the host does: the launch detection of `anna-app executa dev`
// (executa.json → pyproject.toml → package.json → bin/<name>, R165) and the host's spawn (its
// own process group, piped stdio), so a plugin that passes here starts under the host too.

import {
  buildPluginEnv,
  detectLaunchSpec,
  spawnPluginProcess,
  type DetectLaunchOptions,
  type LaunchSpec,
  type SupervisorMode,
} from "@anna-ai/executa-host";
import { PluginClient } from "./plugin-client.js";

export interface StartCommandOptions {
  /** argv; `command[0]` is resolved through PATH. */
  command: readonly string[];
  cwd: string;
  /** The complete environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** `context.plugin_name` of the default invoke context. */
  pluginName?: string;
  /** Default for every wait; raise it for `go run` (it compiles before it answers). */
  timeoutMs?: number;
  /** The host's supervisor (default: the host's, `ANNA_EXECUTA_SUPERVISOR` or `auto`). */
  supervisor?: SupervisorMode;
}

export interface StartDirOptions {
  /** The plugin's folder, detected like `anna-app executa dev --dir`. */
  dir: string;
  /** Detection options (`pluginFile` for a folder with several plugins, …). */
  detect?: DetectLaunchOptions;
  /** Variables on top of the detected environment (credentials, test overrides). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The environment the plugin inherits (default: this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Default for every wait; raise it for `go run` (it compiles before it answers). */
  timeoutMs?: number;
  /** The host's supervisor (default: the host's, `ANNA_EXECUTA_SUPERVISOR` or `auto`). */
  supervisor?: SupervisorMode;
}

export interface StartedPlugin {
  client: PluginClient;
  /** The detected launch, with its warnings (e.g. "uv not found; starting with python3"). */
  spec: LaunchSpec;
}

/** Start a command as the host starts a plugin. Call `client.dispose()` in `finally`. */
export function startPluginCommand(options: StartCommandOptions): PluginClient {
  const child = spawnPluginProcess({
    command: options.command,
    cwd: options.cwd,
    env: options.env ?? process.env,
    ...(options.supervisor !== undefined ? { supervisor: options.supervisor } : {}),
  });
  return new PluginClient(child, {
    ...(options.pluginName !== undefined ? { pluginName: options.pluginName } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(child.pid !== undefined ? { processGroup: child.pid } : {}),
  });
}

/**
 * Detect how the plugin in `dir` starts and start it. Throws the host's `LaunchError` (naming the
 * folder and what is missing) when there is nothing to start.
 */
export async function startPlugin(options: StartDirOptions): Promise<StartedPlugin> {
  const spec = await detectLaunchSpec(options.dir, options.detect);
  const env = buildPluginEnv(spec, {
    ...(options.baseEnv !== undefined ? { baseEnv: options.baseEnv } : {}),
    ...(options.env !== undefined ? { extra: options.env } : {}),
  });
  const client = startPluginCommand({
    command: spec.command,
    cwd: spec.cwd,
    env,
    pluginName: spec.toolId,
    ...(options.supervisor !== undefined ? { supervisor: options.supervisor } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { client, spec };
}
