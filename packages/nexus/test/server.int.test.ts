import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMigratedDatabase,
  findPostgresBin,
  startPostgres,
  type PgCluster,
} from "./helpers/postgres.js";
import { startNexus } from "./helpers/process.js";
import { MIGRATIONS } from "../src/db/migrate.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-proc-"));
  dirs.push(d);
  return d;
};
let cluster: PgCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

async function listening(args: string[], env: NodeJS.ProcessEnv = {}) {
  const p = startNexus(["start", "--port", "0", ...args], env);
  const m = await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/);
  return { p, url: m[1] as string };
}

describe("anna-nexus start (real process)", () => {
  it("serves health on SQLite in the data dir, then on SIGTERM finishes an in-flight request and exits 0", async () => {
    const data = tempDir();
    const { p, url } = await listening(["--data", data]);
    expect(p.stderr()).toContain(`"migrations_applied":${JSON.stringify(Object.keys(MIGRATIONS))}`);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    // A sign-in whose body is still arriving when the signal comes in. `Expect: 100-continue`
    // makes the server confirm it has parsed the headers, i.e. the request is in flight.
    const body = JSON.stringify({ email: "x@example.com", password: "not-the-password" });
    const { port } = new URL(url);
    let accepted!: () => void;
    const headersParsed = new Promise<void>((r) => (accepted = r));
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/v1/auth/signin",
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            expect: "100-continue",
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.on("continue", () => {
        req.write(body.slice(0, 10));
        accepted();
      });
      // send the rest only once the server has begun shutting down
      p.waitFor(/"msg":"shutting down"/).then(() => req.end(body.slice(10)), reject);
    });
    await headersParsed;
    p.signal("SIGTERM");
    expect(await inFlight).toBe(401);
    expect(await p.exited()).toBe(0);
    expect(p.stderr()).toContain('"msg":"stopped"');
    // new connections are refused once it stopped
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    // migrations already applied: a restart applies none
    const again = await listening(["--data", data]);
    expect(again.p.stderr()).toContain('"migrations_applied":[]');
    again.p.signal("SIGINT");
    expect(await again.p.exited()).toBe(0);
  });

  it("says at start what plugins run under, and refuses a sandbox setting it does not know", async () => {
    const data = tempDir();
    const off = await listening(["--data", data], {
      ANNA_SANDBOX: "none",
      ANNA_SANDBOX_ALLOW_UNSANDBOXED: "1",
    });
    expect(off.p.stderr()).toMatch(
      /"level":"warn","msg":"sandbox: OFF \(operator opt-out\): every plugin .* runs unsandboxed/,
    );
    expect(off.p.stderr()).toContain(`"executas_dir":${JSON.stringify(join(data, "executas"))}`);
    off.p.signal("SIGTERM");
    expect(await off.p.exited()).toBe(0);
    const bad = startNexus(["start", "--port", "0", "--data", tempDir()], {
      ANNA_SANDBOX: "docker",
    });
    expect(await bad.exited()).toBe(2);
    expect(bad.stderr()).toMatch(/ANNA_SANDBOX=docker must be one of bwrap, none/);
  });

  it("exits 2 with one line for bad flags and 3 when the database is unreachable", async () => {
    const bad = startNexus(["start", "--port", "http"]);
    expect(await bad.exited()).toBe(2);
    expect(bad.stderr().trim().split("\n")).toHaveLength(1);
    expect(bad.stderr()).toMatch(/--port must be a number/);
    const db = startNexus([
      "start",
      "--port",
      "0",
      "--database-url",
      "postgres://u:hunter2@127.0.0.1:1/none",
    ]);
    expect(await db.exited()).toBe(3);
    expect(db.stderr()).toMatch(/unavailable/);
    expect(db.stderr()).not.toContain("hunter2");
    const scheme = startNexus(["start", "--database-url", "mysql://x"]);
    expect(await scheme.exited()).toBe(3);
  });

  const pg = findPostgresBin();
  it.skipIf("missing" in pg)(
    `runs on PostgreSQL from DATABASE_URL${"missing" in pg ? ` (skipped: ${pg.missing})` : ""}`,
    async () => {
      if ("missing" in pg) return;
      cluster = await startPostgres(pg);
      const dbUrl = await createMigratedDatabase(cluster);
      // The KEK from the environment, so no key file lands in the working directory; the data
      // folder still holds the default blob store, so it must not be the repo root.
      const { p, url } = await listening(["--data", tempDir()], {
        DATABASE_URL: dbUrl,
        ANNA_TOKEN_KEK: randomBytes(32).toString("base64"),
      });
      expect(p.stderr()).toContain('"dialect":"postgres"');
      const signup = await fetch(`${url}/api/v1/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "pg@example.com", password: "correct horse battery" }),
      });
      expect(signup.status).toBe(201);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      p.signal("SIGTERM");
      expect(await p.exited()).toBe(0);
    },
  );
});
