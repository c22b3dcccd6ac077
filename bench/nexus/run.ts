// `npm run bench:nexus`: Nexus costs next to baselines measured in the same run, printed as
// ratios. One file per piece (tokens.ts, kv.ts, start.ts, store.ts, publish.ts): add it to PIECES.
//   npm run bench:nexus                      all pieces
//   npm run bench:nexus -- --only tokens     some pieces
//   npm run bench:nexus -- --json [file]     also write JSON (default bench/results/nexus.json)
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { kvPiece } from "./kv.js";
import type { MeasureOptions, Row } from "./measure.js";
import { groupRowsReport } from "../report/group-rows.js";
import { publishPiece } from "./publish.js";
import { startPiece } from "./start.js";
import { storePiece } from "./store.js";
import { NEXUS_TARGETS } from "./targets.js";
import { tokensPiece } from "./tokens.js";

const PIECES: Record<string, (o: MeasureOptions) => Promise<Row[]>> = {
  tokens: tokensPiece,
  kv: kvPiece,
  start: startPiece,
  store: storePiece,
  publish: publishPiece,
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
const options: MeasureOptions = {
  rounds: Number(flag("--rounds") || 5),
  roundMs: Number(flag("--round-ms") || 400),
  warmupMs: 300,
};

process.stdout.write(
  `bench:nexus on ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; ${options.rounds} rounds × ${options.roundMs} ms, median round\n`,
);
const rows: (Row & { piece: string })[] = [];
for (const [name, piece] of Object.entries(PIECES)) {
  if (only && !only.includes(name)) continue;
  const got = await piece(options);
  rows.push(...got.map((row) => ({ piece: name, ...row })));
  print(name, got);
}

/** A duration per op in the unit that keeps it readable: 208 µs, 7.42 ms, 9.51 s. */
function perOp(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1e4) return `${(us / 1e3).toFixed(2)} ms`;
  return `${us.toFixed(1)} µs`;
}

function print(piece: string, got: Row[]) {
  process.stdout.write(`\n${piece}\n`);
  const groupWidth = Math.max(...got.map((r) => r.group.length)) + 2;
  const width = Math.max(...got.map((r) => r.name.length)) + 2;
  process.stdout.write(
    `  ${"".padEnd(groupWidth)}${"".padEnd(width)}${"ops/s".padStart(12)}${"per op".padStart(12)}  vs baseline\n`,
  );
  for (const r of got) {
    const base = got.find((b) => b.group === r.group && b.name === r.baseline);
    const extra = base ? r.usPerOp - base.usPerOp : 0;
    const ratio = base
      ? `×${(base.opsPerS / r.opsPerS).toFixed(2)} the cost of ${base.name} (${extra < 0 ? "-" : "+"}${perOp(Math.abs(extra))})`
      : r.baseline === undefined
        ? "(baseline)"
        : "";
    const ops = r.opsPerS >= 10 ? Math.round(r.opsPerS).toLocaleString("en") : r.opsPerS.toFixed(2);
    process.stdout.write(
      `  ${r.group.padEnd(groupWidth)}${r.name.padEnd(width)}${ops.padStart(12)}${perOp(r.usPerOp).padStart(12)}  ${ratio}\n`,
    );
  }
}

const json = flag("--json");
if (json !== undefined) {
  const file = json || fileURLToPath(new URL("../results/nexus.json", import.meta.url));
  mkdirSync(dirname(file), { recursive: true });
  const report = groupRowsReport(rows, NEXUS_TARGETS);
  writeFileSync(
    file,
    JSON.stringify({ options, load: loadavg()[0], rows, suite: "nexus", report }, null, 2) + "\n",
  );
  process.stdout.write(`\nwrote ${file}\n`);
}
