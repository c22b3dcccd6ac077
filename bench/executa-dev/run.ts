// `npm run bench:executa-dev`: the speed targets of `anna-app executa dev` (issue 3), each against
// a baseline measured in the same run, interleaved over several rounds so machine drift hits both
// alike. Prints medians with min–max, the comparison and PASS/MISS; `--json` writes them too.
//   1. One-shot `--invoke` wall time vs a bare spawn of the same Node plugin answering the same
//      invoke: overhead target ≤ 150 ms.
//   2. REPL throughput for 1,000 piped invokes vs the host library driven directly with the same
//      router and services: target ≥ 0.8×.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatNumber, formatSummary, renderTable } from "../host/format.js";
import type { ReportRow } from "../report/row.js";
import { jsonOutputPath, writeJsonFile } from "../host/json-file.js";
import { summarize, type Summary } from "../host/stats.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const CLI = join(REPO, "packages/cli/bin/anna-app.js");
const PLUGIN_DIR = join(REPO, "examples/executas/ts-notes");
const PLUGIN_MAIN = join(PLUGIN_DIR, "dist/main.js");
const HOST_WORKER = join(HERE, "host-worker.ts");
const DEFAULT_JSON_PATH = join(REPO, "bench/results/executa-dev.json");

const ONE_SHOT_OVERHEAD_TARGET_MS = 150;
const THROUGHPUT_RATIO_TARGET = 0.8;
const DEFAULT_ONE_SHOT_ROUNDS = 10;
const DEFAULT_THROUGHPUT_ROUNDS = 3;
const DEFAULT_INVOKES = 1000;
/** A child that takes longer than this is a broken run, not a slow one. */
const CHILD_TIMEOUT_MS = 120_000;

const { values } = parseArgs({
  options: {
    rounds: { type: "string" },
    "throughput-rounds": { type: "string" },
    invokes: { type: "string" },
    json: { type: "boolean" },
    out: { type: "string" },
  },
});
const oneShotRounds = Number(values.rounds ?? DEFAULT_ONE_SHOT_ROUNDS);
const throughputRounds = Number(values["throughput-rounds"] ?? DEFAULT_THROUGHPUT_ROUNDS);
const invokes = Number(values.invokes ?? DEFAULT_INVOKES);
/** `--json` writes the figures to bench/results/executa-dev.json (not committed), `--out` elsewhere. */
const jsonPath = jsonOutputPath(values, DEFAULT_JSON_PATH);

/**
 * Child env without colour, so the REPL output is plain and cheap to scan, and with the CLI on
 * the bundle this run just built even if another build touches the modules meanwhile.
 */
const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ANNA_CLI_BUNDLE: "1" };
delete childEnv.FORCE_COLOR;

/** GNU time, when present: CPU time (user + sys) of a child and the children it waited for. */
const TIME_BIN = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const CPU_MARK = "__bench_cpu__";

interface ChildRun {
  wallMs: number;
  /** User + system CPU ms of the process tree, when GNU time is available. */
  cpuMs?: number;
  stdout: string;
  /** Times (ms since spawn) at which stdout lines matching `mark` arrived. */
  marks: number[];
}

function runChild(
  command: string,
  args: readonly string[],
  input: string,
  options: { mark?: string; answerFirst?: boolean } = {},
): Promise<ChildRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const [file, argv] = TIME_BIN
      ? [TIME_BIN, ["-f", `${CPU_MARK} %U %S`, command, ...args]]
      : [command, args];
    const child = spawn(file, argv, { env: childEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    const marks: number[] = [];
    let stdout = "";
    let pending = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} timed out`));
    }, CHILD_TIMEOUT_MS);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const now = performance.now() - started;
      stdout += chunk;
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (options.mark !== undefined && line.startsWith(options.mark)) marks.push(now);
        // The bare plugin answers one invoke; then stdin closes, as a host would.
        if (options.answerFirst && line.includes('"id":1')) child.stdin.end();
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${command} ${args.join(" ")} exited ${code}`));
      else {
        const wallMs = performance.now() - started;
        const cpu = new RegExp(`${CPU_MARK} ([\\d.]+) ([\\d.]+)`).exec(stderr);
        resolvePromise({
          wallMs,
          stdout,
          marks,
          ...(cpu ? { cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 } : {}),
        });
      }
    });
    if (options.answerFirst) child.stdin.write(input);
    else child.stdin.end(input);
  });
}

