// `anna-nexus migrate`: the one deliberate step of an upgrade on PostgreSQL (start only checks
// there). Safe to run from several machines at once: Kysely's Migrator takes a lock (an advisory
// lock on PostgreSQL) and runs the pending migrations in one transaction, so a second run waits
// and then finds nothing to do.
import { migrateToLatest } from "../db/migrate.js";
import { newerSchemaProblem, schemaStatus } from "../db/schema-status.js";
import { type Flags, flagHelp, parseFlags } from "./args.js";
import { connectFromFlags, DATABASE_FLAGS } from "./database-flags.js";
import { EXIT, ExitError } from "./exit.js";
import type { CliIo } from "./io.js";

const FLAGS: Flags = {
  ...DATABASE_FLAGS,
  "dry-run": {
    type: "boolean",
    description: "list the pending migrations and change nothing",
  },
  json: { type: "boolean", description: "print the result as JSON on stdout" },
};

export const MIGRATE_HELP = `Usage: anna-nexus migrate [options]

Applies the database migrations this version carries and the database has not run yet, once.
Run it once per upgrade, before starting the new version's nodes: on PostgreSQL (or with
--no-migrate) 'anna-nexus start' only checks that the schema is current. Several runs at once are
safe (the second waits for the first, then applies nothing). It refuses a database that a newer
anna-nexus migrated.

Options:
${flagHelp(FLAGS)}

Exit codes: 0 ok · 2 usage · 3 database unavailable or a migration failed · 8 schema newer than
this version

Examples:
  anna-nexus migrate --database-url postgres://anna@db/anna --dry-run
  DATABASE_URL=postgres://anna@db/anna anna-nexus migrate --json`;

export async function runMigrate(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseFlags("migrate", FLAGS, argv);
  if (flags.help) {
    io.stdout(MIGRATE_HELP + "\n");
    return EXIT.ok;
  }
  const dryRun = flags["dry-run"] === true;
  const { handle, where } = await connectFromFlags(flags, io);
  try {
    const before = await schemaStatus(handle.db);
    const newer = newerSchemaProblem(before);
    if (newer) throw new ExitError(EXIT.schema, newer);
    let applied: string[] = [];
    if (!dryRun) {
      applied = await migrateToLatest(handle.db).catch((err: unknown) => {
        throw new ExitError(EXIT.database, `database ${where}: ${(err as Error).message}`, {
          cause: err,
        });
      });
    }
    // Another run may have applied some of what was pending meanwhile: ask again.
    const after = dryRun ? before : await schemaStatus(handle.db);
    const result = {
      database: { dialect: handle.dialect, location: handle.location },
      dry_run: dryRun,
      applied,
      pending: after.pending,
      current: after.applied[after.applied.length - 1] ?? null,
    };
    if (flags.json === true) io.stdout(JSON.stringify(result) + "\n");
    else io.stdout(describe(result, before.pending) + "\n");
    return EXIT.ok;
  } finally {
    await handle.close();
  }
}

function describe(
  r: {
    database: { location: string };
    dry_run: boolean;
    applied: string[];
    current: string | null;
  },
  pendingBefore: string[],
): string {
  const at = `database ${r.database.location}`;
  if (r.dry_run) {
    return pendingBefore.length === 0
      ? `${at} is current (${r.current ?? "empty"}); nothing to migrate`
      : `${at}: ${pendingBefore.length} pending migration${pendingBefore.length > 1 ? "s" : ""} (dry run, nothing applied):\n` +
          pendingBefore.map((n) => `  ${n}`).join("\n");
  }
  return r.applied.length === 0
    ? `${at} is current (${r.current ?? "empty"}); nothing to migrate`
    : `${at}: applied ${r.applied.length} migration${r.applied.length > 1 ? "s" : ""}, now at ${r.current}:\n` +
        r.applied.map((n) => `  ${n}`).join("\n");
}
