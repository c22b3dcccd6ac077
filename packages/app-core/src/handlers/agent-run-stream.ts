// A window's `agent.session.run`: the call answers `{stream_id, run_id}` as soon as the run has
// produced its first frame (a refused run still rejects the call, as before it starts nothing
// is streamed), and every frame goes out as an `rpc.stream` event as the service produces it,
// ending in `{event: "end", run_id}` (R109). Services that only return their frames at the end
// (fixtures, the offline agent) stream them then. A failure after the answer is an `error`
// frame, then `end`: the caller has nothing else to reject.
import type { AgentSessionRunResult } from "@anna-ai/app-schema";
import type { AgentRunObserver } from "@anna-ai/executa-host";
import { callService } from "../dispatcher/service-errors.js";
import type { CallContext } from "../dispatcher/types.js";
import { newStreamId, openWindowStream } from "./streams.js";

export type StartRun = (
  live: AgentRunObserver,
  signal: AbortSignal,
) => Promise<AgentSessionRunResult>;

export async function runToWindowStream(
  ctx: CallContext,
  start: StartRun,
): Promise<{ stream_id: string; run_id: string }> {
  const streamId = newStreamId();
  const stream = openWindowStream(ctx, streamId);
  // The call's signal (its HTTP request) only counts until the call answers; after that the
  // run is stopped by agent.session.cancel, not by the request ending.
  const abort = new AbortController();
  const follow = () => abort.abort(ctx.signal?.reason);
  ctx.signal?.addEventListener("abort", follow, { once: true });
  if (ctx.signal?.aborted === true) follow();

  let streamed = 0;
  let firstFrame: (runId: string) => void = () => undefined;
  const started = new Promise<string>((resolve) => (firstFrame = resolve));
  const live: AgentRunObserver = {
    onFrame(frame, runId) {
      stream.push(frame);
      streamed += 1;
      firstFrame(runId);
    },
  };
  const finished = callService(ctx, () => start(live, abort.signal)).then((result) => {
    for (const frame of result.frames.slice(streamed)) stream.push(frame);
    stream.push({ event: "end", run_id: result.run_id }, true);
    return result.run_id;
  });
  let runId: string;
  try {
    runId = await Promise.race([started, finished]);
  } finally {
    ctx.signal?.removeEventListener("abort", follow);
  }
  finished.catch((error: unknown) => {
    const e = error as { code?: unknown; message?: unknown };
    stream.push({
      event: "error",
      run_id: runId,
      code: typeof e.code === "string" ? e.code : "internal_error",
      message: typeof e.message === "string" ? e.message : String(error),
    });
    stream.push({ event: "end", run_id: runId }, true);
  });
  stream.release();
  return { stream_id: streamId, run_id: runId };
}
