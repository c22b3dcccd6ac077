// The implementations a worker can run: the three under test, the bare-node baseline, and two
// cross pairings that split our cost between host and plugin (not run by default):
//   sdk@floor  — the SDK plugin driven by the floor's host loop (plugin-side cost only);
//   floor@ours — the floor plugin driven by our ExecutaHost (host-side cost only);
//   floor-setsid — the floor with the plugin in its own session, as our host spawns it (H4);
//   ours-unsupervised — ours without the bubblewrap PID namespace (ANNA_EXECUTA_SUPERVISOR=none).
// And ours-sandboxed: ours with the plugin in the server's bwrap sandbox (as Nexus runs Hub
// plugins), run by default for the sandbox's spawn and per-call rows.
export type WorkerImpl =
  | "node"
  | "floor"
  | "mcp"
  | "ours"
  | "sdk@floor"
  | "floor@ours"
  | "floor-setsid"
  | "ours-unsupervised"
  | "ours-sandboxed";

export const WORKER_IMPLS: readonly WorkerImpl[] = [
  "node",
  "floor",
  "mcp",
  "ours",
  "floor-setsid",
  "sdk@floor",
  "floor@ours",
  "ours-unsupervised",
  "ours-sandboxed",
];
export const DEFAULT_IMPLS: readonly WorkerImpl[] = [
  "node",
  "floor",
  "mcp",
  "ours",
  "ours-sandboxed",
];
export const DIAGNOSTIC_IMPLS: readonly WorkerImpl[] = [
  "floor-setsid",
  "sdk@floor",
  "floor@ours",
  "ours-unsupervised",
];

export function isWorkerImpl(value: string): value is WorkerImpl {
  return (WORKER_IMPLS as readonly string[]).includes(value);
}
