// Starting `anna-app dev` the way a developer does — the real CLI as a child process — and the
// bare-server baseline started and read the same way: spawn, read the first stdout line (the CLI's
// `--json` banner, the baseline's `{"dashboard": …}`), then `GET /` until it answers 200.
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { minimalEnv } from "../host/child-env.js";

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(HERE, "../..");
export const CLI = join(REPO, "packages/cli/bin/anna-app.js");
export const FIXTURE_DIR = join(HERE, "fixture");
export const FIXTURE_MANIFEST = join(FIXTURE_DIR, "manifest.json");

/** A child that takes longer than this to print its first line is broken, not slow. */
const FIRST_LINE_TIMEOUT_MS = 30_000;

/**
 * A bare `node:http` server: what any dashboard costs at the least (a Node start, a listen, one
 * answer). It prints its URL the way `anna-app dev --json` does.
 */
const BARE_SERVER = `require("node:http").createServer((req, res) => {
  res.writeHead(200, { "content-type": "text/html" }); res.end("<!doctype html><p>ok</p>");
}).listen(0, "127.0.0.1", function () {
  process.stdout.write(JSON.stringify({ dashboard: "http://127.0.0.1:" + this.address().port + "/" }) + "\\n");
});`;

/** The fields of the `--json` banner the benchmark reads. */
export interface Banner {
  dashboard: string;
  window?: { window_uuid: string; url: string };
  executas?: Array<{ tool_id: string; state: string }>;
}

export interface Started {
  child: ChildProcess;
  banner: Banner;
  /** Spawn → the first stdout line. */
  bannerMs: number;
  /** Spawn → `GET /` answered 200 with its whole body. */
  readyMs: number;
  stop(): Promise<void>;
}

export interface DevFlags {
  /** Serve this bundle folder instead of the fixture's (the live-reload copy). */
  bundleDir?: string;
  watch: boolean;
  /** `modules`: ANNA_CLI_NO_BUNDLE=1, the CLI's modules one by one instead of its bundle. */
  loader?: "bundle" | "modules";
}

/**
 * The CLI on the bundle this run built (`npm run bench:app-dev` builds first), even if another
 * build on the machine makes it look stale meanwhile; or on its modules, for comparison.
 */
function loaderEnv(loader: DevFlags["loader"]): Record<string, string> {
  return loader === "modules" ? { ANNA_CLI_NO_BUNDLE: "1" } : { ANNA_CLI_BUNDLE: "1" };
}

export function devArgs(flags: DevFlags): string[] {
  return [
    CLI,
    "dev",
    "--manifest",
    FIXTURE_MANIFEST,
    ...(flags.bundleDir === undefined ? [] : ["--bundle", flags.bundleDir]),
    "--port",
    "0",
    ...(flags.watch ? [] : ["--no-watch"]),
    "--no-record",
    "--json",
  ];
}

export function startDev(flags: DevFlags): Promise<Started> {
  return startAndFetch(devArgs(flags), loaderEnv(flags.loader));
}

export function startBareServer(): Promise<Started> {
  return startAndFetch(["-e", BARE_SERVER], {});
}

async function startAndFetch(
  args: readonly string[],
  env: Record<string, string>,
): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...minimalEnv(), NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = () => stopChild(child);
  try {
    const line = await firstLine(child);
    const bannerMs = performance.now() - started;
    const banner = JSON.parse(line) as Banner;
    const res = await fetch(banner.dashboard);
    await res.arrayBuffer();
    const readyMs = performance.now() - started;
    if (res.status !== 200) throw new Error(`GET ${banner.dashboard} answered ${res.status}`);
    return { child, banner, bannerMs, readyMs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(
      () => fail(`no output within ${FIRST_LINE_TIMEOUT_MS} ms`),
      FIRST_LINE_TIMEOUT_MS,
    );
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`${child.spawnargs.slice(1, 3).join(" ")}: ${why}\n${stderr}`));
    };
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const end = stdout.indexOf("\n");
      if (end < 0) return;
      clearTimeout(timer);
      resolvePromise(stdout.slice(0, end));
    });
    child.once("exit", (code, signal) => fail(`exited (${signal ?? code}) before its first line`));
    child.once("error", (error) => fail(error.message));
  });
}

/** SIGTERM (the harness closes its executas and exits 143), then wait for the exit. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}

/** Spawn → exit of `node <args>` (the CLI's own start without a command, for the breakdown). */
export function timeExit(args: readonly string[]): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: minimalEnv(), stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === 0) resolvePromise(performance.now() - started);
      else reject(new Error(`node ${args.join(" ")} exited ${code}`));
    });
  });
}
