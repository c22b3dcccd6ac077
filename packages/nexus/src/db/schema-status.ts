// Where this database's schema stands against the migrations this build carries: what is
// applied, what is pending, and what was applied by a newer Nexus that this one does not know.
// `start`, `admin` and `migrate` decide from it before touching anything; `/readyz` reports it.
import { type Kysely, sql } from "kysely";
import { MIGRATION_TABLE, MIGRATIONS } from "./migrate.js";

export interface SchemaStatus {
  /** Applied migrations this build knows, in order. */
  applied: string[];
  /** Migrations this build carries that the database has not run. */
  pending: string[];
  /** Migrations the database ran that this build does not carry: a newer Nexus migrated it. */
  unknown: string[];
  /** The newest migration this build carries. */
  latestKnown: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read before the schema is known.
export async function schemaStatus(db: Kysely<any>): Promise<SchemaStatus> {
  const known = Object.keys(MIGRATIONS);
  const ran = new Set(await appliedNames(db));
  return {
    applied: known.filter((n) => ran.has(n)),
    pending: known.filter((n) => !ran.has(n)),
    unknown: [...ran].filter((n) => !(n in MIGRATIONS)).sort(),
    latestKnown: known[known.length - 1] ?? "none",
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see schemaStatus.
async function appliedNames(db: Kysely<any>): Promise<string[]> {
  const select = async () => {
    const { rows } = await sql<{
      name: string;
    }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
    return rows.map((r) => r.name);
  };
  try {
    return await select();
  } catch {
    // A database no Nexus has migrated yet has no migration table: everything is pending.
    // Any other failure (connection, permissions) is the caller's to report.
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    if (!tables.some((t) => t.name === MIGRATION_TABLE)) return [];
    // The table is there now: another migrate run (another node's) created it between the
    // select and the look, as two `anna-nexus migrate` at once do. Ask once more; a failure
    // now is a real one, and its own error says why.
    return select();
  }
}

/** One line for an operator when this build must not run on the schema, or undefined when it may. */
export function newerSchemaProblem(status: SchemaStatus): string | undefined {
  if (status.unknown.length === 0) return undefined;
  return (
    `the database schema is newer than this anna-nexus: it has migration${status.unknown.length > 1 ? "s" : ""} ` +
    `${status.unknown.join(", ")} that this version (newest ${status.latestKnown}) does not know; ` +
    `run the anna-nexus version that migrated it, or a newer one`
  );
}

export function pendingSchemaProblem(status: SchemaStatus, why: string): string | undefined {
  if (status.pending.length === 0) return undefined;
  return (
    `the database has ${status.pending.length} pending migration${status.pending.length > 1 ? "s" : ""} ` +
    `(${status.pending.join(", ")}) and ${why}; run 'anna-nexus migrate' with the same database flags first`
  );
}
