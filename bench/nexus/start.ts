// Server start → ready (issue 11 "Speed"): spawning `anna-nexus start` until it logs `listening`,
// which it does only once the database is migrated, the signing key is loaded and the blob store
// answered its ping (what `/readyz` checks). Baseline: spawning `node` to its first stderr byte,
// the part of the figure no server change can remove. Each start is one sample; the row is the
// median of `rounds` samples (a start is too slow for fixed-time rounds).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MeasureOptions, Row } from "./measure.js";

const BIN = fileURLToPath(new URL("../../packages/nexus/bin/anna-nexus.js", import.meta.url));
const LISTENING = /"msg":"listening"/;

/** ms from spawn until stderr matches `ready`; the process is then stopped. */
function timeToStderr(args: string[], ready: RegExp): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, DATABASE_URL: "", BLOB_STORE: "", ANNA_DATA_DIR: "" },
  });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (s: string) => {
      err += s;
      if (ready.test(err)) {
        const ms = performance.now() - start;
        child.once("exit", () => resolve(ms));
        child.kill("SIGTERM");
      }
    });
    child.once("exit", (code) => {
      if (!ready.test(err)) reject(new Error(`exited ${code} before ready: ${err}`));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function row(name: string, baseline: string | undefined, samplesMs: number[]): Row {
  const ms = median(samplesMs);
  return { group: "start → ready", name, baseline, opsPerS: 1000 / ms, usPerOp: ms * 1000 };
}

export async function startPiece(o: MeasureOptions): Promise<Row[]> {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), "anna-bench-nexus-start-"));
    dirs.push(d);
    return d;
  };
  try {
    const bare: number[] = [];
    const fresh: number[] = [];
    const again: number[] = [];
    const existing = tmp();
    await timeToStderr([BIN, "start", "--port", "0", "--data", existing], LISTENING);
    for (let r = 0; r < o.rounds; r++) {
      bare.push(await timeToStderr(["-e", "process.stderr.write('up')"], /up/));
      const start = (data: string) =>
        timeToStderr([BIN, "start", "--port", "0", "--data", data], LISTENING);
      fresh.push(await start(tmp()));
      again.push(await start(existing));
    }
    const base = "node -e (bare process)";
    return [
      row(base, undefined, bare),
      row("anna-nexus start, new data folder", base, fresh),
      row("anna-nexus start, existing data", base, again),
    ];
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
