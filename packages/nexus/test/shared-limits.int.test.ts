// Two real `anna-nexus start` processes on one database: a brute-force sign-in spread across
// both is limited as one (the rate-limit counters live in the database), and sign-up mail goes
// where the flags say, with the link's token kept out of every JSON log line.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-shared-"));
  dirs.push(d);
  return d;
};
const pg = findPostgresBin();
let cluster: PgCluster | undefined;
afterAll(async () => {
  await cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

async function listening(args: string[]) {
  const p = startNexus(["start", "--port", "0", ...args]);
  const m = await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/);
  return { p, url: m[1] as string };
}

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function bruteForce(a: string, b: string) {
  expect(
    (await post(a, "/api/v1/auth/signup", { email: "v@example.com", password: "the password" }))
      .status,
  ).toBe(201);
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let i = 0; i < 10; i++) {
    const res = await post(i % 2 ? a : b, "/api/v1/auth/signin", {
      email: "v@example.com",
      password: `guess-number-${i}`,
    });
    statuses.push(res.status);
    retryAfter ??= res.headers.get("retry-after");
  }
  return { statuses, retryAfter };
}

const TARGETS = [
  {
    name: "SQLite with --rate-limit-store database",
    skip: false,
    args: async () => ["--data", tempDir(), "--rate-limit-store", "database"],
  },
  {
    name:
      "missing" in pg ? `PostgreSQL by default (skipped: ${pg.missing})` : "PostgreSQL by default",
    skip: "missing" in pg,
    args: async () => {
      if ("missing" in pg) throw new Error(pg.missing);
      cluster ??= await startPostgres(pg);
      return ["--database-url", await createMigratedDatabase(cluster), "--data", tempDir()];
    },
  },
];

describe.each(TARGETS)("two servers on one database: $name", (t) => {
  it.skipIf(t.skip)(
    "limit a sign-in brute force spread across both after five failures in all",
    async () => {
      const args = await t.args();
      const a = await listening(args);
      const b = await listening(args);
      expect(a.p.stderr()).toContain('"msg":"rate limits ready","store":"database"');
      const { statuses, retryAfter } = await bruteForce(a.url, b.url);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    },
    // Two server starts and six real-cost scrypt hashes: slow on a loaded machine.
    120_000,
  );
});

describe("sign-up mail from a real server", () => {
  it("prints the link on the console by default, never in a JSON log line", async () => {
    const { p, url } = await listening(["--data", tempDir()]);
    expect(p.stderr()).toContain('"store":"memory","mail":"console"');
    await post(url, "/api/v1/auth/signup", { email: "c@example.com", password: "the password" });
    const [, token] = await p.waitFor(/verify-email\?token=(\S+)/);
    // The JSON log is buffered (a flush every 25 ms); the console mail is not.
    await p.waitFor(/"msg":"verification mail sent"/);
    const jsonLines = p
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("{"));
    expect(jsonLines.some((l) => l.includes('"msg":"verification mail sent"'))).toBe(true);
    // The page request carries the token in its query; the request log records the path only.
    expect((await fetch(`${url}/verify-email?token=${token}`)).status).toBe(200);
    expect((await post(url, "/api/v1/auth/verify-email", { token })).status).toBe(200);
    await p.waitFor(/"path":"\/api\/v1\/auth\/verify-email","status":200/);
    for (const l of p
      .stderr()
      .split("\n")
      .filter((x) => x.startsWith("{")))
      expect(l).not.toContain(token!);
  }, 60_000);

  it("writes one JSON file per mail with --mail-outbox", async () => {
    const box = join(tempDir(), "outbox");
    const { p, url } = await listening(["--data", tempDir(), "--mail-outbox", box]);
    expect(p.stderr()).toContain(`"mail":"outbox:${box}"`);
    await post(url, "/api/v1/auth/signup", { email: "o@example.com", password: "the password" });
    const files = readdirSync(box).filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(1);
    const mail = JSON.parse(readFileSync(join(box, files[0]!), "utf8")) as {
      to: string;
      text: string;
    };
    expect(mail.to).toBe("o@example.com");
    expect(mail.text).toMatch(new RegExp(`${url}/verify-email\\?token=`));
    expect(p.stderr()).not.toContain("verify-email?token=");
  }, 60_000);
});
