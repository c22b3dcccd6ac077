// `npm run bench:app-dev`: the speed targets of `anna-app dev` (issue 5), each next to a named
// baseline measured in the same run, interleaved over rounds so machine drift hits both alike.
// Prints medians over rounds with min–max, the comparison and PASS/MISS; `--json` writes them.
//   1. start → dashboard ready (the real CLI, executas registered but not spawned) vs a bare
//      `node:http` server started and read the same way: target ≤ 1 s.
//   2. Host API round trip from the app's sandboxed iframe (real SDK → postMessage → dashboard
//      bridge → rpc endpoint → dispatcher and back), timed in the iframe, in Chromium, vs the same
//      trip with a route that only parses the body (`fetch` floor) and a bare postMessage echo:
//      target p50 ≤ 2 ms.
//   3. Live reload: a bundle file saved → the new document's first script runs, vs the `fs.watch`
//      event alone: target ≤ 200 ms.
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatNumber, formatSummary, renderTable } from "../host/format.js";
import type { ReportRow } from "../report/row.js";
import { jsonOutputPath, writeJsonFile } from "../host/json-file.js";
import { percentile, summarize, type Summary } from "../host/stats.js";
import { CLI, REPO, startBareServer, startDev, timeExit } from "./harness.js";
import {
  CHROMIUM,
  openChromiumSession,
  type ChromiumSession,
  type RpcKind,
} from "./in-chromium.js";
import { nodeRoundTrips, type NodeRoute } from "./node-client.js";

const START_TARGET_MS = 1000;
const RPC_P50_TARGET_MS = 2;
const RELOAD_TARGET_MS = 200;
const DEFAULT_JSON_PATH = join(REPO, "bench/results/app-dev.json");

const { values } = parseArgs({
  options: {
    rounds: { type: "string" },
    "rpc-rounds": { type: "string" },
    calls: { type: "string" },
    reloads: { type: "string" },
    diagnose: { type: "boolean" },
    smoke: { type: "boolean" },
    json: { type: "boolean" },
    out: { type: "string" },
  },
});
/** `--smoke`: every path once with tiny counts, to check the harness works (figures mean nothing). */
const smoke = values.smoke === true;
const startRounds = Number(values.rounds ?? (smoke ? 1 : 10));
const rpcRounds = Number(values["rpc-rounds"] ?? (smoke ? 1 : 5));
const calls = Number(values.calls ?? (smoke ? 20 : 1000));
const warmupCalls = Math.max(5, Math.round(calls / 5));
const reloads = Number(values.reloads ?? (smoke ? 1 : 10));
const jsonPath = jsonOutputPath(values, DEFAULT_JSON_PATH);

interface StartSamples {
  bare: number[];
  version: number[];
  devBanner: number[];
  dev: number[];
  devModules: number[];
}

async function measureStart(): Promise<StartSamples> {
  const out: StartSamples = { bare: [], version: [], devBanner: [], dev: [], devModules: [] };
  const steps = [
    async () => {
      const bare = await startBareServer();
      out.bare.push(bare.readyMs);
      await bare.stop();
    },
    async () => out.version.push(await timeExit([CLI, "--version"])),
    async () => {
      const dev = await startDev({ watch: false });
      const spawned = (dev.banner.executas ?? []).filter((e) => e.state !== "idle");
      await dev.stop();
      if (spawned.length > 0) {
        throw new Error(`executas not idle at start: ${JSON.stringify(spawned)}`);
      }
      out.devBanner.push(dev.bannerMs);
      out.dev.push(dev.readyMs);
    },
    async () => {
      const dev = await startDev({ watch: false, loader: "modules" });
      await dev.stop();
      out.devModules.push(dev.readyMs);
    },
  ];
  // Warm the file cache once, unmeasured.
  for (const step of steps) await step();
  for (const samples of Object.values(out)) samples.length = 0;
  for (let round = 0; round < startRounds; round++) {
    // Rotate the order, so none always runs first on a cooler machine.
    for (let i = 0; i < steps.length; i++) await steps[(round + i) % steps.length]!();
  }
  return out;
}

/** Per-round p50 and p99 of one kind of round trip. */
interface TripSamples {
  p50: number[];
  p99: number[];
}

type TripName = RpcKind | `node ${NodeRoute}` | "heartbeat, no panel";

