// An agent session's stored conversation (`copilot_messages`): what a run replays to the model,
// what `agent/session.history` pages through, what a delete drops. Every query is by (user,
// session), so a uuid alone never reaches another user's messages.
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import type { AppSession } from "./copilot-auth.js";

/** Messages of history a run replays (user and assistant turns, newest kept). */
export const AGENT_HISTORY_MAX_MESSAGES = 40;

export async function sessionHistory(
  db: Kysely<Database>,
  session: Pick<AppSession, "uuid" | "userId">,
  limit = AGENT_HISTORY_MAX_MESSAGES,
): Promise<{ role: "user" | "assistant"; content: string; run_id: string; created_at: number }[]> {
  const rows = await db
    .selectFrom("copilot_messages")
    .select(["role", "content", "run_id", "created_at"])
    .where("session_uuid", "=", session.uuid)
    .where("user_id", "=", session.userId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({
    role: r.role as "user" | "assistant",
    content: r.content,
    run_id: r.run_id,
    created_at: Number(r.created_at),
  }));
}

/** One page of a session's stored messages, oldest first, and whether more follow. */
export async function sessionHistoryPage(
  db: Kysely<Database>,
  session: Pick<AppSession, "uuid" | "userId">,
  offset: number,
  limit: number,
): Promise<{
  rows: { role: string; content: string; run_id: string; created_at: number }[];
  more: boolean;
}> {
  const rows = await db
    .selectFrom("copilot_messages")
    .select(["role", "content", "run_id", "created_at"])
    .where("session_uuid", "=", session.uuid)
    .where("user_id", "=", session.userId)
    .orderBy("id", "asc")
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** Whether a run of this session finished and was stored (a cancel that came too late). */
export async function sessionRanRun(
  db: Kysely<Database>,
  session: Pick<AppSession, "uuid" | "userId">,
  runId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("copilot_messages")
    .select("id")
    .where("session_uuid", "=", session.uuid)
    .where("user_id", "=", session.userId)
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Drops a session's conversation (`agent/session.delete`, R36: "the session and its history"). */
export async function forgetSessionHistory(
  db: Kysely<Database>,
  session: Pick<AppSession, "uuid" | "userId">,
): Promise<void> {
  await db
    .deleteFrom("copilot_messages")
    .where("session_uuid", "=", session.uuid)
    .where("user_id", "=", session.userId)
    .execute();
}
