// Piece `nexus`: chat turns through a real Nexus (`anna-nexus start` on SQLite in a temp dir,
// as bench/nexus's kv piece runs it) with the fake provider in a process of its own: N callers
// at once each `POST /api/v1/chat/conversations/{id}/turns` and read the turn's SSE stream
// until the server ends it after `turn.finished`. Baseline: the bare `runTurn` loop in this
// process, N at once, against the same fake. Reported per row: turns/s (median round), turn
// latency p50/p99 (all rounds), and CPU per turn — the Nexus server's own (/proc), this
// process's for the baseline — as turns per second one free core would serve.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuSecondsOf, httpClient, startServer } from "../nexus/kv.js";
import {
  BENCH_KEY,
  BENCH_MODEL,
  benchGateway,
  benchPrompt,
  benchTurn,
  expectCompleted,
} from "./common.js";
import { type LatencyRow, percentile } from "./latency.js";

const FAKE_CHILD = fileURLToPath(new URL("./fake-provider-child.mjs", import.meta.url));
/** The server runs at most 4 turns per user at once (CHAT_MAX_RUNNING_TURNS_PER_USER). */
const TURNS_PER_USER = 4;
/** Latency samples kept per row; past it the run has what it needs for a p99. */
const MAX_SAMPLES = 100_000;

export interface NexusTurnsOptions {
  rounds: number;
  roundMs: number;
  warmupMs: number;
  concurrentTurns: number;
}

interface Round {
  turns: number;
  ms: number;
  cpuS: number;
}

export async function nexusTurnsPiece(o: NexusTurnsOptions): Promise<LatencyRow[]> {
  const data = mkdtempSync(join(tmpdir(), "anna-bench-agent-nexus-"));
  const closers: (() => unknown)[] = [() => rmSync(data, { recursive: true, force: true })];
  try {
    const fake = await startFakeChild();
    closers.unshift(() => fake.child.stdin?.end());
    const server = await startServer(data, {
      ANNA_LLM_PROVIDER: "openai-compatible",
      ANNA_LLM_BASE_URL: fake.baseUrl,
      ANNA_LLM_MODEL: BENCH_MODEL,
      ANNA_LLM_API_KEY: BENCH_KEY,
    });
    closers.unshift(() => server.child.kill("SIGTERM"));
    const http = httpClient(server.url, o.concurrentTurns * 2);
    closers.unshift(http.close);
    const conversations = await setUpCallers(http, o.concurrentTurns);

    const nexusTurn = async (caller: number) => {
      const { cookie, id } = conversations[caller]!;
      const started = await http.send(
        "POST",
        `/api/v1/chat/conversations/${id}/turns`,
        { "content-type": "application/json", cookie },
        JSON.stringify({ text: "What is on my list today?" }),
      );
      if (started.status !== 202) throw new Error(`POST turns ${started.status}: ${started.text}`);
      const { events_url } = JSON.parse(started.text) as { events_url: string };
      const stream = await http.send("GET", events_url, { cookie, accept: "text/event-stream" });
      if (!/event: turn\.finished\ndata: \{[^\n]*"status":"completed"/.test(stream.text)) {
        throw new Error(`the turn's stream did not end completed: ${stream.text.slice(-400)}`);
      }
    };
    const gateway = benchGateway(fake.baseUrl);
    const prompt = benchPrompt();
    let seq = 0;
    const bareTurn = async () => {
      const outcome = await benchTurn(gateway, prompt, `t${++seq}`, false);
      expectCompleted("runTurn", outcome.status, outcome.error);
    };
    const selfCpuS = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
    const serverCpuS = () => {
      const s = cpuSecondsOf(server.child.pid!);
      if (s === undefined)
        throw new Error("the Nexus server's /proc stat is unreadable (Linux only)");
      return s;
    };

    const impls = [
      { name: "runTurn in process", op: bareTurn, cpu: selfCpuS, rounds: [] as Round[] },
      { name: "Nexus POST turn + SSE", op: nexusTurn, cpu: serverCpuS, rounds: [] as Round[] },
    ];
    const latencies = new Map(impls.map((i) => [i.name, [] as number[]]));
    for (const impl of impls) await callersFor(impl.op, o.warmupMs, o.concurrentTurns);
    for (let r = 0; r < o.rounds; r++) {
      for (const impl of impls) {
        const cpuBefore = impl.cpu();
        const got = await callersFor(impl.op, o.roundMs, o.concurrentTurns);
        impl.rounds.push({ turns: got.samplesUs.length, ms: got.ms, cpuS: impl.cpu() - cpuBefore });
        const kept = latencies.get(impl.name)!;
        kept.push(...got.samplesUs.slice(0, Math.max(0, MAX_SAMPLES - kept.length)));
      }
    }
    const group = `turns ×${o.concurrentTurns} at once`;
    return impls.map((impl, i): LatencyRow => {
      const rates = impl.rounds.map((r) => (r.turns / r.ms) * 1000).sort((a, b) => a - b);
      const opsPerS = rates[Math.floor(rates.length / 2)] ?? 0;
      const turns = impl.rounds.reduce((n, r) => n + r.turns, 0);
      const cpuUsPerTurn = (impl.rounds.reduce((s, r) => s + r.cpuS, 0) * 1e6) / turns;
      const sorted = latencies.get(impl.name)!.sort((a, b) => a - b);
      return {
        group,
        name: impl.name,
        baseline: i === 0 ? undefined : impls[0]!.name,
        opsPerS,
        usPerOp: 1e6 / opsPerS,
        p50Us: percentile(sorted, 50),
        p99Us: percentile(sorted, 99),
        cpuUsPerOp: cpuUsPerTurn,
        note: `${Math.round(1e6 / cpuUsPerTurn)} turns/s per core (CPU of ${i === 0 ? "this process" : "the server process"})`,
      };
    });
  } finally {
    for (const close of closers) await close();
  }
}

/** `n` callers running `op` back to back for `ms`; every turn's latency in µs. */
async function callersFor(
  op: (caller: number) => Promise<void>,
  ms: number,
  n: number,
): Promise<{ samplesUs: number[]; ms: number }> {
  const samplesUs: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, caller) => {
      while (performance.now() - start < ms) {
        const t = performance.now();
        await op(caller);
        samplesUs.push((performance.now() - t) * 1000);
      }
    }),
  );
  return { samplesUs, ms: performance.now() - start };
}

