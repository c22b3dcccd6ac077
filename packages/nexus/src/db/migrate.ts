// Migrations are compiled into the package and listed here by number, so a bundled or installed
// Nexus never scans folders. Forward-only: numbers are never reused or edited once released.
import { type Kysely, type Migration, type MigrationResultSet, Migrator } from "kysely";
import * as m0001 from "./migrations/0001-accounts.js";
import * as m0002 from "./migrations/0002-signing_keys.js";
import * as m0003 from "./migrations/0003-storage.js";
import * as m0004 from "./migrations/0004-runtime.js";
import * as m0005 from "./migrations/0005-accounts-abuse.js";
import * as m0006 from "./migrations/0006-executas.js";
import * as m0007 from "./migrations/0007-app-registry.js";
import * as m0008 from "./migrations/0008-executa-binaries.js";
import * as m0009 from "./migrations/0009-installs.js";
import * as m0010 from "./migrations/0010-conversations.js";
import * as m0011 from "./migrations/0011-llm-usage.js";
import * as m0012 from "./migrations/0012-release-review.js";
import * as m0013 from "./migrations/0013-executa-manifests.js";
import * as m0014 from "./migrations/0014-executa-credentials.js";
import * as m0015 from "./migrations/0015-chat-attachments.js";
import * as m0016 from "./migrations/0016-server-settings.js";
import * as m0017 from "./migrations/0017-connected-accounts.js";
import * as m0018 from "./migrations/0018-chat-turn-runner.js";
import * as m0019 from "./migrations/0019-executa-owners.js";
import * as m0020 from "./migrations/0020-runtime-events.js";

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  "0001-accounts": m0001,
  "0002-signing_keys": m0002,
  "0003-storage": m0003,
  "0004-runtime": m0004,
  "0005-accounts-abuse": m0005,
  "0006-executas": m0006,
  "0007-app-registry": m0007,
  "0008-executa-binaries": m0008,
  "0009-installs": m0009,
  "0010-conversations": m0010,
  "0011-llm-usage": m0011,
  "0012-release-review": m0012,
  "0013-executa-manifests": m0013,
  "0014-executa-credentials": m0014,
  "0015-chat-attachments": m0015,
  "0016-server-settings": m0016,
  "0017-connected-accounts": m0017,
  "0018-chat-turn-runner": m0018,
  "0019-executa-owners": m0019,
  "0020-runtime-events": m0020,
};

/** Kysely's bookkeeping tables, named for Nexus so they never clash with an app's. */
export const MIGRATION_TABLE = "nexus_migration";
export const MIGRATION_LOCK_TABLE = "nexus_migration_lock";

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MigrationError";
  }
}

/** Applies every pending migration in order; returns the names applied now. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Migrator is schema-agnostic.
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new MigrationError(`migration ${failed} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
