// Runs one sandboxed command to completion with bounded output and a hard time limit: past the
// limit (or on abort) the whole process group is SIGKILLed, which under bubblewrap takes the
// PID namespace and everything in it.

import { spawn } from "node:child_process";
import type { SandboxedCommand } from "./sandbox.js";

export interface RunLimits {
  timeoutMs: number;
  /** Per stream; what is past it is dropped and counted. */
  maxOutputBytes: number;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Bytes dropped past `maxOutputBytes`, per stream. */
  truncated: { stdout: number; stderr: number };
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    const room = this.max - this.kept;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(room, 0));
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

export function runSandboxed(
  command: SandboxedCommand,
  limits: RunLimits,
  signal?: AbortSignal,
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const [file, ...args] = command.command;
    const child = spawn(file!, args, {
      cwd: command.cwd,
      env: command.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout = new CappedBuffer(limits.maxOutputBytes);
    const stderr = new CappedBuffer(limits.maxOutputBytes);
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    let aborted = false;
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, limits.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted === true) onAbort();
    child.once("error", (error) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      reject(new Error(`cannot start ${file}: ${error.message}`));
    });
    child.once("close", (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // Whatever the shell left behind in its group goes with it.
      killGroup();
      // The shell's own status, as a terminal shows it (a command killed by signal N is 128 + N).
      resolve({
        exitCode: code,
        signal: sig,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: { stdout: stdout.dropped, stderr: stderr.dropped },
        timedOut,
        aborted,
        durationMs: Date.now() - started,
      });
    });
  });
}
