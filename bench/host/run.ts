// `npm run bench:host`: every metric, every implementation, each in a fresh worker process,
// interleaved (node? floor mcp ours, floor mcp ours, …) over several rounds so the machine's
// drift hits all of them alike. Prints medians with min–max over rounds, the ratio to the
// baseline and PASS/MISS against the targets; `--json [file]` also writes the figures.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release } from "node:os";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ReportRow } from "../report/row.js";
import { minimalEnv } from "./child-env.js";
import { formatNumber, formatSummary, renderTable } from "./format.js";
import { METRIC_RUNS, isMetricName, type MetricName } from "./metrics/registry.js";
import { DEFAULT_JSON_PATH } from "./paths.js";
import { runWorker, type WorkerResult } from "./run-worker.js";
import { summarize, type Summary } from "./stats.js";
import { LINE_CAP_MIB, ROWS, type Row } from "./targets.js";
import {
  DEFAULT_IMPLS,
  DIAGNOSTIC_IMPLS,
  WORKER_IMPLS,
  isWorkerImpl,
  type WorkerImpl,
} from "./worker-impl.js";

const DEFAULT_ROUNDS = 3;
const loadAtStart = loadavg();

function formatLoad(load: readonly number[]): string {
  return load.map((value) => value.toFixed(2)).join(" ");
}

interface Options {
  rounds: number;
  metrics: MetricName[];
  impls: WorkerImpl[];
  jsonPath: string | undefined;
}

