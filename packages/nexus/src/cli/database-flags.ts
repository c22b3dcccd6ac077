import { resolve } from "node:path";
import { type DatabaseHandle, DatabaseConfigError, openDatabase, safeUrl } from "../db/connect.js";
import { migrateToLatest } from "../db/migrate.js";
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

/** Opens and migrates the database the flags and environment name. */
export async function openFromFlags(
  flags: FlagValues,
  io: CliIo,
): Promise<{ handle: DatabaseHandle; applied: string[]; dataDir: string }> {
  const dataDir = resolve(
    io.cwd,
    (flags.data as string | undefined) ?? io.env.ANNA_DATA_DIR ?? DEFAULT_DATA_DIR,
  );
  const url = (flags["database-url"] as string | undefined) ?? (io.env.DATABASE_URL || undefined);
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
  try {
    await handle.ping();
    const applied = await migrateToLatest(handle.db);
    return { handle, applied, dataDir };
  } catch (err) {
    await handle.close().catch(() => {});
    const where = url ? safeUrl(url) : handle.location;
    throw new ExitError(EXIT.database, `database ${where} unavailable: ${(err as Error).message}`, {
      cause: err,
    });
  }
}
