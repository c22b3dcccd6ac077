// app-core's EventLog on SQLite or PostgreSQL (migration 0020, D-nexus-170): the window events of
// every node in one numbered log per user, what a resumed event stream reads back on any node.
// An append is one transaction that starts with an upsert of the user's head row: PostgreSQL
// takes the row lock there, SQLite the write lock, so two nodes appending for one user get
// consecutive numbers in commit order, and a rolled-back append gives its numbers back. That is
// what makes the numbers dense: a stream that sees 7 after 5 finds 6 committed.
//
// Kept: the last EVENT_LOG_PER_USER_MAX events of each user (trimmed by the append that crosses
// a multiple of TRIM_EVERY) and nothing older than the retention (a sweep at most once a minute,
// started by an append, so an idle server does no work).
import {
  EVENT_LOG_PER_USER_MAX,
  EVENT_LOG_RETENTION_MS,
  type EventLog,
  type LoggedEvent,
} from "@anna-ai/app-core";
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { type Kysely, sql } from "kysely";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";

/** A user's log is trimmed to its count by every TRIM_EVERY-th append, not by each one. */
const TRIM_EVERY = 256;
/** How often the age sweep may run. */
export const EVENT_LOG_SWEEP_MS = 60_000;

export interface SqlEventLogOptions {
  clock: Clock;
  logger: Logger;
  perUserMax?: number;
  retentionMs?: number;
}

export interface SqlEventLog extends EventLog {
  /** Deletes the events older than the retention; answers how many (the sweep, and tests). */
  sweep(): Promise<number>;
}

export function sqlEventLog(db: Kysely<Database>, options: SqlEventLogOptions): SqlEventLog {
  const { clock, logger } = options;
  const perUserMax = options.perUserMax ?? EVENT_LOG_PER_USER_MAX;
  const retentionMs = options.retentionMs ?? EVENT_LOG_RETENTION_MS;
  let lastSweep = clock.now();
  let sweeping = false;

  async function sweep(): Promise<number> {
    const result = await db
      .deleteFrom("runtime_events")
      .where("created_at", "<", clock.now() - retentionMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  function maybeSweep(): void {
    const now = clock.now();
    if (sweeping || now - lastSweep < EVENT_LOG_SWEEP_MS) return;
    sweeping = true;
    lastSweep = now;
    void sweep()
      .catch((error: unknown) => {
        logger.log("warn", "event log sweep failed; will retry", { error: String(error) });
      })
      .finally(() => (sweeping = false));
  }

  return {
    async append(userId, events) {
      const n = events.length;
      const at = clock.now();
      const seqs = await db.transaction().execute(async (trx) => {
        const { seq: head } = await trx
          .insertInto("runtime_event_heads")
          .values({ user_id: userId, seq: n })
          .onConflict((oc) =>
            oc.column("user_id").doUpdateSet({ seq: sql<number>`runtime_event_heads.seq + ${n}` }),
          )
          .returning("seq")
          .executeTakeFirstOrThrow();
        const first = Number(head) - n + 1;
        await trx
          .insertInto("runtime_events")
          .values(
            events.map((event, i) => ({
              user_id: userId,
              seq: first + i,
              event: JSON.stringify(event),
              created_at: at,
            })),
          )
          .execute();
        if (Math.floor((first - 1) / TRIM_EVERY) !== Math.floor(Number(head) / TRIM_EVERY)) {
          await trx
            .deleteFrom("runtime_events")
            .where("user_id", "=", userId)
            .where("seq", "<=", Number(head) - perUserMax)
            .execute();
        }
        return events.map((_, i) => first + i);
      });
      maybeSweep();
      return seqs;
    },
    async read(userId, afterSeq, limit) {
      // The head first: the events query then sees every append the head counts (EventLog.read).
      const headRow = await db
        .selectFrom("runtime_event_heads")
        .select("seq")
        .where("user_id", "=", userId)
        .executeTakeFirst();
      const rows = await db
        .selectFrom("runtime_events")
        .select(["seq", "event"])
        .where("user_id", "=", userId)
        .where("seq", ">", afterSeq)
        .where("created_at", ">=", clock.now() - retentionMs)
        .orderBy("seq")
        .limit(limit)
        .execute();
      const events: LoggedEvent[] = rows.map((row) => ({
        seq: Number(row.seq),
        event: JSON.parse(row.event) as AnnaAppEvent,
      }));
      return { events, head: headRow === undefined ? 0 : Number(headRow.seq) };
    },
    sweep,
  };
}