function parseOptions(argv: string[]): Options {
  // `--json` takes an optional file: a bare `--json` (last, or followed by a flag) means default.
  const jsonIndex = argv.indexOf("--json");
  let jsonPath: string | undefined;
  if (jsonIndex !== -1) {
    const next = argv[jsonIndex + 1];
    const hasFile = next !== undefined && !next.startsWith("--");
    jsonPath = hasFile ? resolve(next) : DEFAULT_JSON_PATH;
    argv.splice(jsonIndex, hasFile ? 2 : 1);
  }
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: "string" },
      only: { type: "string" },
      impls: { type: "string" },
      diagnose: { type: "boolean" },
    },
  });
  const rounds = values.rounds === undefined ? DEFAULT_ROUNDS : Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be ≥ 1`);
  const metrics = (values.only?.split(",") ?? Object.keys(METRIC_RUNS)).map((name) => {
    if (!isMetricName(name))
      throw new Error(`unknown metric ${name}; known: ${Object.keys(METRIC_RUNS).join(", ")}`);
    return name;
  });
  const chosen = values.impls?.split(",") ?? [
    ...DEFAULT_IMPLS,
    ...(values.diagnose === true ? DIAGNOSTIC_IMPLS : []),
  ];
  const impls = chosen.map((name) => {
    if (!isWorkerImpl(name))
      throw new Error(`unknown impl ${name}; known: ${WORKER_IMPLS.join(", ")}`);
    return name;
  });
  return { rounds, metrics, impls, jsonPath };
}

/** Implementations that produce a row: its own list, plus the diagnostics wherever ours runs. */
function rowImpls(row: Row): readonly WorkerImpl[] {
  return row.impls.includes("ours") ? [...row.impls, ...DIAGNOSTIC_IMPLS] : row.impls;
}

/** Run order inside a round for one metric: baseline node first, then A B C (then diagnostics). */
function implsFor(metric: MetricName, selected: readonly WorkerImpl[]): WorkerImpl[] {
  const used = new Set(ROWS.filter((row) => row.metric === metric).flatMap(rowImpls));
  return WORKER_IMPLS.filter((impl) => used.has(impl) && selected.includes(impl));
}

type Results = Map<string, WorkerResult[]>;
const key = (metric: MetricName, impl: WorkerImpl): string => `${metric}/${impl}`;

async function measure(options: Options): Promise<Results> {
  const env = minimalEnv();
  const results: Results = new Map();
  for (let round = 1; round <= options.rounds; round++) {
    for (const metric of options.metrics) {
      const impls = implsFor(metric, options.impls);
      process.stderr.write(`round ${round}/${options.rounds} ${metric}:`);
      for (const impl of impls) {
        const startedMs = Date.now();
        const result = await runWorker(impl, metric, env);
        const list = results.get(key(metric, impl)) ?? [];
        list.push(result);
        results.set(key(metric, impl), list);
        process.stderr.write(
          ` ${impl} ${result.ok ? "" : "FAILED "}${((Date.now() - startedMs) / 1000).toFixed(1)}s`,
        );
        if (!result.ok)
          process.stderr.write(`\n  ${impl} ${metric}: ${result.error.split("\n")[0] ?? ""}\n `);
      }
      process.stderr.write("\n");
    }
  }
  return results;
}

interface RowReport {
  row: Row;
  summaries: Partial<Record<WorkerImpl, Summary>>;
  comparison: string;
  verdict: "PASS" | "MISS" | "n/a" | "";
}

function figureSummary(results: Results, row: Row, impl: WorkerImpl): Summary | undefined {
  const runs = results.get(key(row.metric, impl));
  if (runs === undefined) return undefined;
  const values = runs.filter((run) => run.ok).map((run) => run.figures[row.figure] ?? Number.NaN);
  return values.length === 0 ? undefined : summarize(values);
}

function report(results: Results, options: Options): RowReport[] {
  return ROWS.filter((row) => options.metrics.includes(row.metric)).map((row) => {
    const summaries: Partial<Record<WorkerImpl, Summary>> = {};
    for (const impl of rowImpls(row)) {
      const summary = figureSummary(results, row, impl);
      if (summary !== undefined) summaries[impl] = summary;
    }
    const ours = summaries[row.subject ?? "ours"]?.median ?? Number.NaN;
    const base =
      row.baseline === undefined ? Number.NaN : (summaries[row.baseline]?.median ?? Number.NaN);
    let comparison = "";
    if (row.baseline === undefined)
      comparison = Number.isFinite(ours) ? `cap ${LINE_CAP_MIB} MiB` : "";
    else if (Number.isFinite(ours) && Number.isFinite(base)) {
      comparison =
        row.compare === "ratio"
          ? `${(ours / base).toFixed(2)}× ${row.baseline}`
          : `${ours >= base ? "+" : ""}${formatNumber(ours - base)} ${row.unit} vs ${row.baseline}`;
    }
    const verdict =
      row.pass === undefined
        ? ""
        : !Number.isFinite(ours)
          ? "n/a"
          : row.pass(ours, base)
            ? "PASS"
            : "MISS";
    return { row, summaries, comparison, verdict };
  });
}

function notesOf(results: Results): Record<string, string[]> {
  const notes: Record<string, string[]> = {};
  for (const [name, runs] of results) {
    const lines = runs.map((run) =>
      run.ok
        ? Object.entries(run.notes ?? {})
            .map(([noteKey, value]) => `${noteKey}=${value}`)
            .join(", ")
        : `error: ${run.error.split("\n")[0] ?? ""}`,
    );
    if (lines.some((line) => line !== "")) notes[name] = lines;
  }
  return notes;
}

function print(
  reports: readonly RowReport[],
  notes: Record<string, string[]>,
  options: Options,
): void {
  const columns = WORKER_IMPLS.filter((impl) => options.impls.includes(impl));
  const header = ["metric", "unit", ...columns, "ours vs baseline", "target", ""];
  const rows = reports.map(({ row, summaries, comparison, verdict }) => [
    row.label,
    row.unit,
    ...columns.map((impl) => (rowImpls(row).includes(impl) ? formatSummary(summaries[impl]) : "")),
    comparison,
    row.target,
    verdict,
  ]);
  const cpu = cpus()[0]?.model ?? "unknown cpu";
  process.stdout.write(
    `\nExecuta host benchmark — ${options.rounds} rounds, median (min–max) over fresh processes\n` +
      `node ${process.version}, ${cpus().length} × ${cpu}, Linux ${release()}, ` +
      `load average ${formatLoad(loadAtStart)} at start, ${formatLoad(loadavg())} at end\n\n`,
  );
  process.stdout.write(renderTable(header, rows) + "\n");
  const noteLines = Object.entries(notes).map(
    ([name, list]) => `  ${name}: ${[...new Set(list)].join(" | ")}`,
  );
  if (noteLines.length > 0) process.stdout.write(`\nnotes:\n${noteLines.join("\n")}\n`);
}

function writeJson(
  path: string,
  reports: readonly RowReport[],
  notes: Record<string, string[]>,
  options: Options,
): void {
  const document = {
    generatedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      kernel: release(),
    },
    rounds: options.rounds,
    figures: reports.map(({ row, summaries, comparison, verdict }) => ({
      figure: row.reportId ?? row.figure,
      metric: row.metric,
      label: row.label,
      unit: row.unit,
      baseline: row.baseline ?? null,
      target: row.target,
      comparison,
      verdict,
      impls: summaries,
    })),
    notes,
    suite: "host",
    report: reports.map(reportRowOf),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(document, null, 2) + "\n");
  process.stdout.write(`\nwrote ${path}\n`);
}

/** The row for `npm run bench`'s one report (bench/report/row.ts). */
function reportRowOf({ row, summaries, comparison, verdict }: RowReport): ReportRow {
  const baseline =
    row.baseline === undefined || summaries[row.baseline] === undefined
      ? undefined
      : { name: row.baseline, value: summaries[row.baseline]!.median };
  return {
    figure: row.reportId ?? row.figure,
    label: row.label.trim(),
    unit: row.unit,
    ours: summaries[row.subject ?? "ours"]?.median ?? Number.NaN,
    ...(baseline === undefined ? {} : { baseline }),
    better: row.unit.endsWith("/s") ? "higher" : "lower",
    comparison,
    target: row.pass === undefined ? "" : row.target,
    verdict: verdict === "" ? "info" : verdict,
    // One quick round's p99 is whichever stall the machine had: not a ratio to gate on.
    ...(row.figure.includes("p99") ? { gate: false } : {}),
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const results = await measure(options);
  const reports = report(results, options);
  const notes = notesOf(results);
  print(reports, notes, options);
  if (options.jsonPath !== undefined) writeJson(options.jsonPath, reports, notes, options);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
