// `npm run bench:skills`: a 1,000-skill index built cold (issue 4 target: ≤ 150 ms), next to the
// named baseline `read-files` — the time to merely read the same 1,000 SKILL.md files with the
// same concurrency — in the same run. Every cold figure is a fresh Node process; modes are
// interleaved over rounds so machine drift hits all alike. Prints medians, min–max and ratios;
// `--json` writes them to bench/results/skills.json (`--out <file>` elsewhere).
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { SkillIndex } from "@anna-ai/skills";
import { jsonOutputPath, writeJsonFile } from "../host/json-file.js";
import { describeAgainst } from "../report/row.js";
import { writeCorpus } from "./corpus.js";

const SKILL_COUNT = 1000;
const { values } = parseArgs({
  options: { rounds: { type: "string" }, json: { type: "boolean" }, out: { type: "string" } },
});
const ROUNDS = Number(values.rounds ?? process.env["BENCH_ROUNDS"] ?? 5);
const jsonPath = jsonOutputPath(
  values,
  fileURLToPath(new URL("../results/skills.json", import.meta.url)),
);
const WARM_RUNS = 10;
const TARGET_COLD_MS = 150;
const BASELINE = "read-files";
const MODES = [BASELINE, "walk+read", "index", "index+prompt"] as const;

const run = promisify(execFile);
const workerPath = fileURLToPath(new URL("./worker.ts", import.meta.url));

interface Sample {
  ms: number;
  cpuMs: number;
  importMs: number;
  count: number;
}

async function coldSample(mode: string, dir: string, list: string): Promise<Sample> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", workerPath, mode, dir, list], {
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", LANG: "C.UTF-8" },
  });
  return JSON.parse(stdout.trim()) as Sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;

const root = await mkdtemp(join(tmpdir(), "anna-bench-skills-"));
try {
  const files = await writeCorpus(root, SKILL_COUNT);
  const list = join(root, "files.json");
  await writeFile(list, JSON.stringify(files));

  const samples = new Map<string, Sample[]>(MODES.map((m) => [m, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) samples.get(mode)?.push(await coldSample(mode, root, list));
  }

  // Warm: the same process rebuilding (what `reload()` costs once the JIT has seen the code).
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    const start = performance.now();
    await SkillIndex.build({ bundledDir: root, os: null });
    warm.push(performance.now() - start);
  }

  const baseline = median((samples.get(BASELINE) ?? []).map((s) => s.ms));
  console.log(
    `skills bench: ${SKILL_COUNT} SKILL.md files, ${ROUNDS} cold rounds, ${cpus().length} CPUs, node ${process.version}`,
  );
  console.log("");
  const baselineCpu = median((samples.get(BASELINE) ?? []).map((s) => s.cpuMs));
  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log("");
  console.log(
    "figure                       wall median   min–max              × read-files   CPU median   × read-files",
  );
  for (const mode of MODES) {
    const ms = (samples.get(mode) ?? []).map((s) => s.ms);
    const cpu = median((samples.get(mode) ?? []).map((s) => s.cpuMs));
    const counts = new Set((samples.get(mode) ?? []).map((s) => s.count));
    const label = `${mode} (cold)`.padEnd(28);
    console.log(
      `${label} ${fmt(median(ms)).padStart(11)}   ${`${fmt(Math.min(...ms))}–${fmt(Math.max(...ms))}`.padEnd(20)} ${`${(median(ms) / baseline).toFixed(2)}×`.padEnd(14)} ${fmt(cpu).padStart(10)}   ${(cpu / baselineCpu).toFixed(2)}×   [${[...counts].join(",")} skills]`,
    );
  }
  console.log(
    `${"index (warm rebuild)".padEnd(28)} ${fmt(median(warm)).padStart(11)}   ${`${fmt(Math.min(...warm))}–${fmt(Math.max(...warm))}`.padEnd(20)} ${(median(warm) / baseline).toFixed(2)}×`,
  );
  const importMs = median((samples.get("index") ?? []).map((s) => s.importMs));
  console.log(
    `${"@anna-ai/skills import".padEnd(28)} ${fmt(importMs).padStart(11)}   (not included above)`,
  );
  const cold = median((samples.get("index") ?? []).map((s) => s.ms));
  console.log("");
  console.log(
    `target: index built cold ≤ ${TARGET_COLD_MS} ms → ${cold <= TARGET_COLD_MS ? "PASS" : "MISS"} (${fmt(cold)})`,
  );
  if (jsonPath !== undefined) {
    const against = { name: BASELINE, value: baseline };
    writeJsonFile(jsonPath, {
      generatedAt: new Date().toISOString(),
      machine: { node: process.version, cpus: cpus().length, loadAtEnd: loadavg() },
      rounds: ROUNDS,
      skills: SKILL_COUNT,
      medianMs: Object.fromEntries(
        MODES.map((mode) => [mode, median((samples.get(mode) ?? []).map((s) => s.ms))]),
      ),
      warmMs: median(warm),
      suite: "skills",
      report: [
        {
          figure: "index_cold_ms",
          label: `${SKILL_COUNT}-skill index built cold`,
          unit: "ms",
          ours: cold,
          baseline: against,
          better: "lower",
          comparison: describeAgainst(cold, against, "ms", "ratio"),
          target: `≤ ${TARGET_COLD_MS} ms`,
          verdict: cold <= TARGET_COLD_MS ? "PASS" : "MISS",
        },
      ],
    });
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