const INVOKE_LINE =
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "invoke",
    params: { tool: "echo", name: "echo", arguments: { text: "hi" }, context: {} },
  }) + "\n";

async function bareSpawn(): Promise<ChildRun> {
  return runChild(process.execPath, [PLUGIN_MAIN], INVOKE_LINE, { answerFirst: true });
}

async function cliOneShot(): Promise<ChildRun> {
  const r = await runChild(
    process.execPath,
    [
      CLI,
      "executa",
      "dev",
      "--dir",
      PLUGIN_DIR,
      "--invoke",
      "echo",
      "--args",
      '{"text":"hi"}',
      "--json",
    ],
    "",
  );
  if (r.stdout.trim() !== '{"text":"hi","api_key":null}')
    throw new Error(`unexpected: ${r.stdout}`);
  return r;
}

/** Invokes per second between the first and the last answer (startup excluded). */
function rate(count: number, firstMs: number, lastMs: number): number {
  return ((count - 1) / (lastMs - firstMs)) * 1000;
}

async function replThroughput(): Promise<number> {
  const script = Array.from({ length: invokes }, (_, i) => `invoke echo {"text":"n${i}"}`).join(
    "\n",
  );
  const r = await runChild(
    process.execPath,
    [CLI, "executa", "dev", "--dir", PLUGIN_DIR],
    script + "\n",
    {
      mark: "✓ echo",
    },
  );
  if (r.marks.length !== invokes) throw new Error(`REPL answered ${r.marks.length}/${invokes}`);
  return rate(invokes, r.marks[0] as number, r.marks[invokes - 1] as number);
}

async function hostThroughput(mode: "router" | "bare"): Promise<number> {
  const r = await runChild(
    process.execPath,
    ["--import", "tsx", HOST_WORKER, PLUGIN_DIR, String(invokes), mode],
    "",
  );
  const { first, last, count } = JSON.parse(r.stdout.trim()) as {
    first: number;
    last: number;
    count: number;
  };
  return rate(count, first, last);
}

/** Whether the CLI will load its single-file bundle (stale after any later `tsc -b`). */
async function bundleState(): Promise<string> {
  const loader = (await import(join(REPO, "packages/cli/dist/executa-dev/load-runner.js"))) as {
    bundleIsFresh(env?: NodeJS.ProcessEnv): boolean;
  };
  if (!loader.bundleIsFresh(childEnv)) return "modules (no bundle: run npm run build)";
  return loader.bundleIsFresh({}) ? "bundle" : "bundle (older than a build that ran since)";
}