/** One conversation per caller, at most four callers per user (the server's per-user cap). */
async function setUpCallers(
  http: ReturnType<typeof httpClient>,
  callers: number,
): Promise<{ cookie: string; id: string }[]> {
  const out: { cookie: string; id: string }[] = [];
  let cookie = "";
  for (let caller = 0; caller < callers; caller++) {
    if (caller % TURNS_PER_USER === 0) {
      const signup = await http.send(
        "POST",
        "/api/v1/auth/signup",
        { "content-type": "application/json" },
        JSON.stringify({
          email: `bench-${caller / TURNS_PER_USER}@example.com`,
          password: "correct horse battery",
        }),
      );
      cookie = /anna_session=[^;]+/.exec(String(signup.headers["set-cookie"] ?? ""))?.[0] ?? "";
      if (signup.status !== 201 || cookie === "") {
        throw new Error(`signup ${signup.status}: ${signup.text}`);
      }
    }
    const conv = await http.send(
      "POST",
      "/api/v1/chat/conversations",
      { "content-type": "application/json", cookie },
      "{}",
    );
    if (conv.status !== 201) throw new Error(`POST conversations ${conv.status}: ${conv.text}`);
    out.push({ cookie, id: (JSON.parse(conv.text) as { id: string }).id });
  }
  return out;
}

function startFakeChild(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [FAKE_CHILD], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (s: string) => {
      out += s;
      const line = /^(http:\/\/\S+)\n/.exec(out);
      if (line) {
        child.stdout!.removeAllListeners("data").resume();
        resolve({ baseUrl: line[1]!, child });
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`the fake provider process exited ${code} before printing its URL: ${out}`)),
    );
  });
}
