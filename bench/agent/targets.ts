// The bars `bench:agent` rows are judged by in `npm run bench`'s report (bench/README.md,
// "Bars"; the first-token bar is issue 17's ≤ 5 ms); rows not named here are information.
import type { GroupTarget, Measured } from "../report/group-rows.js";
import type { LatencyRow } from "./latency.js";

const cpuMs = (row: LatencyRow, base: LatencyRow): Measured => ({
  ours: (row.cpuUsPerOp ?? Number.NaN) / 1000,
  baseline: (base.cpuUsPerOp ?? Number.NaN) / 1000,
  unit: "ms CPU",
  better: "lower",
  compare: "difference",
});

export const AGENT_TARGETS: readonly GroupTarget<LatencyRow>[] = [
  {
    group: "turn, text answer",
    name: "runTurn",
    target: "≤ +1 ms CPU",
    measure: cpuMs,
    pass: (m) => m.ours - m.baseline <= 1,
  },
  {
    group: /^tool call alone/,
    name: "AgentTool.execute (pool)",
    target: "≤ +0.2 ms CPU",
    measure: cpuMs,
    pass: (m) => m.ours - m.baseline <= 0.2,
  },
  {
    group: "time to first text delta",
    name: "LlmGateway.streamChat",
    target: "≤ +5 ms p50",
    measure: (row, base) => ({
      ours: (row.p50Us ?? row.usPerOp) / 1000,
      baseline: (base.p50Us ?? base.usPerOp) / 1000,
      unit: "ms",
      better: "lower",
      compare: "difference",
    }),
    pass: (m) => m.ours - m.baseline <= 5,
  },
  {
    group: /^turns ×\d+ at once$/,
    name: "Nexus POST turn + SSE",
    target: "≥ 100 turns/s per core",
    // Turns per second of CPU: what one core of server time sustains.
    measure: (row, base) => ({
      ours: 1e6 / (row.cpuUsPerOp ?? Number.NaN),
      baseline: 1e6 / (base.cpuUsPerOp ?? Number.NaN),
      unit: "turns/s/core",
      better: "higher",
      compare: "ratio",
    }),
    pass: (m) => m.ours >= 100,
  },
];
