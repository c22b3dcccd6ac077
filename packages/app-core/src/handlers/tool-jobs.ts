// Async tool jobs (U59, R146–R150): `tools.invokeAsync` answers at once with a job id and runs
// the invoke in the background through the same pool as `tools.invoke`; `getJob` is the
// authoritative snapshot, `tool_job` events are hints (they never carry the result). Jobs are
// host-owned (they outlive the window that started them) and private to their user. In memory:
// not persisted across restarts (as the local harness, L6443).
import { randomBytes } from "node:crypto";
import { JOB_STATES, type JobState } from "@anna-ai/app-schema/host-api";
import { HostApiError, type HostApiErrorWire } from "../errors/host-api-error.js";
import { makeEvent } from "../events/make-event.js";
import type { CallContext, DispatcherCore, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { invokeResult, resolveInvocation } from "./tools-methods.js";

export const JOB_DEADLINE_DEFAULT_MS = 30 * 60 * 1000;
export const JOB_DEADLINE_MIN_MS = 60 * 1000;
export const JOB_DEADLINE_MAX_MS = 24 * 60 * 60 * 1000;
/** Active (queued or running) jobs per user (`job_quota_exceeded`). */
export const JOB_ACTIVE_PER_USER_MAX = 5;
/** `args` of one job, serialised (R146). */
export const JOB_ARGS_MAX_BYTES = 64 * 1024;
/** A job's result, serialised (`result_too_large`). */
export const JOB_RESULT_MAX_BYTES = 256 * 1024;
/** Finished jobs kept for getJob/listJobs before the oldest are forgotten. */
export const JOB_RETAINED_MAX = 1000;
export const JOB_LIST_LIMIT_DEFAULT = 20;
export const JOB_LIST_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

// The states and the argument limits are the contract's (`@anna-ai/app-schema/host-api`).
export { JOB_STATES, type JobState };
const TERMINAL: ReadonlySet<JobState> = new Set(["succeeded", "failed", "cancelled", "expired"]);

interface Job {
  jobId: string;
  userId: string;
  toolId: string;
  tool: string;
  clientTag: string | null;
  state: JobState;
  createdAt: number;
  updatedAt: number;
  deadlineMs: number;
  result?: unknown;
  error?: HostApiErrorWire;
  seq: number;
  abort: AbortController;
}

export interface ToolJobs {
  methods(): MethodTable;
  /** Aborts every running job (dispatcher shutdown). */
  cancelAll(): void;
}

function snapshot(job: Job): Record<string, unknown> {
  const out: Record<string, unknown> = {
    jobId: job.jobId,
    tool_id: job.toolId,
    method: job.tool,
    state: job.state,
    clientTag: job.clientTag,
    createdAt: new Date(job.createdAt).toISOString(),
    updatedAt: new Date(job.updatedAt).toISOString(),
    deadlineMs: job.deadlineMs,
    // Plugin progress does not reach the dispatcher yet (it is routed to the host's listener).
    progress: [],
    lastSeq: job.seq,
    lastHeartbeatAt: null,
  };
  if (job.state === "succeeded") out.result = job.result;
  if (job.error !== undefined) out.error = job.error;
  return out;
}

export function createToolJobs(core: DispatcherCore): ToolJobs {
  const jobs = new Map<string, Job>();

  function publish(job: Job): void {
    job.seq += 1;
    core.emit(
      job.userId,
      makeEvent(
        "tool_job",
        { appId: core.appId, versionId: core.versionId },
        {
          job_id: job.jobId,
          tool_id: job.toolId,
          state: job.state,
          seq: job.seq,
          terminal: TERMINAL.has(job.state),
        },
        core.clock(),
      ),
    );
  }

  function settle(
    job: Job,
    state: JobState,
    fields: { result?: unknown; error?: HostApiErrorWire },
  ) {
    if (TERMINAL.has(job.state)) return;
    job.state = state;
    job.updatedAt = core.clock();
    if (fields.result !== undefined) job.result = fields.result;
    if (fields.error !== undefined) job.error = fields.error;
    publish(job);
    forgetOldest();
  }

  function forgetOldest(): void {
    if (jobs.size <= JOB_RETAINED_MAX) return;
    for (const [id, job] of jobs) {
      if (!TERMINAL.has(job.state)) continue;
      jobs.delete(id);
      if (jobs.size <= JOB_RETAINED_MAX) return;
    }
  }

  function owned(ctx: CallContext, jobId: string): Job {
    const job = jobs.get(jobId);
    // No existence oracle across users (U59).
    if (job === undefined || job.userId !== ctx.window.userId) {
      throw new HostApiError("job_not_found", `no job ${jobId}`, { jobId });
    }
    return job;
  }

  async function run(job: Job, ctx: CallContext, args: Record<string, unknown> | undefined) {
    const target = resolveInvocation(ctx, job.toolId, job.tool);
    job.state = "running";
    job.updatedAt = core.clock();
    publish(job);
    const timeoutMs = Math.max(1, job.deadlineMs - core.clock());
    const outcome = await target.host.invoke(job.userId, job.toolId, job.tool, args, {
      timeoutMs,
      signal: job.abort.signal,
      app: { appId: core.appId, appScopeGranted: true },
    });
    if (TERMINAL.has(job.state)) return; // cancelled meanwhile
    try {
      const result = invokeResult(outcome, target, { timeoutMs, requestedMs: null });
      const bytes = Buffer.byteLength(JSON.stringify(result), "utf8");
      if (bytes > JOB_RESULT_MAX_BYTES) {
        settle(job, "failed", {
          error: new HostApiError(
            "result_too_large",
            `the result is ${bytes} bytes; jobs may return ${JOB_RESULT_MAX_BYTES} — upload it (host/uploadFile) and return a reference`,
            { size_bytes: bytes, max_bytes: JOB_RESULT_MAX_BYTES },
          ).toWire(),
        });
        return;
      }
      settle(job, "succeeded", { result });
    } catch (error) {
      const wire =
        error instanceof HostApiError
          ? error.toWire()
          : { code: "internal_error", message: "the job failed on the host" };
      settle(job, wire.code === "tool_timeout" ? "expired" : "failed", { error: wire });
    }
  }

  return {
    cancelAll() {
      for (const job of jobs.values()) {
        if (!TERMINAL.has(job.state)) {
          job.abort.abort();
          settle(job, "cancelled", {
            error: { code: "cancelled", message: "the host shut down" },
          });
        }
      }
    },
    methods: () => ({
      "tools.invokeAsync": contractMethod("tools.invokeAsync", async (args, ctx) => {
        if (Buffer.byteLength(JSON.stringify(args.args ?? {}), "utf8") > JOB_ARGS_MAX_BYTES) {
          throw new HostApiError("invalid_arg", `args may be at most ${JOB_ARGS_MAX_BYTES} bytes`);
        }
        const target = resolveInvocation(ctx, args.tool_id, args.method);
        const active = [...jobs.values()].filter(
          (j) => j.userId === ctx.window.userId && !TERMINAL.has(j.state),
        ).length;
        if (active >= JOB_ACTIVE_PER_USER_MAX) {
          throw new HostApiError(
            "job_quota_exceeded",
            `at most ${JOB_ACTIVE_PER_USER_MAX} active jobs per user; wait for one to finish`,
            { active, max_active: JOB_ACTIVE_PER_USER_MAX },
          );
        }
        // Job deadlines clamp on both sides (R146, Z48: "raised to 60 s").
        const requested = args.timeoutMs ?? JOB_DEADLINE_DEFAULT_MS;
        const window = Math.min(Math.max(requested, JOB_DEADLINE_MIN_MS), JOB_DEADLINE_MAX_MS);
        const now = core.clock();
        const job: Job = {
          jobId: `tjob_${randomBytes(16).toString("hex")}`,
          userId: ctx.window.userId,
          toolId: target.toolId,
          tool: target.tool,
          clientTag: args.clientTag ?? null,
          state: "queued",
          createdAt: now,
          updatedAt: now,
          deadlineMs: now + window,
          seq: 0,
          abort: new AbortController(),
        };
        jobs.set(job.jobId, job);
        publish(job);
        // The job outlives this call: no caller signal, its own abort controller.
        const jobCtx: CallContext = { ...ctx, signal: job.abort.signal };
        setImmediate(() => {
          run(job, jobCtx, args.args ?? undefined).catch((error: unknown) => {
            const wire =
              error instanceof HostApiError
                ? error.toWire()
                : { code: "internal_error", message: "the job failed on the host" };
            settle(job, "failed", { error: wire });
          });
        });
        return { jobId: job.jobId, state: "queued", deadlineMs: job.deadlineMs };
      }),
      "tools.getJob": contractMethod("tools.getJob", async (args, ctx) =>
        snapshot(owned(ctx, args.jobId)),
      ),
      "tools.cancelJob": contractMethod("tools.cancelJob", async (args, ctx) => {
        const job = owned(ctx, args.jobId);
        if (TERMINAL.has(job.state)) {
          return { jobId: job.jobId, state: job.state, cancelled: false };
        }
        job.abort.abort();
        settle(job, "cancelled", {
          error: {
            code: "cancelled",
            message: args.reason === undefined ? "cancelled" : `cancelled: ${args.reason}`,
          },
        });
        return { jobId: job.jobId, state: job.state, cancelled: true };
      }),
      "tools.listJobs": contractMethod("tools.listJobs", async (args, ctx) => {
        const states =
          args.state === undefined
            ? undefined
            : new Set(Array.isArray(args.state) ? args.state : [args.state]);
        const floor = Math.max(
          args.since === undefined ? 0 : Date.parse(args.since),
          core.clock() - JOB_LIST_LOOKBACK_MS,
        );
        const matching = [...jobs.values()]
          .filter(
            (j) =>
              j.userId === ctx.window.userId &&
              (args.tool_id === undefined || j.toolId === args.tool_id) &&
              (states === undefined || states.has(j.state)) &&
              (args.clientTag === undefined || j.clientTag === args.clientTag) &&
              j.createdAt >= floor,
          )
          .reverse();
        const limit = args.limit ?? JOB_LIST_LIMIT_DEFAULT;
        return {
          jobs: matching.slice(0, limit).map(snapshot),
          truncated: matching.length > limit,
        };
      }),
    }),
  };
}
