// One step's tool calls, run in parallel. Each call gets its own deadline (the tool's
// `timeoutMs`, else the runner's default) on top of the turn's signal; whatever goes wrong (an
// unknown name, a throw, a timeout, the turn's cancellation) becomes an `isError` result the
// model can read, never an exception out of the runner. A tool that ignores its signal is not
// waited for: its result is settled the moment its signal aborts.
import type { ToolCall } from "../gateway/types.js";
import { boundToolOutput } from "./bound-output.js";
import type { AgentTool, ToolContext, ToolOutcome } from "./types.js";

/** The default time a tool call may take (the executa host's default invoke timeout, H5). */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

export interface ToolRunResult {
  call: ToolCall;
  output: unknown;
  isError: boolean;
  durationMs: number;
}

export interface RunToolsOptions {
  tools: ReadonlyMap<string, AgentTool>;
  context: Omit<ToolContext, "signal">;
  signal: AbortSignal;
  defaultTimeoutMs: number;
  maxOutputBytes: number;
  clock: () => number;
  /** Called as each call settles, in completion order (the stream shows results as they come). */
  onResult: (result: ToolRunResult) => Promise<void> | void;
}

/** Runs every call at once; resolves with the results in the order the model asked. */
export async function runToolCalls(
  calls: readonly ToolCall[],
  options: RunToolsOptions,
): Promise<ToolRunResult[]> {
  return Promise.all(
    calls.map(async (call) => {
      const started = options.clock();
      const outcome = await runOne(call, options);
      const result: ToolRunResult = {
        call,
        output: boundToolOutput(outcome.output, options.maxOutputBytes),
        isError: outcome.isError === true,
        durationMs: Math.max(0, options.clock() - started),
      };
      await options.onResult(result);
      return result;
    }),
  );
}

async function runOne(call: ToolCall, options: RunToolsOptions): Promise<ToolOutcome> {
  const tool = options.tools.get(call.name);
  if (tool === undefined) {
    const known = [...options.tools.keys()];
    return {
      isError: true,
      output: {
        error: `no tool named '${call.name}' in this turn; ${
          known.length === 0 ? "this turn has no tools" : `the tools are: ${known.join(", ")}`
        }`,
      },
    };
  }
  if (options.signal.aborted) return cancelled(call);
  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  const own = new AbortController();
  const signal = AbortSignal.any([options.signal, own.signal]);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    own.abort(new Error(`tool '${call.name}' timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const stopped = new Promise<ToolOutcome>((resolve) => {
    signal.addEventListener(
      "abort",
      () =>
        resolve(
          timedOut
            ? {
                isError: true,
                output: {
                  error: `tool '${call.name}' did not answer within ${timeoutMs} ms and was stopped`,
                },
              }
            : cancelled(call),
        ),
      { once: true },
    );
  });
  try {
    const running = Promise.resolve()
      .then(() => tool.execute(call.input, { ...options.context, signal }))
      .catch((err: unknown): ToolOutcome => ({
        isError: true,
        output: { error: `tool '${call.name}' failed: ${messageOf(err)}` },
      }));
    // Whichever settles first; a late answer from an aborted tool is dropped.
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    own.abort();
  }
}

function cancelled(call: ToolCall): ToolOutcome {
  return {
    isError: true,
    output: { error: `tool '${call.name}' was stopped: the turn was cancelled` },
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
