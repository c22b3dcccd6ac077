import type { CallOptions } from "./args.js";
import { HostApiError, SDK_ERROR_CODES } from "./errors.js";
import type { EventHub } from "./event-hub.js";
import type { InvokeAsyncAwaitOptions, JobSnapshot, Json } from "./namespace-types.js";
import { unwrapToolResult } from "./tool-result.js";

/** Poll `getJob` this often at first; `tool_job` events wake the loop sooner. */
export const JOB_POLL_INITIAL_MS = 500;
/** …backing off to the guide's reload-recovery cadence (L6535: every 2 s). */
export const JOB_POLL_MAX_MS = 2_000;

/** Read through a call so TypeScript does not narrow it across awaits. */
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

type RawCall = (
  ns: string,
  method: string,
  args: Record<string, unknown>,
  opts?: CallOptions,
) => Promise<unknown>;

const TERMINAL_ERROR_CODE: Readonly<Record<string, string>> = Object.freeze({
  failed: SDK_ERROR_CODES.TOOL_FAILED,
  cancelled: SDK_ERROR_CODES.CANCELLED,
  expired: "tool_timeout",
});

/**
 * `anna.tools.invokeAsyncAwait` (U60, R146): start a job, then wait for its end on `tool_job`
 * events with `getJob` polling as the source of truth. Resolves with the result (A4-unwrapped);
 * rejects with `tool_failed`, `cancelled`, `tool_timeout` (expired) or `wait_timeout` (our
 * wall clock; `details.jobId` lets the bundle re-adopt the job).
 */
export async function invokeAsyncAwait(
  call: RawCall,
  hub: EventHub,
  args: Json,
  opts: InvokeAsyncAwaitOptions = {},
): Promise<unknown> {
  const { signal, onProgress, timeoutMs } = opts;
  const started = (await call(
    "tools",
    "invokeAsync",
    args,
    signal === undefined ? {} : { signal },
  )) as { jobId?: unknown };
  const jobId = started.jobId;
  if (typeof jobId !== "string") {
    throw new HostApiError(
      SDK_ERROR_CODES.BAD_RESPONSE,
      "tools.invokeAsync answered without a jobId",
      started,
    );
  }
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  let wake: (() => void) | undefined;
  let nudged = false;
  const unsubscribe = hub.on("tool_job", (payload: unknown) => {
    if (typeof payload !== "object" || payload === null || (payload as Json)["job_id"] !== jobId)
      return;
    // An event that lands while `getJob` is in flight must not be lost: the next wait is skipped.
    nudged = true;
    wake?.();
  });
  let sinceSeq: number | undefined;
  let delay = JOB_POLL_INITIAL_MS;
  try {
    for (;;) {
      if (signal?.aborted === true) {
        await call("tools", "cancelJob", { jobId, reason: "aborted by the app" }).catch(
          () => undefined,
        );
        throw new HostApiError(
          SDK_ERROR_CODES.CANCELLED,
          "the job was cancelled",
          { jobId },
          { cause: signal.reason },
        );
      }
      nudged = false;
      const query: Json = sinceSeq === undefined ? { jobId } : { jobId, sinceSeq };
      const snapshot = (await call("tools", "getJob", query)) as JobSnapshot;
      for (const event of snapshot.progress ?? []) {
        try {
          onProgress?.(event);
        } catch {
          // A progress callback's failure is the app's; the wait goes on.
        }
        if (typeof event.seq === "number") sinceSeq = Math.max(sinceSeq ?? event.seq, event.seq);
      }
      if (typeof snapshot.lastSeq === "number") sinceSeq = snapshot.lastSeq;
      if (snapshot.state === "succeeded") return unwrapToolResult(snapshot.result);
      const code = TERMINAL_ERROR_CODE[snapshot.state];
      if (code !== undefined) {
        const error = snapshot.error;
        throw new HostApiError(code, error?.message ?? `the job ended ${snapshot.state}`, {
          jobId,
          error,
        });
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new HostApiError(
          SDK_ERROR_CODES.WAIT_TIMEOUT,
          "gave up waiting for the job; it may still finish",
          { jobId },
        );
      }
      if (nudged || aborted(signal)) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(delay, remaining));
        const onAbort = (): void => done();
        function done(): void {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          wake = undefined;
          resolve();
        }
        wake = done;
        signal?.addEventListener("abort", onAbort, { once: true });
      });
      delay = Math.min(delay * 2, JOB_POLL_MAX_MS);
    }
  } finally {
    unsubscribe();
  }
}
