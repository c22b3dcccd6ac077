import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrateToLatest } from "../src/db/migrate.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

describe.each(DIALECTS)("database on $name", (d) => {
  it.skipIf(d.skip)("applies every migration once and is idempotent on restart", async () => {
    const h = await d.open();
    // d.open() already migrated; a second run applies nothing.
    expect(await migrateToLatest(h.db)).toEqual([]);
    const rows = await sql<{
      name: string;
    }>`select name from nexus_migration order by name`.execute(h.db);
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
    await h.ping();
  });

  it.skipIf(d.skip)(
    "round-trips epoch-ms bigints and returns generated ids as numbers",
    async () => {
      const h = await d.open();
      const t = Date.UTC(2030, 5, 1, 12, 0, 0, 123);
      const row = await h.db
        .insertInto("users")
        .values({
          email: "a@example.com",
          password_hash: "x",
          is_admin: 0,
          is_verified: 1,
          is_verified_developer: 0,
          developer_activated_at: null,
          developer_tos_version: null,
          developer_revoked_at: null,
          developer_handle: null,
          created_at: t,
          updated_at: t,
        })
        .returning(["id", "created_at"])
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ id: 1, created_at: t });
      await expect(
        h.db
          .insertInto("users")
          .values({
            email: "a@example.com",
            password_hash: "y",
            is_admin: 0,
            is_verified: 0,
            is_verified_developer: 0,
            created_at: t,
            updated_at: t,
            developer_activated_at: null,
            developer_tos_version: null,
            developer_revoked_at: null,
            developer_handle: null,
          })
          .execute(),
      ).rejects.toThrow(/unique|duplicate/i);
    },
  );
});
