// `anna-nexus` as a real child process (the built bin), on the shared watcher in
// tests/support/child-process.ts: wait for what it logs, stop it with a signal.
import { fileURLToPath } from "node:url";
import { spawnWatched, type WatchedProcess } from "../../../../tests/support/child-process.js";

const BIN = fileURLToPath(new URL("../../bin/anna-nexus.js", import.meta.url));
export const PROCESS_TIMEOUT_MS = 15_000;

export type NexusProcess = WatchedProcess;

export function startNexus(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  stdin?: string,
): NexusProcess {
  return spawnWatched(process.execPath, [BIN, ...args], {
    env: { ...process.env, DATABASE_URL: "", ANNA_DATA_DIR: "", ...env },
    stdin: stdin ?? "",
    timeoutMs: PROCESS_TIMEOUT_MS,
  });
}
