// Async tool jobs (U59, R146–R150): `tools.invokeAsync` answers at once with a job id and runs
// the invoke in the background through the same pool as `tools.invoke`; `getJob` is the
// authoritative snapshot, `tool_job` events are hints (they never carry the result). Jobs are
// host-owned (they outlive the window that started them) and private to their user and app. The
// records live in the injected ToolJobStore; the abort controllers of running invokes stay in
// this process's registry (a job another process runs is not abortable from here).
import { randomBytes } from "node:crypto";
import { HostApiError, type HostApiErrorWire } from "../errors/host-api-error.js";
import { makeEvent } from "../events/make-event.js";
import type { AppScope, CallContext, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import {
  ACTIVE_JOB_STATES,
  isTerminalJobState,
  type JobState,
  type ToolJobChange,
  type ToolJobRecord,
  type ToolJobStore,
} from "../jobs/tool-job-store.js";
import { invokeResult, resolveInvocation } from "./tools-methods.js";

export { JOB_STATES, type JobState } from "../jobs/tool-job-store.js";
export { JOB_RETAINED_MAX } from "../jobs/memory-tool-job-store.js";

export const JOB_DEADLINE_DEFAULT_MS = 30 * 60 * 1000;
export const JOB_DEADLINE_MIN_MS = 60 * 1000;
export const JOB_DEADLINE_MAX_MS = 24 * 60 * 60 * 1000;
/** Active (queued or running) jobs per user (`job_quota_exceeded`). */
export const JOB_ACTIVE_PER_USER_MAX = 5;
/** `args` of one job, serialised (R146). */
export const JOB_ARGS_MAX_BYTES = 64 * 1024;
/** A job's result, serialised (`result_too_large`). */
export const JOB_RESULT_MAX_BYTES = 256 * 1024;
export { JOB_CLIENT_TAG_MAX_CHARS } from "@anna-ai/app-schema/host-api";
export const JOB_LIST_LIMIT_DEFAULT = 20;
export const JOB_LIST_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

export interface ToolJobs {
  methods(): MethodTable;
  /** Aborts every job this process runs and marks it cancelled (dispatcher shutdown). */
  cancelAll(): Promise<void>;
}

/** The parts of a running job that cannot be stored: its abort and the scope it reports in. */
interface RunningJob {
  abort: AbortController;
  scope: AppScope;
}

function snapshot(job: ToolJobRecord): Record<string, unknown> {
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

export function createToolJobs(store: ToolJobStore): ToolJobs {
  const running = new Map<string, RunningJob>();

  function publish(scope: AppScope, job: ToolJobRecord): void {
    scope.emit(
      job.userId,
      makeEvent(
        "tool_job",
        { appId: job.appId, versionId: job.versionId },
        {
          job_id: job.jobId,
          tool_id: job.toolId,
          state: job.state,
          seq: job.seq,
          terminal: isTerminalJobState(job.state),
        },
        scope.clock(),
      ),
    );
  }

  /** Moves a not-yet-terminal job to `state`; a job already finished (or cancelled) stays. */
  async function settle(
    scope: AppScope,
    jobId: string,
    state: JobState,
    fields: Omit<ToolJobChange, "state">,
  ): Promise<ToolJobRecord | undefined> {
    const from = state === "running" ? ["queued" as const] : ACTIVE_JOB_STATES;
    const job = await store.transition(jobId, from, { ...fields, state }, scope.clock());
    if (isTerminalJobState(state)) running.delete(jobId);
    if (job !== undefined) publish(scope, job);
    return job;
  }

  async function owned(ctx: CallContext, jobId: string): Promise<ToolJobRecord> {
    const job = await store.get(jobId);
    // No existence oracle across users or apps (U59).
    if (job === undefined || job.userId !== ctx.window.userId || job.appId !== ctx.core.appId) {
      throw new HostApiError("job_not_found", `no job ${jobId}`, { jobId });
    }
    return job;
  }

  function failure(error: unknown): HostApiErrorWire {
    return error instanceof HostApiError
      ? error.toWire()
      : { code: "internal_error", message: "the job failed on the host" };
  }

  async function run(
    job: ToolJobRecord,
    ctx: CallContext,
    abort: AbortController,
    args: Record<string, unknown> | undefined,
  ) {
    const scope = ctx.core;
    const target = resolveInvocation(ctx, job.toolId, job.tool);
    if ((await settle(scope, job.jobId, "running", {})) === undefined) return; // cancelled
    const timeoutMs = Math.max(1, job.deadlineMs - scope.clock());
    const outcome = await target.host.invoke(job.userId, job.toolId, job.tool, args, {
      timeoutMs,
      signal: abort.signal,
      app: { appId: job.appId, appScopeGranted: true },
    });
    if (abort.signal.aborted) return; // cancelled meanwhile
    try {
      const result = invokeResult(outcome, target, { timeoutMs, requestedMs: null });
      const bytes = Buffer.byteLength(JSON.stringify(result), "utf8");
      if (bytes > JOB_RESULT_MAX_BYTES) {
        await settle(scope, job.jobId, "failed", {
          error: new HostApiError(
            "result_too_large",
            `the result is ${bytes} bytes; jobs may return ${JOB_RESULT_MAX_BYTES} — upload it (host/uploadFile) and return a reference`,
            { size_bytes: bytes, max_bytes: JOB_RESULT_MAX_BYTES },
          ).toWire(),
        });
        return;
      }
      await settle(scope, job.jobId, "succeeded", { result });
    } catch (error) {
      const wire = failure(error);
      await settle(scope, job.jobId, wire.code === "tool_timeout" ? "expired" : "failed", {
        error: wire,
      });
    }
  }

  return {
    async cancelAll() {
      const jobs = [...running.entries()];
      for (const [, job] of jobs) job.abort.abort();
      for (const [jobId, job] of jobs) {
        await settle(job.scope, jobId, "cancelled", {
          error: { code: "cancelled", message: "the host shut down" },
        });
      }
    },
    methods: () => ({
      "tools.invokeAsync": contractMethod("tools.invokeAsync", async (args, ctx) => {
        if (Buffer.byteLength(JSON.stringify(args.args ?? {}), "utf8") > JOB_ARGS_MAX_BYTES) {
          throw new HostApiError("invalid_arg", `args may be at most ${JOB_ARGS_MAX_BYTES} bytes`);
        }
        const target = resolveInvocation(ctx, args.tool_id, args.method);
        // The quota is the user's, across apps (U59 "per user").
        const active = (await store.list({ userId: ctx.window.userId, states: ACTIVE_JOB_STATES }))
          .length;
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
        const now = ctx.core.clock();
        const job: ToolJobRecord = {
          jobId: `tjob_${randomBytes(16).toString("hex")}`,
          userId: ctx.window.userId,
          appId: ctx.core.appId,
          versionId: ctx.core.versionId,
          toolId: target.toolId,
          tool: target.tool,
          clientTag: args.clientTag ?? null,
          state: "queued",
          createdAt: now,
          updatedAt: now,
          deadlineMs: now + window,
          seq: 1,
        };
        const abort = new AbortController();
        await store.insert(job);
        running.set(job.jobId, { abort, scope: ctx.core });
        publish(ctx.core, job);
        // The job outlives this call: no caller signal, its own abort controller.
        const jobCtx: CallContext = { ...ctx, signal: abort.signal };
        setImmediate(() => {
          run(job, jobCtx, abort, args.args ?? undefined).catch((error: unknown) =>
            settle(ctx.core, job.jobId, "failed", { error: failure(error) }),
          );
        });
        return { jobId: job.jobId, state: "queued", deadlineMs: job.deadlineMs };
      }),
      "tools.getJob": contractMethod("tools.getJob", async (args, ctx) =>
        snapshot(await owned(ctx, args.jobId)),
      ),
      "tools.cancelJob": contractMethod("tools.cancelJob", async (args, ctx) => {
        const job = await owned(ctx, args.jobId);
        if (isTerminalJobState(job.state)) {
          return { jobId: job.jobId, state: job.state, cancelled: false };
        }
        running.get(job.jobId)?.abort.abort();
        const cancelled = await settle(ctx.core, job.jobId, "cancelled", {
          error: {
            code: "cancelled",
            message: args.reason === undefined ? "cancelled" : `cancelled: ${args.reason}`,
          },
        });
        // Finished between the read and the cancel: report what it became.
        if (cancelled === undefined) {
          const now = await owned(ctx, args.jobId);
          return { jobId: now.jobId, state: now.state, cancelled: false };
        }
        return { jobId: cancelled.jobId, state: cancelled.state, cancelled: true };
      }),
      "tools.listJobs": contractMethod("tools.listJobs", async (args, ctx) => {
        const floor = Math.max(
          args.since === undefined ? 0 : Date.parse(args.since),
          ctx.core.clock() - JOB_LIST_LOOKBACK_MS,
        );
        const matching = await store.list({
          userId: ctx.window.userId,
          appId: ctx.core.appId,
          createdSince: floor,
          ...(args.tool_id === undefined ? {} : { toolId: args.tool_id }),
          ...(args.clientTag === undefined ? {} : { clientTag: args.clientTag }),
          ...(args.state === undefined
            ? {}
            : { states: Array.isArray(args.state) ? args.state : [args.state] }),
        });
        const limit = args.limit ?? JOB_LIST_LIMIT_DEFAULT;
        return {
          jobs: matching.slice(0, limit).map(snapshot),
          truncated: matching.length > limit,
        };
      }),
    }),
  };
}
