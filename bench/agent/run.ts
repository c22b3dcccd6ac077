// `npm run bench:agent`: the agent runtime's costs next to baselines measured in the same run,
// printed as ratios (issue 13, "Speed"). One file per piece: add it to PIECES.
//   npm run bench:agent                        all pieces
//   npm run bench:agent -- --only turn,tool    some pieces
//   npm run bench:agent -- --quick             tiny counts: checks it runs, figures mean nothing
//   npm run bench:agent -- --json [file]       also write JSON (default bench/results/agent.json)
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { MeasureOptions } from "../nexus/measure.js";
import type { LatencyRow } from "./latency.js";
import { groupRowsReport } from "../report/group-rows.js";
import { printPiece } from "./print.js";
import { AGENT_TARGETS } from "./targets.js";

export interface AgentBenchOptions extends MeasureOptions {
  samples: number;
  warmupSamples: number;
  concurrentTurns: number;
}

type Piece = (o: AgentBenchOptions) => Promise<LatencyRow[]>;

/** Imported when run: the nexus piece alone loads the whole server. */
const PIECES: Record<string, () => Promise<Piece>> = {
  turn: async () => (await import("./turn.js")).turnPiece,
  tool: async () => (await import("./tool.js")).toolPiece,
  "first-token": async () => (await import("./first-token.js")).firstTokenPiece,
  nexus: async () => (await import("./nexus-turns.js")).nexusTurnsPiece,
};

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1] && !args[i + 1]!.startsWith("--") ? args[i + 1] : "";
};
const only = flag("--only")?.split(",").filter(Boolean);
const unknown = only?.filter((p) => !(p in PIECES));
if (unknown?.length) {
  process.stderr.write(
    `unknown piece(s): ${unknown.join(", ")} (have: ${Object.keys(PIECES).join(", ")})\n`,
  );
  process.exit(2);
}
const quick = args.includes("--quick");
const number = (name: string, fallback: number) => {
  const raw = flag(name);
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    process.stderr.write(`${name} ${raw}: expected a positive number\n`);
    process.exit(2);
  }
  return n;
};
const options: AgentBenchOptions = {
  rounds: number("--rounds", quick ? 1 : 5),
  roundMs: number("--round-ms", quick ? 50 : 1000),
  warmupMs: quick ? 20 : 500,
  samples: number("--samples", quick ? 5 : 400),
  warmupSamples: quick ? 1 : 50,
  concurrentTurns: number("--concurrent-turns", 8),
};

process.stdout.write(
  `bench:agent on ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; ${options.rounds} rounds × ${options.roundMs} ms (median round), ${options.samples} latency samples, ${options.concurrentTurns} concurrent turns${quick ? " (--quick: figures mean nothing)" : ""}\n`,
);
const rows: (LatencyRow & { piece: string })[] = [];
for (const [name, piece] of Object.entries(PIECES)) {
  if (only && !only.includes(name)) continue;
  const got = await (await piece())(options);
  rows.push(...got.map((row) => ({ piece: name, ...row })));
  process.stdout.write(printPiece(name, got));
}

const json = flag("--json");
if (json !== undefined) {
  const file = json || fileURLToPath(new URL("../results/agent.json", import.meta.url));
  mkdirSync(dirname(file), { recursive: true });
  const report = groupRowsReport(rows, AGENT_TARGETS);
  writeFileSync(
    file,
    JSON.stringify({ options, load: loadavg()[0], rows, suite: "agent", report }, null, 2) + "\n",
  );
  process.stdout.write(`\nwrote ${file}\n`);
}
