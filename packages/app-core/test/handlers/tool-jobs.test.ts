import type { AnnaAppEvent } from "@anna-ai/app-schema";
import type { InvokeOutcome } from "@anna-ai/executa-host";
import { RpcError } from "@anna-ai/jsonrpc";
import { describe, expect, it, onTestFinished } from "vitest";
import { JOB_ACTIVE_PER_USER_MAX, type CallResult, type ToolHost } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const TOOL = "tool-examples-ts-notes-00000001";

/** A pool whose invokes finish when the test says so (or abort with their signal). */
function controlledHost() {
  const pending: { resolve: (o: InvokeOutcome) => void; timeoutMs: number | undefined }[] = [];
  const host: ToolHost = {
    get: () => ({ manifest: { tools: [] } }),
    invoke: (_u, _t, _tool, _args, options) =>
      new Promise<InvokeOutcome>((resolve) => {
        pending.push({ resolve, timeoutMs: options?.timeoutMs });
        options?.signal?.addEventListener("abort", () =>
          resolve({
            ok: false,
            kind: "rpc_error",
            error: new RpcError(-32000, "aborted", { errorCode: "ABORTED" }),
            durationMs: 0,
          }),
        );
      }),
  };
  return { host, pending };
}

function result(out: CallResult): Record<string, unknown> {
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.result as Record<string, unknown>;
}

/** Resolves with the first tool_job event in `state` for the job. */
function jobEvent(events: AnnaAppEvent[], jobId: string, state: string, timeoutMs = 2000) {
  return new Promise<AnnaAppEvent>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no tool_job ${state}`)), timeoutMs);
    const check = () => {
      const found = events.find(
        (e) =>
          e.kind === "tool_job" &&
          (e.payload as { job_id: string }).job_id === jobId &&
          (e.payload as { state: string }).state === state,
      );
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      } else setImmediate(check);
    };
    check();
  });
}

async function setup() {
  const { host, pending } = controlledHost();
  const opened = await openDispatcher({ tools: ["required:*"] }, { host });
  onTestFinished(() => opened.dispatcher.close());
  const events: AnnaAppEvent[] = [];
  opened.dispatcher.events.subscribe({ userId: opened.dispatcher.userId }, (e) => events.push(e));
  return { ...opened, pending, events };
}

describe("async tool jobs", () => {
  it("runs a job to success: queued at once, tool_job events without the result, getJob has it", async () => {
    const { dispatcher, token, pending, events } = await setup();
    const started = result(
      await dispatcher.call(token, "tools", "invokeAsync", {
        tool_id: TOOL,
        method: "echo",
        args: { text: "x" },
        clientTag: "tag-1",
      }),
    );
    expect(started).toMatchObject({
      jobId: expect.stringMatching(/^tjob_[0-9a-f]{32}$/),
      state: "queued",
    });
    const jobId = started.jobId as string;
    await jobEvent(events, jobId, "running");
    expect(pending[0]?.timeoutMs).toBeGreaterThan(29 * 60 * 1000);
    pending[0]?.resolve({ ok: true, data: { echoed: "x" }, durationMs: 1, raw: {} });
    const done = await jobEvent(events, jobId, "succeeded");
    expect(done.payload).toMatchObject({ terminal: true, tool_id: TOOL });
    expect(JSON.stringify(done.payload)).not.toContain("echoed");
    expect(done.window_uuid).toBeUndefined();
    expect(result(await dispatcher.call(token, "tools", "getJob", { jobId }))).toMatchObject({
      state: "succeeded",
      result: { echoed: "x" },
      clientTag: "tag-1",
    });
    expect(
      result(
        await dispatcher.call(token, "tools", "listJobs", {
          clientTag: "tag-1",
          state: ["succeeded"],
        }),
      ),
    ).toMatchObject({ jobs: [{ jobId }], truncated: false });
  });

  it("cancels idempotently and reports a failed tool as failed with tool_failed", async () => {
    const { dispatcher, token, pending, events } = await setup();
    const a = result(
      await dispatcher.call(token, "tools", "invokeAsync", { tool_id: TOOL, method: "x" }),
    );
    await jobEvent(events, a.jobId as string, "running");
    expect(
      result(
        await dispatcher.call(token, "tools", "cancelJob", { jobId: a.jobId, reason: "user" }),
      ),
    ).toEqual({ jobId: a.jobId, state: "cancelled", cancelled: true });
    expect(result(await dispatcher.call(token, "tools", "cancelJob", { jobId: a.jobId }))).toEqual({
      jobId: a.jobId,
      state: "cancelled",
      cancelled: false,
    });
    expect(
      result(await dispatcher.call(token, "tools", "getJob", { jobId: a.jobId })),
    ).toMatchObject({
      state: "cancelled",
      error: { code: "cancelled", message: "cancelled: user" },
    });

    const b = result(
      await dispatcher.call(token, "tools", "invokeAsync", { tool_id: TOOL, method: "x" }),
    );
    await jobEvent(events, b.jobId as string, "running");
    pending[1]?.resolve({ ok: false, kind: "tool_failed", error: "nope", durationMs: 1, raw: {} });
    await jobEvent(events, b.jobId as string, "failed");
    expect(
      result(await dispatcher.call(token, "tools", "getJob", { jobId: b.jobId })),
    ).toMatchObject({
      error: { code: "tool_failed", message: "nope" },
    });
  });

  it("expires a job whose plugin times out", async () => {
    const { dispatcher, token, pending, events } = await setup();
    const job = result(
      await dispatcher.call(token, "tools", "invokeAsync", { tool_id: TOOL, method: "x" }),
    );
    await jobEvent(events, job.jobId as string, "running");
    pending[0]?.resolve({
      ok: false,
      kind: "rpc_error",
      error: new RpcError(-32003, "timeout", { errorCode: "TIMEOUT" }),
      durationMs: 1,
    });
    await jobEvent(events, job.jobId as string, "expired");
    expect(
      result(await dispatcher.call(token, "tools", "getJob", { jobId: job.jobId })),
    ).toMatchObject({
      state: "expired",
      error: { code: "tool_timeout" },
    });
  });

  it("caps active jobs per user and hides jobs from other users", async () => {
    const { dispatcher, token } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < JOB_ACTIVE_PER_USER_MAX; i += 1) {
      const out = result(
        await dispatcher.call(token, "tools", "invokeAsync", { tool_id: TOOL, method: "x" }),
      );
      ids.push(out.jobId as string);
    }
    expect(
      await dispatcher.call(token, "tools", "invokeAsync", { tool_id: TOOL, method: "x" }),
    ).toMatchObject({
      ok: false,
      error: { code: "job_quota_exceeded" },
    });
    const bob = await dispatcher.openWindow("main", { userId: "bob" });
    expect(await dispatcher.call(bob.token, "tools", "getJob", { jobId: ids[0] })).toMatchObject({
      ok: false,
      error: { code: "job_not_found" },
    });
    expect(result(await dispatcher.call(bob.token, "tools", "listJobs", {}))).toEqual({
      jobs: [],
      truncated: false,
    });
    expect(await dispatcher.call(token, "tools", "getJob", { jobId: "tjob_nope" })).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
  });
});
