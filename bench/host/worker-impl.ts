// The implementations a worker can run: the three under test and the bare-node baseline.
export type WorkerImpl = "floor" | "mcp" | "ours" | "node";

export const WORKER_IMPLS: readonly WorkerImpl[] = ["floor", "mcp", "ours", "node"];

export function isWorkerImpl(value: string): value is WorkerImpl {
  return (WORKER_IMPLS as readonly string[]).includes(value);
}
