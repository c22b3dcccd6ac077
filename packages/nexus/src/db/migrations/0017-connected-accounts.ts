import { type Kysely, sql } from "kysely";
import { idColumn } from "../id-column.js";

// Platform OAuth connections (spec "Credentials & platform authorization", multi-account): a
// user's accounts per operator-configured provider, and the authorize flows in flight.
// - `connected_accounts`: one row per (user, provider, provider-side account id). Tokens are
//   AES-256-GCM under the server's KEK with the row's identity as associated data, as the vault's
//   values are (0014); `refresh_sealed` never leaves the server. At most one default per
//   (user, provider) is the partial unique index; the store keeps exactly one while any exist.
// - `oauth_flows`: the state of an authorize redirect, by the SHA-256 of its `state`, bound to
//   the user and the session that started it, with the PKCE verifier sealed; one use, a TTL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable("connected_accounts"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("label", "text")
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("is_default", "integer", (c) => c.notNull())
    .addColumn("access_sealed", "text", (c) => c.notNull())
    .addColumn("refresh_sealed", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("refreshed_at", "bigint")
    .addUniqueConstraint("connected_accounts_identity", ["user_id", "provider", "account_id"])
    .execute();
  await db.schema
    .createIndex("connected_accounts_one_default")
    .on("connected_accounts")
    .columns(["user_id", "provider"])
    .unique()
    .where(sql.ref("is_default"), "=", 1)
    .execute();

  await db.schema
    .createTable("oauth_flows")
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("session_hash", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("verifier_sealed", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("oauth_flows_expiry")
    .on("oauth_flows")
    .column("expires_at")
    .execute();
}