async function measureRoundTrips(
  session: ChromiumSession,
  diagnose: ChromiumSession | undefined,
): Promise<Map<TripName, TripSamples>> {
  const trips: Array<[TripName, () => Promise<number[]>]> = [
    ["echo", () => session.roundTrips("echo", warmupCalls, calls)],
    ["fetch", () => session.roundTrips("fetch", warmupCalls, calls)],
    ["heartbeat", () => session.roundTrips("heartbeat", warmupCalls, calls)],
    ["storage.get", () => session.roundTrips("storage.get", warmupCalls, calls)],
    ["node floor", () => nodeRoundTrips(session.harness.banner, "floor", warmupCalls, calls)],
    ["node rpc", () => nodeRoundTrips(session.harness.banner, "rpc", warmupCalls, calls)],
  ];
  if (diagnose !== undefined) {
    trips.push(["heartbeat, no panel", () => diagnose.roundTrips("heartbeat", warmupCalls, calls)]);
  }
  const out = new Map<TripName, TripSamples>(trips.map(([name]) => [name, { p50: [], p99: [] }]));
  for (let round = 0; round < rpcRounds; round++) {
    for (let i = 0; i < trips.length; i++) {
      const [name, run] = trips[(round + i) % trips.length]!;
      const samples = await run();
      out.get(name)!.p50.push(percentile(samples, 50));
      out.get(name)!.p99.push(percentile(samples, 99));
    }
  }
  return out;
}

interface ReloadSamples {
  reload: number[];
  fsWatch: number[];
  renavigate: number[];
}

async function measureReload(session: ChromiumSession): Promise<ReloadSamples> {
  const out: ReloadSamples = { reload: [], fsWatch: [], renavigate: [] };
  for (let round = 0; round < reloads; round++) {
    const { reloadMs, fsWatchMs } = await session.liveReload();
    out.reload.push(reloadMs);
    out.fsWatch.push(fsWatchMs);
    out.renavigate.push(await session.renavigate());
  }
  return out;
}

interface Figure {
  figure: string;
  label: string;
  baseline: string;
  baselineSummary: Summary | undefined;
  ours: Summary;
  comparison: string;
  target: string;
  verdict: "PASS" | "MISS" | "";
}

