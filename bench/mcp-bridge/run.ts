// `npm run bench:mcp-bridge`: what the MCP bridges add to one tool call's round trip (issue 16,
// target ≤ 1.2×), each against the same plugin without the bridge, measured in the same run and
// interleaved over rounds so machine drift hits both sides alike.
//   1. `anna-app executa mcp`: an MCP SDK client → the CLI → the SDK echo plugin, against
//      ExecutaHost → the same plugin.
//   2. `type: "mcp"`: ExecutaHost → the bridge → the MCP echo server, against an MCP SDK client
//      → the same server.
// Sequential calls (one in flight), so the figure is latency, not throughput. Each side warms up
// first (`--warmup`, 2 000 calls as bench:host's invoke latency does): the bench process's own
// code (the MCP client, ExecutaHost) stays warm from round to round while the processes it spawns
// (CLI, bridge, plugin, server) start cold every time, so a short warm-up measured how soon V8
// optimised the bridge's second SDK endpoint rather than its round trip (bench/README.md).
//   npm run bench:mcp-bridge -- [--rounds 3] [--calls 300] [--warmup 2000] [--json | --out <file>]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ExecutaHost, detectLaunchSpec } from "@anna-ai/executa-host";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { buildDevRouter } from "../../packages/cli/dist/executa-dev/services.js";
import { processIo } from "../../packages/cli/dist/cli/io.js";
import { formatNumber, formatSummary, renderTable } from "../host/format.js";
import { jsonOutputPath, writeJsonFile } from "../host/json-file.js";
import { summarize, type Summary } from "../host/stats.js";
import { describeAgainst, type ReportRow } from "../report/row.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const CLI = join(REPO, "packages/cli/bin/anna-app.js");
const SDK_PLUGIN = join(REPO, "bench/host/plugins/sdk-plugin.mjs");
const MCP_SERVER = join(REPO, "bench/host/plugins/mcp-server.mjs");
const RATIO_TARGET = 1.2;
const DEFAULT_ROUNDS = 3;
const DEFAULT_CALLS = 300;
const DEFAULT_WARMUP = 2_000;
const DEFAULT_JSON_PATH = join(REPO, "bench/results/mcp-bridge.json");

const { values } = parseArgs({
  options: {
    rounds: { type: "string" },
    calls: { type: "string" },
    warmup: { type: "string" },
    json: { type: "boolean" },
    out: { type: "string" },
  },
});
const rounds = Number(values.rounds ?? DEFAULT_ROUNDS);
const calls = Number(values.calls ?? DEFAULT_CALLS);
const warmup = Number(values.warmup ?? DEFAULT_WARMUP);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer ≥ 1");
if (!Number.isInteger(calls) || calls < 1) throw new Error("--calls must be an integer ≥ 1");
if (!Number.isInteger(warmup) || warmup < 0) throw new Error("--warmup must be an integer ≥ 0");
/** `--json` writes bench/results/mcp-bridge.json (not committed), `--out` elsewhere. */
const jsonPath = jsonOutputPath(values, DEFAULT_JSON_PATH);

/** Median µs of `calls` sequential calls after a warm-up. */
async function timeCalls(call: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < warmup; i++) await call(i);
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    await call(i);
    samples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  return summarize(samples).median;
}

function tempPluginDir(executaJson: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "bench-mcp-bridge-"));
  writeFileSync(join(dir, "executa.json"), JSON.stringify(executaJson));
  return dir;
}

/**
 * ExecutaHost → a plugin folder (a node plugin, or a `type: "mcp"` one), behind the router and
 * offline services `executa dev` and `executa mcp` build (per-invoke tokens included), so the
 * comparison isolates the bridge.
 */
async function viaExecutaHost(executaJson: Record<string, unknown>): Promise<number> {
  const dir = tempPluginDir(executaJson);
  const io = processIo();
  const router = await buildDevRouter({}, { ...io, stderr: process.stderr }, { toolId: "bench" });
  const host = new ExecutaHost({
    router: router.factory,
    timeouts: { initializeMs: 20_000, describeMs: 30_000 },
  });
  try {
    const spec = await detectLaunchSpec(dir);
    host.register(spec, { userId: "bench" });
    await host.describe("bench", spec.toolId);
    return await timeCalls(async (i) => {
      const outcome = await host.invoke("bench", spec.toolId, "echo", { text: `hi ${i}` });
      if (!outcome.ok) throw new Error(`echo failed: ${JSON.stringify(outcome)}`);
    });
  } finally {
    await host.close();
    await router.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An MCP SDK client over stdio → `command`. */
async function viaMcpClient(command: string[]): Promise<number> {
  const [program, ...args] = command;
  const client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: program as string,
      args,
      env: process.env as Record<string, string>,
      stderr: "ignore",
    }),
  );
  try {
    return await timeCalls(async (i) => {
      const result = await client.callTool({ name: "echo", arguments: { text: `hi ${i}` } });
      if (result.isError === true) throw new Error(`echo failed: ${JSON.stringify(result)}`);
    });
  } finally {
    await client.close();
  }
}

