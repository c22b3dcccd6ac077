// The table the runner prints: one row per figure, which implementations produce it, what the
// ratio is taken against, and the target from the issue with how to judge it.
import type { MetricName } from "./metrics/registry.js";
import type { WorkerImpl } from "./worker-impl.js";

export interface Row {
  /** Figure name as the worker reports it. */
  figure: string;
  /** The row's id in the one report and the smoke ratios when two rows share a figure. */
  reportId?: string;
  /** Whose figure the target is about (default ours). */
  subject?: WorkerImpl;
  metric: MetricName;
  label: string;
  unit: string;
  impls: readonly WorkerImpl[];
  /** The implementation our figure is compared with (ratio or difference column). */
  baseline: WorkerImpl | undefined;
  /** "ratio" prints ours/baseline; "difference" prints ours − baseline. */
  compare: "ratio" | "difference";
  /** Human-readable target. */
  target: string;
  /** Judges our median given the baseline's median (NaN when absent); omitted for info rows. */
  pass?: (ours: number, baseline: number) => boolean;
}

const PLUGINS = ["floor", "mcp", "ours"] as const;
const SANDBOXED = ["ours", "ours-sandboxed"] as const;
const WITH_NODE = ["node", "floor", "mcp", "ours"] as const;
/** H2: frames up to 16 MiB are accepted; past that memory must stay bounded. */
export const LINE_CAP_MIB = 16;

export const ROWS: readonly Row[] = [
  {
    figure: "spawn_ready_ms",
    metric: "spawn-ready",
    label: "spawn → ready",
    unit: "ms",
    impls: WITH_NODE,
    baseline: "node",
    compare: "difference",
    target: "≤ node + 15 ms",
    pass: (ours, node) => ours <= node + 15,
  },
  {
    figure: "spawn_ready_ms",
    reportId: "sandbox_spawn_ready_ms",
    subject: "ours-sandboxed",
    metric: "spawn-ready",
    label: "spawn → ready, bwrap sandbox",
    unit: "ms",
    impls: SANDBOXED,
    baseline: "ours",
    compare: "difference",
    target: "≤ ours + 10 ms",
    pass: (sandboxed, ours) => sandboxed <= ours + 10,
  },
  {
    figure: "invoke_p50_ms",
    metric: "invoke-latency",
    label: "invoke round trip p50",
    unit: "ms",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "≤ 1.1× floor",
    pass: (ours, floor) => ours <= 1.1 * floor,
  },
  {
    figure: "invoke_p50_ms",
    reportId: "sandbox_invoke_p50_ms",
    subject: "ours-sandboxed",
    metric: "invoke-latency",
    label: "invoke round trip p50, bwrap sandbox",
    unit: "ms",
    impls: SANDBOXED,
    baseline: "ours",
    compare: "ratio",
    // "Nothing measurable per call": within the run-to-run spread of the unsandboxed figure.
    target: "≤ 1.05× ours",
    pass: (sandboxed, ours) => sandboxed <= 1.05 * ours,
  },
  {
    figure: "invoke_p99_ms",
    metric: "invoke-latency",
    label: "invoke round trip p99",
    unit: "ms",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "≤ 1 ms",
    pass: (ours) => ours <= 1,
  },
  {
    figure: "throughput_msg_s",
    metric: "throughput",
    label: "pipelined throughput (64 in flight)",
    unit: "msg/s",
    impls: PLUGINS,
    baseline: "mcp",
    compare: "ratio",
    target: "≥ 3× mcp",
    pass: (ours, mcp) => ours >= 3 * mcp,
  },
  {
    figure: "throughput_msg_s",
    reportId: "throughput_vs_floor",
    metric: "throughput",
    label: "pipelined throughput vs the floor",
    unit: "msg/s",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "≥ 0.95× floor",
    pass: (ours, floor) => ours >= 0.95 * floor,
  },
  {
    figure: "host_cpu_us_per_msg",
    metric: "throughput",
    label: "  host CPU per message",
    unit: "µs",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "(info)",
  },
  {
    figure: "plugin_cpu_us_per_msg",
    metric: "throughput",
    label: "  plugin CPU per message",
    unit: "µs",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "(info)",
  },
  {
    figure: "echo_1mib_ms",
    metric: "large-echo",
    label: "1 MiB echo round trip",
    unit: "ms",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "≤ 1.2× floor",
    pass: (ours, floor) => ours <= 1.2 * floor,
  },
  {
    figure: "reverse_p50_ms",
    metric: "reverse-call",
    label: "reverse call p50 (plugin → host → plugin)",
    unit: "ms",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "≤ 0.2 ms",
    pass: (ours) => ours <= 0.2,
  },
  {
    figure: "reverse_invoke_p50_ms",
    metric: "reverse-call",
    label: "invoke with one reverse call p50",
    unit: "ms",
    impls: PLUGINS,
    baseline: "floor",
    compare: "ratio",
    target: "(info)",
  },
  {
    figure: "idle_rss_mib",
    metric: "idle-rss",
    label: "plugin idle RSS",
    unit: "MiB",
    impls: WITH_NODE,
    baseline: "node",
    compare: "difference",
    target: "≤ node + 8 MiB",
    pass: (ours, node) => ours <= node + 8,
  },
  {
    figure: "host_rss_growth_mib",
    metric: "host-memory",
    label: "host peak RSS growth, 64 MiB line",
    unit: "MiB",
    impls: PLUGINS,
    baseline: undefined,
    compare: "difference",
    target: `≤ ${LINE_CAP_MIB} MiB cap`,
    pass: (ours) => ours <= LINE_CAP_MIB,
  },
];
