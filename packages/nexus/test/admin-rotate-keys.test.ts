// `anna-nexus admin rotate-keys` on SQLite and PostgreSQL: a new signing key each time, the
// previous one superseded (still verifying), keys sealed under the KEK, a wrong KEK refused.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { runAdmin } from "../src/cli/admin.js";
import { EXIT, ExitError } from "../src/cli/exit.js";
import type { CliIo } from "../src/cli/io.js";
import {
  createMigratedDatabase,
  findPostgresBin,
  type PgCluster,
  startPostgres,
} from "./helpers/postgres.js";

const pg = findPostgresBin();
let cluster: PgCluster | undefined;
afterAll(async () => cluster?.stop(), 60_000);

const TARGETS = [
  {
    name: "sqlite",
    skip: false,
    flags: async () => ["--data", mkdtempSync(join(tmpdir(), "anna-nexus-rotate-"))],
  },
  {
    name: "missing" in pg ? `postgres (skipped: ${pg.missing})` : "postgres",
    skip: "missing" in pg,
    flags: async () => {
      if ("missing" in pg) throw new Error(pg.missing);
      cluster ??= await startPostgres(pg);
      return ["--database-url", await createMigratedDatabase(cluster)];
    },
  },
];

async function admin(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const io: CliIo = {
    stdout: (s) => out.push(s),
    stderr: () => {},
    stdin: Readable.from([""]),
    env,
    cwd: tmpdir(),
  };
  try {
    return { code: await runAdmin(args, io), out: out.join("") };
  } catch (err) {
    if (err instanceof ExitError) return { code: err.exitCode, out: err.message };
    throw err;
  }
}

describe.each(TARGETS)("admin rotate-keys on $name", (t) => {
  it.skipIf(t.skip)(
    "adds a signing key each run and supersedes the previous one; another KEK exits 7",
    async () => {
      const db = await t.flags();
      const env = { ANNA_TOKEN_KEK: randomBytes(32).toString("base64") };
      // the first run finds no key: it creates one, then rotates away from it
      const first = await admin(["rotate-keys", "--json", ...db], env);
      expect(first.code).toBe(EXIT.ok);
      const r1 = JSON.parse(first.out) as {
        kid: string;
        superseded: string[];
        verifies_until: string;
      };
      expect(r1.kid).toMatch(/^[\w-]{43}$/);
      expect(r1.superseded).toHaveLength(1);
      expect(Date.parse(r1.verifies_until)).toBeGreaterThan(Date.now() + 600_000);
      const second = await admin(["rotate-keys", ...db], env);
      expect(second.code).toBe(EXIT.ok);
      expect(second.out).toContain(`key ${r1.kid} stops signing; verifies until`);
      expect(second.out).toMatch(/^signing with new key [\w-]{43}\n/);
      expect(second.out).not.toContain(env.ANNA_TOKEN_KEK);
      const wrong = await admin(["rotate-keys", ...db], {
        ANNA_TOKEN_KEK: randomBytes(32).toString("base64"),
      });
      expect(wrong.code).toBe(EXIT.keys);
      expect(wrong.out).toMatch(
        /cannot be decrypted with the key-encryption key from ANNA_TOKEN_KEK/,
      );
      const short = await admin(["rotate-keys", ...db], { ANNA_TOKEN_KEK: "c2hvcnQ=" });
      expect(short.code).toBe(EXIT.keys);
      expect(short.out).toMatch(/must be 32 bytes/);
    },
  );
});
