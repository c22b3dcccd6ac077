// Spawns one worker process with the minimal environment and collects its single JSON line.
import { spawn } from "node:child_process";
import type { ChildEnv } from "./child-env.js";
import type { MetricName } from "./metrics/registry.js";
import type { MetricOutput } from "./metrics/metric.js";
import { WORKER_PATH } from "./paths.js";
import type { WorkerImpl } from "./worker-impl.js";

/** A stuck worker (a plugin that never answers) must not stall the whole run. */
const WORKER_TIMEOUT_MS = 90_000;

export type WorkerResult = ({ ok: true } & MetricOutput) | { ok: false; error: string };

export function runWorker(
  impl: WorkerImpl,
  metric: MetricName,
  env: ChildEnv,
): Promise<WorkerResult> {
  const args = ["--expose-gc", WORKER_PATH, "--impl", impl, "--metric", metric];
  if (WORKER_PATH.endsWith(".ts")) args.unshift("--import", "tsx");
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), WORKER_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const lines = Buffer.concat(chunks).toString("utf8").trim().split("\n");
      const last = lines[lines.length - 1] ?? "";
      try {
        const parsed = JSON.parse(last) as MetricOutput & { error?: string };
        if (parsed.error !== undefined) resolve({ ok: false, error: parsed.error });
        else
          resolve({
            ok: true,
            figures: parsed.figures,
            ...(parsed.notes ? { notes: parsed.notes } : {}),
          });
      } catch {
        resolve({ ok: false, error: `worker exited (${signal ?? code}) without a result` });
      }
    });
  });
}
