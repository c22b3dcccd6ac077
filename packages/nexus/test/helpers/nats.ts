// A real nats-server for tests (Debian's package): started on a free 127.0.0.1 port with its
// monitoring port, killed when the test ends. `restart()` brings it back on the same port, as
// an operator's restart would. Where the binary is missing, `NATS_MISSING` says why and suites
// skip.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnWatched, type WatchedProcess } from "../../../../tests/support/child-process.js";
import { freePort } from "./postgres.js";

const CANDIDATES = [process.env.ANNA_NATS_SERVER, "/usr/bin/nats-server", "/usr/sbin/nats-server"];
const BIN = CANDIDATES.find((p): p is string => p !== undefined && p !== "" && existsSync(p));

/** Why the NATS suites skip, or undefined when nats-server is there. */
export const NATS_MISSING =
  BIN === undefined
    ? `no nats-server in ${CANDIDATES.filter(Boolean).join(", ")}; install Debian's nats-server or set ANNA_NATS_SERVER`
    : undefined;

const START_TIMEOUT_MS = 10_000;

export interface NatsServer {
  /** `nats://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The monitoring endpoint (`/connz`, `/subsz`). */
  monitorUrl: string;
  /** SIGKILL, as a crash would; resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same ports. */
  restart(): Promise<void>;
  /** GET a monitoring path, parsed. */
  monitor<T>(path: string): Promise<T>;
}

export async function startNats(opts: { maxPayloadBytes?: number } = {}): Promise<NatsServer> {
  if (BIN === undefined) throw new Error(NATS_MISSING);
  const port = await freePort();
  const monitorPort = await freePort();
  const args = ["-a", "127.0.0.1", "-p", String(port), "-m", String(monitorPort)];
  if (opts.maxPayloadBytes !== undefined) {
    const dir = mkdtempSync(join(tmpdir(), "anna-nats-"));
    const conf = join(dir, "nats.conf");
    writeFileSync(conf, `max_payload: ${opts.maxPayloadBytes}\n`);
    args.push("-c", conf);
  }
  let proc: WatchedProcess | undefined;
  const launch = async () => {
    proc = spawnWatched(BIN, args, { env: {}, timeoutMs: START_TIMEOUT_MS });
    await proc.waitFor(/Server is ready/);
  };
  await launch();
  const monitorUrl = `http://127.0.0.1:${monitorPort}`;
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    monitorUrl,
    async kill() {
      const p = proc;
      if (p === undefined) return;
      proc = undefined;
      p.signal("SIGKILL");
      await p.exited();
    },
    restart: launch,
    async monitor<T>(path: string) {
      const res = await fetch(`${monitorUrl}${path}`);
      if (!res.ok) throw new Error(`nats monitor ${path} answered ${res.status}`);
      return (await res.json()) as T;
    },
  };
}
