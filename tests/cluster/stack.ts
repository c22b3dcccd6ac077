// The cluster under test, all on 127.0.0.1 free ports: one PostgreSQL (the test helper's
// throwaway cluster), one nats-server, one s3rver bucket, N `anna-nexus start` processes (the
// package's bin, the way an operator runs it) sharing all three and one token KEK, and HAProxy
// in front of them (round robin, no stickiness, /readyz health checks). Everything registers
// with procs.ts, so teardown() stops it.
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import S3rver from "s3rver";
import {
  findPostgresBin,
  freePort,
  startPostgres,
} from "../../packages/nexus/test/helpers/postgres.js";
import { openDatabase, sqlStores } from "@anna-ai/nexus";
import { examplesPublisherToken } from "../../packages/nexus/src/cli/platform-accounts.js";
import { publishExampleApps } from "../../packages/cli/src/publish/example-apps.js";
import { haproxyConfig } from "./haproxy-config.js";
import { onTeardown, type Proc, spawnProc, stopProc } from "./procs.js";

const NEXUS_BIN = fileURLToPath(new URL("../../packages/nexus/bin/anna-nexus.js", import.meta.url));
export const FOCUS_FLOW = fileURLToPath(new URL("../../examples/apps/focus-flow", import.meta.url));
const NATS_CANDIDATES = [
  process.env.ANNA_NATS_SERVER,
  "/usr/bin/nats-server",
  "/usr/sbin/nats-server",
];
const HAPROXY_CANDIDATES = [process.env.ANNA_HAPROXY, "/usr/sbin/haproxy", "/usr/bin/haproxy"];
const START_MS = 30_000;
/** s3rver's fixed development credentials. */
const S3_KEY = "S3RVER";

const firstExisting = (c: (string | undefined)[]) =>
  c.find((p): p is string => p !== undefined && p !== "" && existsSync(p));

/** Why the test cannot run here (one line), or the binaries it runs. */
export function findBinaries():
  { missing: string } | { pgDir: string; nats: string; haproxy: string } {
  const pg = findPostgresBin();
  if ("missing" in pg) return { missing: pg.missing };
  const nats = firstExisting(NATS_CANDIDATES);
  if (!nats) {
    return {
      missing: `no nats-server in ${NATS_CANDIDATES.filter(Boolean).join(", ")}; install Debian's nats-server or set ANNA_NATS_SERVER`,
    };
  }
  const haproxy = firstExisting(HAPROXY_CANDIDATES);
  if (!haproxy) {
    return {
      missing: `no haproxy in ${HAPROXY_CANDIDATES.filter(Boolean).join(", ")}; install Debian's haproxy or set ANNA_HAPROXY`,
    };
  }
  return { pgDir: pg.dir, nats, haproxy };
}

export interface NexusNode {
  name: string;
  port: number;
  url: string;
  /** The running process, undefined while it is down. */
  proc: Proc | undefined;
  /** Set when the node's process ended without the test stopping it: its exit and last output. */
  crashed: { code: number | null; tail: string } | undefined;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port; resolves once /readyz answers 200. */
  start(): Promise<void>;
}

export interface Cluster {
  /** The HAProxy frontend. */
  lbUrl: string;
  nodes: NexusNode[];
  databaseUrl: string;
  /** focus-flow's id in the app catalogue, the version published, and its plugin's tool id. */
  appId: string;
  appVersion: string;
  focusSessionToolId: string;
  restartNats(): Promise<void>;
  /** The generated haproxy.cfg, for the log and the docs. */
  haproxyCfg: string;
  /** Runs an `anna-nexus` command to its end; its stdout. */
  cli(args: string[]): Promise<string>;
}

