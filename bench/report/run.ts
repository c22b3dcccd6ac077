// `npm run bench`: every suite, one after the other, each in its own process writing its JSON;
// then one table of every figure with its same-run baseline, the comparison, the target and the
// verdict, printed and written to bench/results/report.{md,json} (issue 17).
//   npm run bench                              every suite, full counts (tens of minutes)
//   npm run bench -- --only host,nexus         some suites
//   npm run bench -- --smoke                   tiny counts: checks they run; figures mean little
//   npm run bench:smoke                        --smoke, judged against bench/smoke-ratios.json
//   npm run bench -- --smoke --record          fold this run's ratios into bench/smoke-ratios.json
// A suite that fails or cannot run here is named with its reason; its log is in bench/results/.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ReportRow } from "./row.js";
import {
  CONFIRM_RUNS,
  SLACK,
  checkRatios,
  mergeBest,
  mergeWorst,
  ratiosOf,
  type Recorded,
} from "./smoke-check.js";
import { REPO, SUITES, type Suite } from "./suites.js";
import { markdownReport, tally, terminalReport, type SuiteOutcome } from "./table.js";

const RECORDED = join(REPO, "bench/smoke-ratios.json");
const FULL_TIMEOUT_MS = 30 * 60_000;
const SMOKE_TIMEOUT_MS = 5 * 60_000;

const USAGE = `usage: npm run bench -- [--only <suite,…>] [--smoke] [--check [file]] [--record [file]] [--out-dir <dir>]
suites: ${SUITES.map((s) => s.name).join(", ")}
  --smoke           tiny counts (CI): shows every suite runs; ratios are only judged with --check
  --check [file]    fail when a ratio is more than ${SLACK}× worse than recorded (default ${RECORDED})
  --record [file]   write this run's ratios there instead
examples:
  npm run bench                       the whole report, full counts
  npm run bench -- --only agent       one suite
  npm run bench:smoke                 what CI runs`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function options() {
  const argv = process.argv.slice(2);
  // `--check`/`--record` take an optional file: followed by a flag or nothing means the default.
  const optionalFile = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const next = argv[i + 1];
    const file = next !== undefined && !next.startsWith("--") ? next : RECORDED;
    argv.splice(i, file === next ? 2 : 1);
    return resolve(file);
  };
  const check = optionalFile("--check");
  const record = optionalFile("--record");
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        only: { type: "string" },
        smoke: { type: "boolean" },
        "out-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const only = values.only?.split(",").filter(Boolean);
  const unknown = only?.filter((name) => !SUITES.some((s) => s.name === name));
  if (unknown !== undefined && unknown.length > 0)
    fail(`unknown suite(s): ${unknown.join(", ")} (have: ${SUITES.map((s) => s.name).join(", ")})`);
  return {
    suites: SUITES.filter((s) => only === undefined || only.includes(s.name)),
    smoke: values.smoke === true,
    outDir: resolve(values["out-dir"] ?? join(REPO, "bench/results")),
    check,
    record,
  };
}

/** Runs one suite with its output in `<outDir>/<suite>.log`; resolves with how it ended. */
function runSuite(suite: Suite, smoke: boolean, outDir: string): Promise<SuiteOutcome> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const skipped = suite.unavailable?.();
  if (skipped !== undefined)
    return Promise.resolve({
      suite: suite.name,
      status: "skipped",
      reason: skipped,
      seconds: 0,
      rows: [],
    });
  const json = join(outDir, `${suite.name}.json`);
  const logPath = join(outDir, `${suite.name}.log`);
  const log = createWriteStream(logPath);
  const child = spawn(process.execPath, [...suite.command(json), ...(smoke ? suite.smoke : [])], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const timeoutMs = smoke ? SMOKE_TIMEOUT_MS : FULL_TIMEOUT_MS;
  // The suites start servers and plugins of their own: a timeout takes the whole group down.
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
  }, timeoutMs);
  return new Promise((done) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      log.end();
      const failed = (reason: string): SuiteOutcome => ({
        suite: suite.name,
        status: "failed",
        reason: `${reason}; see ${logPath}`,
        seconds: seconds(),
        rows: [],
      });
      if (signal !== null) return done(failed(`killed by ${signal} after ${seconds()} s`));
      if (code !== 0) return done(failed(`exit ${code}`));
      if (!existsSync(json)) return done(failed(`wrote no ${json}`));
      const rows = (JSON.parse(readFileSync(json, "utf8")) as { report?: ReportRow[] }).report;
      if (!Array.isArray(rows)) return done(failed(`${json} has no "report" rows`));
      done({ suite: suite.name, status: "ran", seconds: seconds(), rows });
    });
  });
}

