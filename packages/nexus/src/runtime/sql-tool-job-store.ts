// app-core's ToolJobStore on SQLite or PostgreSQL. A transition is one conditional UPDATE
// (`WHERE job_id = ? AND state IN (…)`, `seq = seq + 1`): of a cancel and a finishing invoke on
// two server nodes, exactly one matches the row. Unlike the memory store, finished jobs are not
// forgotten after a count: the database keeps them (their clean-up is an operator's job).
import type { ToolJobChange, ToolJobRecord, ToolJobStore } from "@anna-ai/app-core";
import type { Kysely, Selectable, Updateable } from "kysely";
import type { Database } from "../db/schema.js";
import type { RuntimeToolJobsTable } from "../db/schema-runtime.js";
import { uniqueViolation } from "../stores/sql-stores.js";

type Row = Selectable<RuntimeToolJobsTable>;

function toRecord(r: Row): ToolJobRecord {
  return {
    jobId: r.job_id,
    userId: r.user_id,
    appId: r.app_id,
    versionId: r.version_id,
    toolId: r.tool_id,
    tool: r.tool,
    clientTag: r.client_tag,
    state: r.state as ToolJobRecord["state"],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    deadlineMs: Number(r.deadline_ms),
    ...(r.result === null ? {} : { result: JSON.parse(r.result) as unknown }),
    ...(r.error === null ? {} : { error: JSON.parse(r.error) as ToolJobRecord["error"] }),
    seq: Number(r.seq),
  };
}

/** A present `result` is stored as JSON (even `null`); an explicitly absent one clears it. */
function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function changeColumns(change: ToolJobChange): Updateable<RuntimeToolJobsTable> {
  return {
    ...(change.state === undefined ? {} : { state: change.state }),
    ...("result" in change ? { result: json(change.result) } : {}),
    ...("error" in change ? { error: json(change.error) } : {}),
  };
}

export function sqlToolJobStore(db: Kysely<Database>): ToolJobStore {
  return {
    async insert(record) {
      try {
        await db
          .insertInto("runtime_tool_jobs")
          .values({
            job_id: record.jobId,
            user_id: record.userId,
            app_id: record.appId,
            version_id: record.versionId,
            tool_id: record.toolId,
            tool: record.tool,
            client_tag: record.clientTag,
            state: record.state,
            created_at: record.createdAt,
            updated_at: record.updatedAt,
            deadline_ms: record.deadlineMs,
            result: json(record.result),
            error: json(record.error),
            seq: record.seq,
          })
          .execute();
      } catch (err) {
        if (uniqueViolation(err) !== undefined) {
          throw new Error(`job ${record.jobId} already exists`);
        }
        throw err;
      }
    },
    async get(jobId) {
      const row = await db
        .selectFrom("runtime_tool_jobs")
        .selectAll()
        .where("job_id", "=", jobId)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
    async transition(jobId, from, change, updatedAt) {
      if (from.length === 0) return undefined;
      const row = await db
        .updateTable("runtime_tool_jobs")
        .set((eb) => ({
          ...changeColumns(change),
          seq: eb("seq", "+", 1),
          updated_at: updatedAt,
        }))
        .where("job_id", "=", jobId)
        .where("state", "in", [...from])
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
    async list(filter) {
      let q = db.selectFrom("runtime_tool_jobs").selectAll().where("user_id", "=", filter.userId);
      if (filter.appId !== undefined) q = q.where("app_id", "=", filter.appId);
      if (filter.states !== undefined) {
        if (filter.states.length === 0) return [];
        q = q.where("state", "in", [...filter.states]);
      }
      if (filter.toolId !== undefined) q = q.where("tool_id", "=", filter.toolId);
      if (filter.clientTag !== undefined) q = q.where("client_tag", "=", filter.clientTag);
      if (filter.createdSince !== undefined) q = q.where("created_at", ">=", filter.createdSince);
      const rows = await q.orderBy("created_at", "desc").orderBy("id", "desc").execute();
      return rows.map(toRecord);
    },
  };
}