function versus(ours: Summary, base: Summary | undefined, name: string): string {
  if (base === undefined || !Number.isFinite(base.median)) return "";
  const diff = ours.median - base.median;
  return `${(ours.median / base.median).toFixed(2)}× ${name} (${diff >= 0 ? "+" : ""}${formatNumber(diff)} ms)`;
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set ANNA_CHROMIUM`);
  }
  const load = loadavg();
  process.stdout.write(
    `anna-app dev benchmark — node ${process.version}, ${cpus().length} CPUs, load ${load.map((l) => l.toFixed(2)).join(" ")}${smoke ? " (smoke: tiny counts, figures mean nothing)" : ""}\n`,
  );

  const start = await measureStart();
  const session = await openChromiumSession();
  const diagnose =
    values.diagnose === true ? await openChromiumSession({ withoutPanel: true }) : undefined;
  let trips: Map<TripName, TripSamples>;
  let reload: ReloadSamples;
  try {
    trips = await measureRoundTrips(session, diagnose);
    reload = await measureReload(session);
  } finally {
    await diagnose?.close();
    await session.close();
  }

  const s = {
    bare: summarize(start.bare),
    version: summarize(start.version),
    devBanner: summarize(start.devBanner),
    dev: summarize(start.dev),
    devModules: summarize(start.devModules),
    reload: summarize(reload.reload),
    fsWatch: summarize(reload.fsWatch),
    renavigate: summarize(reload.renavigate),
  };
  const p50 = (name: TripName) => summarize(trips.get(name)?.p50 ?? []);
  const p99 = (name: TripName) => summarize(trips.get(name)?.p99 ?? []);
  const figures: Figure[] = [
    row({
      figure: "start_ready_ms",
      label: "start → dashboard 200 (ms)",
      baseline: { name: "bare node:http server", short: "bare server", summary: s.bare },
      ours: s.dev,
      targetMs: START_TARGET_MS,
    }),
    row({
      figure: "start_ready_modules_ms",
      label: "  info: same, CLI modules (no bundle)",
      baseline: { name: "with its bundle", short: "bundle", summary: s.dev },
      ours: s.devModules,
    }),
    row({
      figure: "start_banner_ms",
      label: "  info: start → banner line (ms)",
      baseline: {
        name: "anna-app --version (spawn → exit)",
        short: "--version",
        summary: s.version,
      },
      ours: s.devBanner,
    }),
    row({
      figure: "heartbeat_p50_ms",
      label: "iframe window.heartbeat p50 (ms)",
      baseline: { name: "fetch floor", short: "floor", summary: p50("fetch") },
      ours: p50("heartbeat"),
      targetMs: RPC_P50_TARGET_MS,
    }),
    row({
      figure: "heartbeat_p99_ms",
      label: "  info: heartbeat p99 (ms)",
      baseline: { name: "fetch floor p99", short: "floor", summary: p99("fetch") },
      ours: p99("heartbeat"),
    }),
    row({
      figure: "storage_get_p50_ms",
      label: "  info: storage.get p50 (ms)",
      baseline: { name: "fetch floor", short: "floor", summary: p50("fetch") },
      ours: p50("storage.get"),
    }),
    row({ figure: "echo_p50_ms", label: "  info: postMessage echo p50 (ms)", ours: p50("echo") }),
    row({
      figure: "node_rpc_p50_ms",
      label: "  info: from Node, rpc p50 (ms)",
      baseline: { name: "from Node, floor route", short: "floor", summary: p50("node floor") },
      ours: p50("node rpc"),
    }),
    ...(diagnose === undefined
      ? []
      : [
          row({
            figure: "heartbeat_no_panel_p50_ms",
            label: "  diag: heartbeat, panel stream blocked",
            baseline: { name: "heartbeat", short: "with panel", summary: p50("heartbeat") },
            ours: p50("heartbeat, no panel"),
          }),
        ]),
    row({
      figure: "live_reload_ms",
      label: "live reload: save → new script (ms)",
      baseline: { name: "fs.watch event", short: "fs.watch", summary: s.fsWatch },
      ours: s.reload,
      targetMs: RELOAD_TARGET_MS,
    }),
    row({
      figure: "renavigate_ms",
      label: "  info: iframe re-navigation alone (ms)",
      ours: s.renavigate,
    }),
  ];

  const rows = figures.map((f) => [
    f.label,
    f.baseline === "" ? "" : `${f.baseline} ${formatSummary(f.baselineSummary)}`,
    formatSummary(f.ours),
    f.comparison,
    f.target,
    f.verdict,
  ]);
  process.stdout.write(
    "\n" +
      renderTable(["figure", "baseline", "anna-app dev", "comparison", "target", "verdict"], rows) +
      "\n" +
      `\nmedians (min–max) over ${startRounds} start rounds, ${rpcRounds} round-trip rounds of ${calls} calls ` +
      `(p50/p99 per round), ${reloads} reloads; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
  );
  if (jsonPath !== undefined) {
    writeJsonFile(jsonPath, {
      generatedAt: new Date().toISOString(),
      machine: {
        node: process.version,
        cpus: cpus().length,
        loadAtStart: load,
        loadAtEnd: loadavg(),
      },
      rounds: { start: startRounds, rpc: rpcRounds, calls, reloads, smoke },
      figures: figures.map((f) => ({ ...f, baselineSummary: f.baselineSummary ?? null })),
      suite: "app-dev",
      report: figures.filter((f) => f.verdict !== "").map(reportRowOf),
    });
  }
}

/** Live reload's baseline is a ~1 ms fs.watch event: one quick round's ratio to it is noise. */
const UNGATED = new Set(["live_reload_ms"]);

/** The row for `npm run bench`'s one report (bench/report/row.ts). */
function reportRowOf(f: Figure): ReportRow {
  const baseline =
    f.baselineSummary === undefined || f.baseline === ""
      ? undefined
      : { name: f.baseline, value: f.baselineSummary.median };
  return {
    figure: f.figure,
    label: f.label.replace(/ \(ms\)$/, ""),
    unit: "ms",
    ours: f.ours.median,
    ...(baseline === undefined ? {} : { baseline }),
    better: "lower",
    comparison: f.comparison,
    target: f.target,
    verdict: f.verdict === "" ? "info" : f.verdict,
    ...(UNGATED.has(f.figure) ? { gate: false } : {}),
  };
}

interface RowSpec {
  figure: string;
  label: string;
  /** `name` heads the baseline column, `short` names it in the comparison. */
  baseline?: { name: string; short: string; summary: Summary };
  ours: Summary;
  /** The target for our median; an information row has none. */
  targetMs?: number;
}

function row({ figure, label, baseline, ours, targetMs }: RowSpec): Figure {
  return {
    figure,
    label,
    baseline: baseline?.name ?? "",
    baselineSummary: baseline?.summary,
    ours,
    comparison: baseline === undefined ? "" : versus(ours, baseline.summary, baseline.short),
    target: targetMs === undefined ? "" : `≤ ${targetMs} ms`,
    verdict: targetMs === undefined ? "" : ours.median <= targetMs ? "PASS" : "MISS",
  };
}

await main();
