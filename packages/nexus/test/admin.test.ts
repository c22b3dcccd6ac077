import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { TEST_SCRYPT, verifyPassword } from "../src/auth/password.js";
import { runAdmin } from "../src/cli/admin.js";
import { EXIT, ExitError } from "../src/cli/exit.js";
import type { CliIo } from "../src/cli/io.js";
import { openDatabase } from "../src/db/connect.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { sqlStores } from "../src/stores/sql-stores.js";
import { createMigratedDatabase, findPostgresBin, startPostgres } from "./helpers/postgres.js";
import { afterAll } from "vitest";
import type { PgCluster } from "./helpers/postgres.js";

const pg = findPostgresBin();
let cluster: PgCluster | undefined;
afterAll(async () => cluster?.stop(), 60_000);

const TARGETS = [
  {
    name: "sqlite",
    skip: false,
    flags: async () => ["--data", mkdtempSync(join(tmpdir(), "anna-nexus-admin-"))],
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

function io(stdin = ""): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    stdin: Readable.from([stdin]),
    env: {},
    cwd: tmpdir(),
  };
}

const admin = (args: string[], stdin?: string) => {
  const i = io(stdin);
  return runAdmin(args, i, { passwordParams: TEST_SCRYPT }).then((code) => ({
    code,
    out: i.out.join(""),
  }));
};

async function exitCodeOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 0;
  } catch (err) {
    if (err instanceof ExitError) return err.exitCode;
    throw err;
  }
}

describe.each(TARGETS)("anna-nexus admin on $name", (t) => {
  it.skipIf(t.skip)(
    "creates a developer from stdin, lists, revokes, grants back and resets the password",
    async () => {
      const db = await t.flags();
      const created = await admin(
        [
          "create-user",
          "--email",
          "Dev@Example.com",
          "--password-stdin",
          "--developer",
          "--admin",
          "--handle",
          "dev-one",
          "--json",
          ...db,
        ],
        "first-password\n",
      );
      expect(created.code).toBe(EXIT.ok);
      expect(JSON.parse(created.out)).toMatchObject({
        email: "dev@example.com",
        is_admin: true,
        is_verified_developer: true,
        developer_state: "verified",
        developer_handle: "dev-one",
      });
      expect(created.out).not.toContain("first-password");

      const listed = JSON.parse((await admin(["list-users", "--json", ...db])).out) as {
        email: string;
      }[];
      expect(listed.map((u) => u.email)).toEqual(["dev@example.com"]);

      const revoked = JSON.parse(
        (await admin(["revoke-developer", "--email", "dev@example.com", "--json", ...db])).out,
      );
      expect(revoked).toMatchObject({ developer_state: "revoked", is_verified_developer: false });
      const restored = JSON.parse(
        (await admin(["grant-developer", "--email", "dev@example.com", "--json", ...db])).out,
      );
      expect(restored).toMatchObject({ developer_state: "verified" });

      expect(
        (
          await admin(
            ["reset-password", "--email", "dev@example.com", "--password-stdin", ...db],
            "second-password",
          )
        ).code,
      ).toBe(EXIT.ok);
      const h =
        db[0] === "--data"
          ? openDatabase({ dataDir: db[1]! })
          : openDatabase({ url: db[1]!, dataDir: "" });
      try {
        const creds = await sqlStores(h.db).users.findCredentials("dev@example.com");
        expect(await verifyPassword("second-password", creds!.passwordHash)).toBe(true);
        expect(await verifyPassword("first-password", creds!.passwordHash)).toBe(false);
      } finally {
        await h.close();
      }
    },
  );

  it.skipIf(t.skip)(
    "exits 4 for a taken email, 5 for an unknown user, 2 for missing flags or a short password",
    async () => {
      const db = await t.flags();
      await admin(
        ["create-user", "--email", "a@example.com", "--password-stdin", ...db],
        "password-one",
      );
      expect(
        await exitCodeOf(
          admin(
            ["create-user", "--email", "A@example.com", "--password-stdin", ...db],
            "password-two",
          ),
        ),
      ).toBe(EXIT.conflict);
      expect(
        await exitCodeOf(admin(["grant-developer", "--email", "ghost@example.com", ...db])),
      ).toBe(EXIT.notFound);
      expect(
        await exitCodeOf(admin(["create-user", "--email", "b@example.com", ...db], "password-one")),
      ).toBe(EXIT.usage);
      expect(
        await exitCodeOf(
          admin(["create-user", "--email", "b@example.com", "--password-stdin", ...db], "short"),
        ),
      ).toBe(EXIT.usage);
      expect(
        await exitCodeOf(
          admin(
            [
              "create-user",
              "--email",
              "b@example.com",
              "--password-stdin",
              "--handle",
              "admin",
              ...db,
            ],
            "password-one",
          ),
        ),
      ).toBe(EXIT.usage);
      expect(await exitCodeOf(admin(["frobnicate", ...db]))).toBe(EXIT.usage);
    },
  );
});

describe.each(TARGETS)("anna-nexus admin verify-email on $name", (t) => {
  it.skipIf(t.skip)(
    "marks a signed-up account's email verified, which list-users shows",
    async () => {
      const db = await t.flags();
      const h =
        db[0] === "--data"
          ? openDatabase({ dataDir: db[1]! })
          : openDatabase({ url: db[1]!, dataDir: "" });
      try {
        await migrateToLatest(h.db);
        await sqlStores(h.db).users.create({ email: "new@example.com", passwordHash: "x" }, 0);
      } finally {
        await h.close();
      }
      expect((await admin(["list-users", ...db])).out).toContain("email not verified");
      const verified = await admin(["verify-email", "--email", "NEW@example.com", "--json", ...db]);
      expect(verified.code).toBe(EXIT.ok);
      expect(JSON.parse(verified.out)).toMatchObject({
        email: "new@example.com",
        is_verified: true,
      });
      expect((await admin(["list-users", ...db])).out).not.toContain("email not verified");
      expect(await exitCodeOf(admin(["verify-email", "--email", "ghost@example.com", ...db]))).toBe(
        EXIT.notFound,
      );
    },
  );

  it.skipIf(t.skip)(
    "sets a handle under the API's rules: 2 for a bad one, 4 for a frozen one",
    async () => {
      const db = await t.flags();
      for (const email of ["a@example.com", "b@example.com"])
        await admin(["create-user", "--email", email, "--password-stdin", ...db], "password-one");
      const set = (email: string, handle: string) =>
        admin(["set-handle", "--email", email, "--handle", handle, "--json", ...db]);
      expect(JSON.parse((await set("a@example.com", "Studio")).out)).toMatchObject({
        developer_handle: "studio",
      });
      await set("a@example.com", "studio-acme");
      expect(await exitCodeOf(set("b@example.com", "studio"))).toBe(EXIT.conflict);
      expect(await exitCodeOf(set("b@example.com", "studio-acme"))).toBe(EXIT.conflict);
      expect(await exitCodeOf(set("b@example.com", "-bad-"))).toBe(EXIT.usage);
      expect(await exitCodeOf(set("b@example.com", "admin"))).toBe(EXIT.usage);
      expect(JSON.parse((await set("a@example.com", "studio")).out)).toMatchObject({
        developer_handle: "studio",
      });
    },
  );
});

describe("anna-nexus admin help", () => {
  it("prints help with examples for each command", async () => {
    const { code, out } = await admin(["create-user", "--help"]);
    expect(code).toBe(0);
    expect(out).toContain("--password-stdin");
    expect(out).toContain("Examples:");
  });
});