const o = options();
mkdirSync(o.outDir, { recursive: true });
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, node ${process.version}, load ${loadavg()[0]!.toFixed(2)} at start`;
process.stdout.write(`npm run bench${o.smoke ? " --smoke" : ""} on ${machine}\n`);
const outcomes: SuiteOutcome[] = [];
for (const suite of o.suites) {
  process.stdout.write(`▸ ${suite.name} (npm run ${suite.script}) … `);
  const outcome = await runSuite(suite, o.smoke, o.outDir);
  outcomes.push(outcome);
  process.stdout.write(
    outcome.status === "ran"
      ? `${outcome.seconds} s, ${outcome.rows.length} rows\n`
      : `${outcome.status}: ${outcome.reason}\n`,
  );
}

const heading = `${machine}, load ${loadavg()[0]!.toFixed(2)} at end${o.smoke ? " (smoke counts)" : ""}`;
process.stdout.write(`\n${terminalReport(outcomes)}\n`);
writeFileSync(join(o.outDir, "report.md"), markdownReport(outcomes, heading));
writeFileSync(
  join(o.outDir, "report.json"),
  JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      machine: heading,
      smoke: o.smoke,
      outcomes,
      tally: tally(outcomes),
    },
    null,
    2,
  ) + "\n",
);
process.stdout.write(`wrote ${join(o.outDir, "report.md")} and report.json\n`);

let exitCode = outcomes.some((x) => x.status === "failed") ? 1 : 0;
if (o.record !== undefined) {
  const before = existsSync(o.record)
    ? (JSON.parse(readFileSync(o.record, "utf8")) as Recorded)
    : {};
  const merged = mergeWorst(before, ratiosOf(outcomes));
  writeFileSync(o.record, JSON.stringify(merged, null, 2) + "\n");
  process.stdout.write(
    `recorded ${Object.keys(merged).length} ratios in ${o.record} (the worst of this run and the recorded)\n`,
  );
}
if (o.check !== undefined) {
  if (!existsSync(o.check)) fail(`no recorded ratios at ${o.check}: run with --record first`);
  const recorded = JSON.parse(readFileSync(o.check, "utf8")) as Recorded;
  let ratios = ratiosOf(outcomes);
  let lines = checkRatios(ratios, recorded);
  // A ratio found worse is confirmed by running its suite again and keeping its best.
  for (let run = 1; run <= CONFIRM_RUNS && lines.some((l) => !l.ok); run++) {
    const again = new Set(lines.filter((l) => !l.ok).map((l) => l.key.split("/")[0]!));
    for (const suite of o.suites.filter((s) => again.has(s.name))) {
      process.stdout.write(`▸ ${suite.name} again to confirm (${run}/${CONFIRM_RUNS}) … `);
      const outcome = await runSuite(suite, o.smoke, o.outDir);
      process.stdout.write(
        outcome.status === "ran"
          ? `${outcome.seconds} s\n`
          : `${outcome.status}: ${outcome.reason}\n`,
      );
      ratios = mergeBest(ratios, ratiosOf([outcome]));
    }
    lines = checkRatios(ratios, recorded);
  }
  const worse = lines.filter((l) => !l.ok);
  const fresh = lines.filter((l) => l.recorded === undefined);
  for (const l of worse)
    process.stdout.write(
      `REGRESSION ${l.key}: cost ${l.ratio}× its baseline at best of ${CONFIRM_RUNS + 1} runs, recorded ${l.recorded}× (more than ${SLACK}× worse)\n`,
    );
  if (fresh.length > 0)
    process.stdout.write(`not recorded yet (not judged): ${fresh.map((l) => l.key).join(", ")}\n`);
  process.stdout.write(
    `smoke check: ${lines.length - worse.length - fresh.length} ratios within ${SLACK}× of the recorded, ${worse.length} worse\n`,
  );
  if (worse.length > 0) exitCode = 1;
}
process.exitCode = exitCode;
