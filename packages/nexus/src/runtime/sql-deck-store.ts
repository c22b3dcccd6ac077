// app-core's DeckStore on SQLite or PostgreSQL. An update is one transaction that starts with an
// upsert of the user's deck row: in PostgreSQL that takes the row lock, so two nodes pinning at
// once apply their changes one after the other; in SQLite it takes the database write lock at
// the start (the same pattern as the storage usage row, storage/sql-usage.ts). The change
// itself is app-core's pure function (pin, unpin, reorder), so the rules live in one place.
import type { DeckStore } from "@anna-ai/app-core";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import type { Clock } from "../core/clock.js";

function parseDeck(text: string): string[] {
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

export function sqlDeckStore(db: Kysely<Database>, clock: Clock): DeckStore {
  return {
    async get(userId) {
      const row = await db
        .selectFrom("runtime_decks")
        .select("apps")
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return row === undefined ? [] : parseDeck(row.apps);
    },
    update(userId, change) {
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const locked = await trx
          .insertInto("runtime_decks")
          .values({ user_id: userId, apps: "[]", updated_at: now })
          .onConflict((oc) => oc.column("user_id").doUpdateSet({ updated_at: now }))
          .returning("apps")
          .executeTakeFirstOrThrow();
        const deck = parseDeck(locked.apps);
        // A throwing change (a bad reorder) rolls the transaction back, the upsert with it.
        const next = change(deck);
        if (next === undefined) return { deck, changed: false };
        await trx
          .updateTable("runtime_decks")
          .set({ apps: JSON.stringify(next), updated_at: now })
          .where("user_id", "=", userId)
          .execute();
        return { deck: [...next], changed: true };
      });
    },
  };
}