const sdkPluginJson = { tool_id: "bench-sdk", type: "node", command: ["node", SDK_PLUGIN] };

interface Pair {
  /** Stable id for the report and the smoke check. */
  figure: string;
  name: string;
  baselineName: string;
  bridge: () => Promise<number>;
  baseline: () => Promise<number>;
}

const PAIRS: Pair[] = [
  {
    figure: "executa_mcp_echo_us",
    name: "executa mcp (MCP client → CLI → plugin)",
    baselineName: "ExecutaHost (executa dev services) → plugin",
    bridge: async () => {
      const dir = tempPluginDir(sdkPluginJson);
      try {
        return await viaMcpClient([process.execPath, CLI, "executa", "mcp", "--dir", dir]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    baseline: () => viaExecutaHost(sdkPluginJson),
  },
  {
    figure: "type_mcp_echo_us",
    name: 'type: "mcp" (ExecutaHost → bridge → server)',
    baselineName: "MCP client → server",
    bridge: () =>
      viaExecutaHost({ tool_id: "bench-mcp", type: "mcp", command: "node", args: [MCP_SERVER] }),
    baseline: () => viaMcpClient([process.execPath, MCP_SERVER]),
  },
];

const results = PAIRS.map(() => ({ bridge: [] as number[], baseline: [] as number[] }));
for (let round = 0; round < rounds; round++) {
  for (const [index, pair] of PAIRS.entries()) {
    const result = results[index];
    if (result === undefined) continue;
    // Alternate which side goes first so warm caches favour neither.
    if (round % 2 === 0) {
      result.baseline.push(await pair.baseline());
      result.bridge.push(await pair.bridge());
    } else {
      result.bridge.push(await pair.bridge());
      result.baseline.push(await pair.baseline());
    }
  }
}

const summaries = PAIRS.map((_, index) => {
  const result = results[index] ?? { bridge: [], baseline: [] };
  return { bridge: summarize(result.bridge), baseline: summarize(result.baseline) };
});
const rows = PAIRS.map((pair, index) => {
  const { bridge, baseline } = summaries[index] as { bridge: Summary; baseline: Summary };
  const ratio = bridge.median / baseline.median;
  return [
    pair.name,
    formatSummary(bridge),
    pair.baselineName,
    formatSummary(baseline),
    `${formatNumber(ratio)}×`,
    ratio <= RATIO_TARGET ? "PASS" : "MISS",
  ];
});
console.log(
  `MCP bridge round trip, µs per echo call (median of ${calls} sequential calls after ${warmup} warm-up; median (min–max) of ${rounds} rounds)`,
);
console.log(
  `${cpus().length} CPUs, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(renderTable(["bridge", "µs", "baseline", "µs", "ratio", `≤ ${RATIO_TARGET}×`], rows));

if (jsonPath !== undefined) {
  const report: ReportRow[] = PAIRS.map((pair, index) => {
    const { bridge, baseline } = summaries[index] as { bridge: Summary; baseline: Summary };
    const against = { name: pair.baselineName, value: baseline.median };
    return {
      figure: pair.figure,
      label: pair.name,
      unit: "µs",
      ours: bridge.median,
      baseline: against,
      better: "lower",
      comparison: describeAgainst(bridge.median, against, "µs", "ratio"),
      target: `≤ ${RATIO_TARGET}× ${pair.baselineName}`,
      verdict: bridge.median / baseline.median <= RATIO_TARGET ? "PASS" : "MISS",
      note: "a bridge is one more process hop than its baseline: see bench/README.md, MCP bridges",
    };
  });
  writeJsonFile(jsonPath, {
    date: new Date().toISOString(),
    rounds,
    calls,
    warmup,
    cpus: cpus().length,
    loadavg: loadavg(),
    pairs: Object.fromEntries(PAIRS.map((pair, index) => [pair.figure, summaries[index]])),
    suite: "mcp-bridge",
    report,
  });
}
