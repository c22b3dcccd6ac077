import { type Kysely, sql } from "kysely";
import { idColumn } from "../id-column.js";

// Installs and the store catalogue (schema-installs.ts, A35–A37): the executas a user has
// (`user_executas`, auto-installed by an app or installed by the user), the users who ever
// installed an app (so `install_count` counts each user once), the update preference and the
// installed version's id on `user_apps`, and the indexes the public catalogue pages with.
export async function up(db: Kysely<unknown>): Promise<void> {
  const addUserApps: [string, string, string?][] = [
    ["installed_version_id", "integer"],
    ["auto_update", "integer", "1"],
    ["updated_at", "bigint", "0"],
  ];
  for (const [name, type, fallback] of addUserApps) {
    await db.schema
      .alterTable("user_apps")
      .addColumn(name, sql.raw(type), (c) =>
        fallback === undefined ? c : c.notNull().defaultTo(sql.raw(fallback)),
      )
      .execute();
  }
  await sql`update user_apps set updated_at = installed_at`.execute(db);
  // Which of an app's users are installed is asked per app on delete and per user on /me/apps.
  await db.schema.createIndex("user_apps_app").on("user_apps").column("app_id").execute();

  await idColumn(db, db.schema.createTable("user_executas"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("executa_id", "integer", (c) =>
      c.notNull().references("executas.id").onDelete("cascade"),
    )
    .addColumn("executa_version_id", "integer", (c) =>
      c.references("executa_versions.id").onDelete("set null"),
    )
    // `app`: auto-installed for a required executa, removed once no installed app requires it;
    // `user`: installed by the user, never removed by an app's uninstall.
    .addColumn("source", "text", (c) => c.notNull())
    // The app whose install created it (informational; kept NULL for `user`).
    .addColumn("source_app_id", "integer", (c) => c.references("apps.id").onDelete("set null"))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("installed_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("user_executas_user_executa", ["user_id", "executa_id"])
    .execute();
  await db.schema
    .createIndex("user_executas_source")
    .on("user_executas")
    .columns(["user_id", "source"])
    .execute();

  await db.schema
    .createTable("app_installers")
    .addColumn("app_id", "integer", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("first_installed_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("app_installers_pk", ["app_id", "user_id"])
    .execute();

  // The catalogue pages by (install_count, id) descending within a status and optionally a
  // category: a keyset cursor walks these without an offset.
  await db.schema
    .createIndex("apps_store_rank")
    .on("apps")
    .columns(["status", "install_count", "id"])
    .execute();
  await db.schema
    .createIndex("apps_store_category_rank")
    .on("apps")
    .columns(["status", "category", "install_count", "id"])
    .execute();
}
