// `npm run test:cluster`: three Nexus nodes behind HAProxy on PostgreSQL, NATS and s3rver, a
// bounded load through HAProxy while one node is SIGKILLed and restarted and NATS restarts,
// then the same load against one node directly for comparison. Prints a summary and exits 1
// when a check fails; exits 0 with one line when a binary it needs is missing.
//   CLUSTER_USERS=20 CLUSTER_SECONDS=20 CLUSTER_THINK_MS=20 CLUSTER_NODES=3
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { cpus, loadavg } from "node:os";
import { type Check, checkClients, checkStorage } from "./check.js";
import { runLoad, type UserResult } from "./load.js";
import { teardown, teardownOnSignals, onTeardown } from "./procs.js";
import { findBinaries, startCluster, type Cluster } from "./stack.js";
import { latencyRows, Recorder, table } from "./stats.js";

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write(`${name} must be a whole number above 0 (got '${raw}')\n`);
    process.exit(2);
  }
  return n;
}

const USERS = positive("CLUSTER_USERS", 20);
const SECONDS = positive("CLUSTER_SECONDS", 20);
const THINK_MS = positive("CLUSTER_THINK_MS", 20);
const NODES = positive("CLUSTER_NODES", 3);

const bins = findBinaries();
if ("missing" in bins) {
  process.stdout.write(`test:cluster skipped: ${bins.missing}\n`);
  process.exit(0);
}

teardownOnSignals();
const log = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The faults, at fixed fractions of the run: node n2 SIGKILLed and restarted, then NATS. */
async function faults(c: Cluster, rec: Recorder): Promise<void> {
  const victim = c.nodes[1] ?? c.nodes[0]!;
  await sleep(SECONDS * 300);
  const from = Date.now();
  await victim.kill();
  log(`  fault: ${victim.name} SIGKILLed`);
  await sleep(1_000);
  await victim.start();
  rec.faults.push({
    what: `${victim.name} SIGKILL + restart`,
    from,
    to: Date.now(),
    node: victim.name,
  });
  log(`  fault: ${victim.name} back after ${Date.now() - from} ms`);
  await sleep(Math.max(0, rec.startedAt + SECONDS * 650 - Date.now()));
  const natsFrom = Date.now();
  await c.restartNats();
  // The nodes' NATS clients reconnect on their own; give them their reconnect interval.
  await sleep(2_000);
  rec.faults.push({ what: "NATS restart", from: natsFrom, to: Date.now() });
  log(`  fault: NATS restarted`);
}

function summary(title: string, rec: Recorder): string {
  const head = ["", "requests", "ok/s", "p50 ms", "p99 ms", "failed"];
  const fmt = (rows: ReturnType<typeof latencyRows>) =>
    rows.map((r) => [
      r.label,
      r.requests,
      r.perSecond.toFixed(1),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      r.failed,
    ]);
  const all = latencyRows(rec, () => "all");
  return [
    `\n${title} (${((rec.endedAt - rec.startedAt) / 1000).toFixed(1)} s)`,
    "by node",
    table(head, fmt([...latencyRows(rec, (s) => s.node), ...all])),
    "by operation",
    table(head, fmt(latencyRows(rec, (s) => s.op))),
  ].join("\n");
}

let failed = false;
let started: Cluster | undefined;
/** The nodes whose process ended without the test stopping it. */
const crashedNodes = () => started?.nodes.filter((n) => n.crashed !== undefined) ?? [];
try {
  log(
    `test:cluster: ${NODES} nodes, ${USERS} users for ${SECONDS} s, on ${cpus().length} cores (load ${loadavg()[0]!.toFixed(2)})`,
  );
  const fake = await startFakeProvider({ recordRequests: false });
  onTeardown(() => fake.close());
  const cluster = await startCluster({ bins, nodes: NODES, llmBaseUrl: fake.baseUrl });
  started = cluster;
  log(
    `  HAProxy at ${cluster.lbUrl} over ${cluster.nodes.map((n) => `${n.name} :${n.port}`).join(", ")}`,
  );

  const checks: { phase: string; check: Check }[] = [];
  const phase = async (
    name: string,
    target: { name: string; url: string },
    withFaults: boolean,
  ) => {
    const rec = new Recorder();
    log(`\n${name}: running`);
    const users: UserResult[] = await runLoad({
      target,
      users: USERS,
      seconds: SECONDS,
      thinkMs: THINK_MS,
      appId: cluster.appId,
      appVersion: cluster.appVersion,
      focusSessionToolId: cluster.focusSessionToolId,
      databaseUrl: cluster.databaseUrl,
      run: name.replace(/\W+/g, "-"),
      rec,
      ...(withFaults ? { during: () => faults(cluster, rec) } : {}),
    });
    for (const check of [...(await checkStorage(target, users)), ...checkClients(rec, users)]) {
      checks.push({ phase: name, check });
    }
    const crashed = crashedNodes();
    checks.push({
      phase: name,
      check: {
        name: "no node crashed",
        ok: crashed.length === 0,
        detail:
          crashed.length === 0
            ? `${cluster.nodes.length} nodes up, apart from the kill the test made`
            : crashed
                .map((n) => `${n.name} exited ${n.crashed!.code}:\n${n.crashed!.tail}`)
                .join("\n"),
      },
    });
    log(summary(name, rec));
    for (const w of rec.faults) log(`  fault window: ${w.what}, ${w.to - w.from} ms`);
  };

  await phase(`cluster of ${NODES} via HAProxy`, { name: "lb", url: cluster.lbUrl }, true);
  await phase(
    "one node direct",
    { name: cluster.nodes[0]!.name, url: cluster.nodes[0]!.url },
    false,
  );

  log("\nchecks");
  for (const { phase, check } of checks) {
    log(`  ${check.ok ? "ok    " : "FAILED"}  ${phase}: ${check.name}\n          ${check.detail}`);
  }
  failed = checks.some((c) => !c.check.ok);
  log(
    `\ntest:cluster ${failed ? "FAILED" : "passed"}: ${checks.filter((c) => c.check.ok).length}/${checks.length} checks`,
  );
} catch (err) {
  failed = true;
  process.stderr.write(
    `test:cluster failed to run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  for (const n of crashedNodes()) {
    process.stderr.write(
      `${n.name} had exited (${n.crashed!.code}); its last output:\n${n.crashed!.tail}\n`,
    );
  }
} finally {
  await teardown();
}
process.exit(failed ? 1 : 0);