async function main(): Promise<void> {
  const load = loadavg();
  const loaderAtStart = await bundleState();
  process.stdout.write(
    `executa dev benchmark — node ${process.version}, ${cpus().length} CPUs, load ${load.map((l) => l.toFixed(2)).join(" ")}\n`,
  );
  // Warm the OS file cache and the Go/Node module caches once, unmeasured.
  await bareSpawn();
  await cliOneShot();

  const bareRuns: ChildRun[] = [];
  const cliRuns: ChildRun[] = [];
  for (let round = 0; round < oneShotRounds; round++) {
    // Alternate which goes first, so neither always runs on a cooler machine.
    if (round % 2 === 0) {
      bareRuns.push(await bareSpawn());
      cliRuns.push(await cliOneShot());
    } else {
      cliRuns.push(await cliOneShot());
      bareRuns.push(await bareSpawn());
    }
  }

  const repl: number[] = [];
  const host: number[] = [];
  const hostBare: number[] = [];
  for (let round = 0; round < throughputRounds; round++) {
    if (round % 2 === 0) {
      host.push(await hostThroughput("router"));
      repl.push(await replThroughput());
    } else {
      repl.push(await replThroughput());
      host.push(await hostThroughput("router"));
    }
    hostBare.push(await hostThroughput("bare"));
  }

  const bareS = summarize(bareRuns.map((r) => r.wallMs));
  const cliS = summarize(cliRuns.map((r) => r.wallMs));
  // CPU time hardly depends on what else the machine runs, unlike wall time (information only).
  const bareCpuS = summarize(bareRuns.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs])));
  const cliCpuS = summarize(cliRuns.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs])));
  const overhead = cliS.median - bareS.median;
  const replS = summarize(repl);
  const hostS = summarize(host);
  const hostBareS = summarize(hostBare);
  const ratio = replS.median / hostS.median;
  const figures = [
    {
      figure: "one_shot_overhead_ms",
      label: "one-shot --invoke wall time (ms)",
      baseline: summaryJson(bareS),
      ours: summaryJson(cliS),
      comparison: `+${formatNumber(overhead)} ms vs bare spawn`,
      target: `≤ bare + ${ONE_SHOT_OVERHEAD_TARGET_MS} ms`,
      verdict: overhead <= ONE_SHOT_OVERHEAD_TARGET_MS ? ("PASS" as const) : ("MISS" as const),
    },
    {
      figure: "repl_throughput_ratio",
      label: `REPL throughput, ${invokes} piped invokes (invokes/s)`,
      baseline: summaryJson(hostS),
      ours: summaryJson(replS),
      comparison: `${ratio.toFixed(2)}× host library`,
      target: `≥ ${THROUGHPUT_RATIO_TARGET}×`,
      verdict: ratio >= THROUGHPUT_RATIO_TARGET ? ("PASS" as const) : ("MISS" as const),
    },
  ];
  const rows = [
    [
      "one-shot --invoke (ms)",
      `bare spawn ${formatSummary(bareS)}`,
      formatSummary(cliS),
      figures[0]!.comparison,
      figures[0]!.target,
      figures[0]!.verdict,
    ],
    [
      `REPL ${invokes} invokes (/s)`,
      `host library ${formatSummary(hostS)}`,
      formatSummary(replS),
      figures[1]!.comparison,
      figures[1]!.target,
      figures[1]!.verdict,
    ],
    [
      "info: host, no router (/s)",
      formatSummary(hostBareS),
      "",
      `${(replS.median / hostBareS.median).toFixed(2)}× (REPL vs bare host)`,
      "",
      "",
    ],
    ...(Number.isFinite(cliCpuS.median)
      ? [
          [
            "info: one-shot CPU, user+sys (ms)",
            `bare spawn ${formatSummary(bareCpuS)}`,
            formatSummary(cliCpuS),
            `+${formatNumber(cliCpuS.median - bareCpuS.median)} ms CPU`,
            "",
            "",
          ],
        ]
      : []),
  ];
  process.stdout.write(
    "\n" +
      renderTable(["figure", "baseline", "executa dev", "comparison", "target", "verdict"], rows) +
      "\n",
  );
  const loaderAtEnd = await bundleState();
  process.stdout.write(
    `\nmedians (min–max) over ${oneShotRounds} one-shot rounds and ${throughputRounds} throughput rounds; ` +
      `CLI loaded from: ${loaderAtStart}${loaderAtEnd === loaderAtStart ? "" : ` → ${loaderAtEnd} (a build ran meanwhile)`}; ` +
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
  );
  if (jsonPath !== undefined) {
    writeJsonFile(jsonPath, {
      generatedAt: new Date().toISOString(),
      machine: { node: process.version, cpus: cpus().length, loadAtStart: load },
      cliLoader: { atStart: loaderAtStart, atEnd: loaderAtEnd },
      rounds: { oneShot: oneShotRounds, throughput: throughputRounds, invokes },
      figures,
      suite: "executa-dev",
      report: [
        {
          figure: figures[0]!.figure,
          label: "one-shot --invoke wall time",
          unit: "ms",
          ours: cliS.median,
          baseline: { name: "bare spawn", value: bareS.median },
          better: "lower",
          comparison: figures[0]!.comparison,
          target: figures[0]!.target,
          verdict: figures[0]!.verdict,
        },
        {
          figure: figures[1]!.figure,
          label: `REPL throughput, ${invokes} piped invokes`,
          unit: "invokes/s",
          ours: replS.median,
          baseline: { name: "host library", value: hostS.median },
          better: "higher",
          comparison: figures[1]!.comparison,
          target: figures[1]!.target,
          verdict: figures[1]!.verdict,
        },
      ] satisfies ReportRow[],
      info: {
        hostNoRouter: summaryJson(hostBareS),
        oneShotCpuMs: { bare: summaryJson(bareCpuS), cli: summaryJson(cliCpuS) },
      },
    });
  }
}

function summaryJson(s: Summary): { median: number; min: number; max: number; samples: number[] } {
  return { median: s.median, min: s.min, max: s.max, samples: s.samples };
}

await main();
