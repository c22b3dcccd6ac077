import { resolve } from "node:path";
import {
  type DatabaseHandle,
  DatabaseConfigError,
  type DialectName,
  openDatabase,
  safeUrl,
} from "../db/connect.js";
import { migrateToLatest } from "../db/migrate.js";
import {
  newerSchemaProblem,
  pendingSchemaProblem,
  type SchemaStatus,
  schemaStatus,
} from "../db/schema-status.js";
import type { Flags, FlagValues } from "./args.js";
import { EXIT, ExitError } from "./exit.js";
import type { CliIo } from "./io.js";

export const DEFAULT_DATA_DIR = ".anna-data";

export const DATABASE_FLAGS: Flags = {
  data: {
    type: "string",
    value: "<dir>",
    description: `data folder (env ANNA_DATA_DIR; default ./${DEFAULT_DATA_DIR})`,
  },
  "database-url": {
    type: "string",
    value: "<url>",
    description:
      "postgres://… for PostgreSQL (env DATABASE_URL; default: SQLite in the data folder)",
  },
};

export const NO_MIGRATE_FLAG: Flags = {
  "no-migrate": {
    type: "boolean",
    description:
      "never migrate here, only check the schema is current (always so on PostgreSQL: run anna-nexus migrate)",
  },
};

/**
 * What a command does about pending migrations: `migrate` applies them (the embedded SQLite
 * default, so a first run needs no extra step); `check` refuses to run until `anna-nexus
 * migrate` has (PostgreSQL, where several nodes share one database and an upgrade must be one
 * deliberate step, not a side effect of whichever node starts first).
 */
export type SchemaPolicy = "migrate" | "check";

export function schemaPolicy(dialect: DialectName, flags: FlagValues): SchemaPolicy {
  return dialect === "sqlite" && flags["no-migrate"] !== true ? "migrate" : "check";
}

export interface OpenedDatabase {
  handle: DatabaseHandle;
  /** Migrations applied by this call (always empty under `check`). */
  applied: string[];
  /** The schema as this command left it. */
  schema: SchemaStatus;
  dataDir: string;
}

/** The data folder and database URL the flags and environment name. */
export function databaseTarget(
  flags: FlagValues,
  io: CliIo,
): { dataDir: string; url: string | undefined } {
  const dataDir = resolve(
    io.cwd,
    (flags.data as string | undefined) ?? io.env.ANNA_DATA_DIR ?? DEFAULT_DATA_DIR,
  );
  const url = (flags["database-url"] as string | undefined) ?? (io.env.DATABASE_URL || undefined);
  return { dataDir, url };
}

/** Opens the database the flags and environment name, without touching its schema. */
export async function connectFromFlags(
  flags: FlagValues,
  io: CliIo,
): Promise<{ handle: DatabaseHandle; dataDir: string; where: string }> {
  const { dataDir, url } = databaseTarget(flags, io);
  let handle: DatabaseHandle;
  try {
    handle = openDatabase({ url, dataDir });
  } catch (err) {
    const what =
      err instanceof DatabaseConfigError
        ? err.message
        : `cannot open database: ${(err as Error).message}`;
    throw new ExitError(EXIT.database, what, { cause: err });
  }
  const where = url ? safeUrl(url) : handle.location;
  try {
    await handle.ping();
  } catch (err) {
    await handle.close().catch(() => {});
    throw unavailable(where, err);
  }
  return { handle, dataDir, where };
}

/**
 * Opens the database and makes sure its schema fits this build: refuses a schema a newer Nexus
 * migrated, then migrates or checks as `policy` says (default: `schemaPolicy`).
 */
export async function openFromFlags(
  flags: FlagValues,
  io: CliIo,
  policy?: SchemaPolicy,
): Promise<OpenedDatabase> {
  const { handle, dataDir, where } = await connectFromFlags(flags, io);
  try {
    const before = await schemaStatus(handle.db).catch((err: unknown) => {
      throw unavailable(where, err);
    });
    const newer = newerSchemaProblem(before);
    if (newer) throw new ExitError(EXIT.schema, newer);
    if ((policy ?? schemaPolicy(handle.dialect, flags)) === "check") {
      const why =
        handle.dialect === "postgres"
          ? "this command does not migrate PostgreSQL by itself"
          : "--no-migrate is set";
      const pending = pendingSchemaProblem(before, why);
      if (pending) throw new ExitError(EXIT.schema, pending);
      return { handle, applied: [], schema: before, dataDir };
    }
    const applied = await migrateToLatest(handle.db).catch((err: unknown) => {
      throw new ExitError(EXIT.database, `database ${where}: ${(err as Error).message}`, {
        cause: err,
      });
    });
    return { handle, applied, schema: await schemaStatus(handle.db), dataDir };
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}

function unavailable(where: string, err: unknown): ExitError {
  return new ExitError(EXIT.database, `database ${where} unavailable: ${(err as Error).message}`, {
    cause: err,
  });
}
