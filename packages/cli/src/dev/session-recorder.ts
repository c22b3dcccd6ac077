// The session's recording file (A10), written only once the harness is up: the lines of the
// boot (meta, the boot window's events) wait in memory until `start()`, so a launch that fails
// — a busy port, a refused seed_storage — neither creates the file nor truncates the one
// `--record` names (it may be a committed fixture).
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createJsonlRecorder, type Recorder } from "@anna-ai/app-core";

export interface SessionRecorder extends Recorder {
  /** Creates (or truncates) the file with the lines so far; later lines are appended at once. */
  start(): void;
}

export function createSessionRecorder(
  file: string,
  meta: Record<string, unknown>,
): SessionRecorder {
  let pending: string[] | undefined = [];
  const recorder = createJsonlRecorder({
    meta,
    // Synchronous, like app-core's file recorder, so no line is lost when the process exits.
    write: (line) => {
      if (pending === undefined) appendFileSync(file, line + "\n");
      else pending.push(line);
    },
  });
  return {
    ...recorder,
    start() {
      if (pending === undefined) return;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, pending.map((line) => line + "\n").join(""));
      pending = undefined;
    },
  };
}
