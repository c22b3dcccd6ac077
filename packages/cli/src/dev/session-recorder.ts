// The session's recording file (A10), written only once the harness is up: the lines of the
// boot (meta, the boot window's events) wait in memory until `start()`, so a launch that fails
// — a busy port, a refused seed_storage — neither creates the file nor truncates the one
// `--record` names (it may be a committed fixture).
// A recording is a by-product: when the file cannot be written (its folder removed, the disk
// full) or reaches its size cap, recording stops — once, told through `onStop` — and every call
// goes on as before. Lines go through app-schema's writer, so the one redaction list applies,
// plus the secret values the harness learns (`addSecrets`: minted window tokens).
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createJsonlRecorder, type Recorder, Redactor } from "@anna-ai/app-schema";

/** Past this a session stops recording: a forgotten harness must not fill the disk. */
export const MAX_SESSION_RECORDING_BYTES = 256 * 1024 * 1024;

export interface SessionRecorderOptions {
  maxBytes?: number;
  /** Told once, when recording stops before the session ends. */
  onStop?: (reason: string) => void;
}

export interface RecordingStatus {
  file: string;
  state: "waiting" | "recording" | "stopped";
  bytes: number;
  /** Why recording stopped. */
  reason?: string;
}

export interface SessionRecorder extends Recorder {
  /** Creates (or truncates) the file with the lines so far; later lines are appended at once. */
  start(): void;
  /** Values to cut out of every later line wherever they appear (a token the harness minted). */
  addSecrets(values: readonly string[]): void;
  status(): RecordingStatus;
}

export function createSessionRecorder(
  file: string,
  meta: Record<string, unknown>,
  options: SessionRecorderOptions = {},
): SessionRecorder {
  const maxBytes = options.maxBytes ?? MAX_SESSION_RECORDING_BYTES;
  const redactor = new Redactor();
  let pending: string[] | undefined = [];
  let bytes = 0;
  let stopped: string | undefined;
  const stop = (reason: string) => {
    if (stopped !== undefined) return;
    stopped = reason;
    pending = undefined;
    options.onStop?.(reason);
  };
  /** Whether `line` still fits under the cap; stops recording when it does not. */
  const fits = (line: string): boolean => {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size <= maxBytes) {
      bytes += size;
      return true;
    }
    stop(`the recording reached its ${formatBytes(maxBytes)} cap; later calls are not recorded`);
    return false;
  };
  const recorder = createJsonlRecorder({
    meta,
    redactor,
    // Synchronous, so no line is lost when the process exits.
    write: (line) => {
      if (stopped !== undefined) return;
      if (pending !== undefined) {
        if (fits(line)) pending.push(line);
        return;
      }
      if (!fits(line)) return;
      try {
        appendFileSync(file, line + "\n");
      } catch (error) {
        stop(`cannot write ${file}: ${describe(error)}`);
      }
    },
  });
  return {
    ...recorder,
    start() {
      if (pending === undefined) return;
      const lines = pending;
      pending = undefined;
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, lines.map((line) => line + "\n").join(""), { mode: 0o600 });
      } catch (error) {
        stop(`cannot write ${file}: ${describe(error)}`);
      }
    },
    addSecrets(values) {
      redactor.add(values);
    },
    status() {
      return {
        file,
        state: stopped !== undefined ? "stopped" : pending !== undefined ? "waiting" : "recording",
        bytes,
        ...(stopped === undefined ? {} : { reason: stopped }),
      };
    },
  };
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT"
      ? "its folder was removed"
      : code === "ENOSPC"
        ? "the disk is full"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return why === undefined ? message : `${why} (${code})`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${bytes} bytes`;
}
