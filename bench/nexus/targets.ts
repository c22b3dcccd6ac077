// The targets `bench:nexus` rows are judged by in `npm run bench`'s report; rows not named here
// are information. Issue 11: ≥ 5,000 KV writes/s on SQLite with 16 clients; issue 17: REST KV
// get/set within 2× the bare SQLite statement.
import type { GroupTarget } from "../report/group-rows.js";
import type { Row } from "./measure.js";

const withinTwiceBare = (group: string, name: string): GroupTarget<Row> => ({
  group,
  name,
  target: "≤ 2× bare statement",
  pass: (m) => m.ours <= 2 * m.baseline,
});

export const NEXUS_TARGETS: readonly GroupTarget<Row>[] = [
  withinTwiceBare("set", "REST set (SQLite)"),
  withinTwiceBare("get", "REST get (SQLite)"),
  {
    group: "set ×16 clients",
    name: "REST set (SQLite)",
    target: "≥ 5,000 writes/s",
    measure: (row, base) => ({
      ours: row.opsPerS,
      baseline: base.opsPerS,
      unit: "writes/s",
      better: "higher",
      compare: "ratio",
    }),
    pass: (m) => m.ours >= 5000,
  },
];
