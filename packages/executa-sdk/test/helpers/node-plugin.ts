// Starts a Node plugin file as the host does (its own process group, piped stdio) under the raw
// client of @anna-ai/executa-test, so these tests check the wire the SDK writes, not our peer.

import { startPluginCommand, type PluginClient } from "@anna-ai/executa-test";

export function spawnNodePlugin(
  entry: string,
  options: { env?: NodeJS.ProcessEnv; cwd?: string; args?: string[] } = {},
): PluginClient {
  return startPluginCommand({
    command: [process.execPath, entry, ...(options.args ?? [])],
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...options.env },
  });
}