export async function startCluster(opts: {
  bins: { pgDir: string; nats: string; haproxy: string };
  nodes: number;
  llmBaseUrl: string;
}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), "anna-cluster-"));
  onTeardown(() => rmSync(dir, { recursive: true, force: true }));

  const pg = await startPostgres({ dir: opts.bins.pgDir });
  onTeardown(() => pg.stop());
  const databaseUrl = await pg.createDatabase();

  const natsPort = await freePort();
  let nats: Proc | undefined;
  const startNats = async () => {
    nats = spawnProc("nats", opts.bins.nats, ["-a", "127.0.0.1", "-p", String(natsPort)], {});
    await nats.waitFor(/Server is ready/, START_MS);
  };
  await startNats();

  const s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: join(dir, "s3"),
    configureBuckets: [{ name: "anna" }],
  });
  const s3Addr = await s3.run();
  onTeardown(() => s3.close());

  const lbPort = await freePort();
  const lbUrl = `http://127.0.0.1:${lbPort}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: databaseUrl,
    BLOB_STORE: `s3://anna?endpoint=http://127.0.0.1:${s3Addr.port}&region=us-east-1`,
    AWS_ACCESS_KEY_ID: S3_KEY,
    AWS_SECRET_ACCESS_KEY: S3_KEY,
    EVENT_BUS: `nats://127.0.0.1:${natsPort}`,
    // Every node must unseal the signing keys the first one stored in the database.
    ANNA_TOKEN_KEK: randomBytes(32).toString("base64"),
    ANNA_LLM_PROVIDER: "openai-compatible",
    ANNA_LLM_BASE_URL: opts.llmBaseUrl,
    ANNA_LLM_MODEL: "cluster-model",
    ANNA_LLM_API_KEY: "sk-cluster-0123456789",
    // The focus-session plugin runs unsandboxed: bubblewrap is not what this test measures.
    ANNA_SANDBOX: "none",
    ANNA_SANDBOX_ALLOW_UNSANDBOXED: "1",
    ANNA_LOG_FORMAT: "json",
  };
  const cli = async (args: string[]) => {
    const p = spawnProc(`anna-nexus ${args[0]}`, process.execPath, [NEXUS_BIN, ...args], env);
    const code = await p.exited;
    if (code !== 0) throw new Error(`anna-nexus ${args.join(" ")} exited ${code}:\n${p.output()}`);
    return p.output();
  };
  await cli(["migrate"]);

  const nodes: NexusNode[] = [];
  for (let i = 1; i <= opts.nodes; i++) {
    const port = await freePort();
    const data = join(dir, `n${i}`);
    const node: NexusNode = {
      name: `n${i}`,
      port,
      url: `http://127.0.0.1:${port}`,
      proc: undefined,
      crashed: undefined,
      async kill() {
        const p = node.proc;
        node.proc = undefined;
        if (p) await stopProc(p, "SIGKILL");
      },
      async start() {
        const args = ["start", "--host", "127.0.0.1", "--port", String(port), "--data", data];
        args.push("--public-origin", lbUrl, "--trust-proxy");
        const p = spawnProc(node.name, process.execPath, [NEXUS_BIN, ...args], env);
        node.proc = p;
        // kill() forgets the process first, so only an exit nobody asked for counts.
        void p.exited.then((code) => {
          if (node.proc === p) node.crashed = { code, tail: p.output().slice(-4_000) };
        });
        await p.waitFor(/"msg":"listening"/, START_MS);
        await waitReady(node.url, START_MS);
      },
    };
    nodes.push(node);
  }
  // One at a time: the first start creates the signing keys the others then read.
  for (const n of nodes) await n.start();
  const focusFlow = await publishFocusFlow(databaseUrl, nodes[0]!.url, dir);

  const haproxyCfg = haproxyConfig({
    bind: `127.0.0.1:${lbPort}`,
    servers: nodes.map((n) => ({ name: n.name, address: `127.0.0.1:${n.port}` })),
  });
  const cfgFile = join(dir, "haproxy.cfg");
  writeFileSync(cfgFile, haproxyCfg);
  const lb = spawnProc("haproxy", opts.bins.haproxy, ["-db", "-f", cfgFile], {});
  await waitReady(lbUrl, START_MS, lb);

  return {
    lbUrl,
    nodes,
    databaseUrl,
    ...focusFlow,
    haproxyCfg,
    cli,
    async restartNats() {
      if (nats) await stopProc(nats, "SIGTERM");
      await startNats();
    },
  };
}

/** Polls /readyz until it answers 200 (through HAProxy: until a server is up in its eyes). */
async function waitReady(url: string, ms: number, proc?: Proc): Promise<void> {
  const until = Date.now() + ms;
  let last = "";
  while (Date.now() < until) {
    if (proc && proc.child.exitCode !== null) {
      throw new Error(`${proc.name} exited ${proc.child.exitCode}:\n${proc.output()}`);
    }
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url}/readyz did not answer 200 within ${ms} ms (last: ${last})`);
}

/**
 * Publishes focus-flow with its plugin's binary through the CLI's real publish path (as `npm
 * start` does), so the users' windows run the focus-session plugin: its running session lives in
 * the process's memory, which is what shows whether one process serves a user across nodes.
 */
async function publishFocusFlow(
  databaseUrl: string,
  nodeUrl: string,
  dir: string,
): Promise<{ appId: string; appVersion: string; focusSessionToolId: string }> {
  const appsDir = join(dir, "apps");
  mkdirSync(appsDir);
  cpSync(FOCUS_FLOW, join(appsDir, "focus-flow"), { recursive: true });
  const db = openDatabase({ url: databaseUrl, dataDir: "" });
  try {
    const token = await examplesPublisherToken(sqlStores(db.db), Date.now());
    try {
      await publishExampleApps({ host: nodeUrl, pat: token.pat, appsDir });
    } finally {
      await token.revoke(Date.now());
    }
    const app = await db.db
      .selectFrom("apps")
      .innerJoin("app_versions", "app_versions.id", "apps.latest_version_id")
      .select(["apps.id", "app_versions.version", "app_versions.manifest"])
      .where("apps.slug", "=", "focus-flow")
      .executeTakeFirstOrThrow();
    // Stored with its `bundled:` handle resolved to the minted tool id.
    const manifest = JSON.parse(app.manifest) as { required_executas?: { tool_id: string }[] };
    const toolId = manifest.required_executas?.[0]?.tool_id;
    if (toolId === undefined) throw new Error("focus-flow was published without its plugin");
    return { appId: String(app.id), appVersion: app.version, focusSessionToolId: toolId };
  } finally {
    await db.close();
  }
}
