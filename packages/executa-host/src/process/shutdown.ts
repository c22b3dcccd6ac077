// H4, exactly: `shutdown` request (a -32601 answer is fine) → close stdin → 5 s → SIGTERM → 5 s →
// SIGKILL, each signal to the whole process group. An invoke timeout (H5) enters at SIGTERM.

import { groupHasLiveMembers, signalGroup, sweepGroup } from "./spawn.js";

export const SHUTDOWN_REQUEST_TIMEOUT_MS = 1_000;
export const STDIN_GRACE_MS = 5_000;
export const TERM_GRACE_MS = 5_000;
/** After SIGKILL the kernel is quick; this only bounds the wait for the exit event. */
export const KILL_WAIT_MS = 5_000;
/** Swept group members are reaped by init, not by us: wait (bounded) until they are gone. */
export const GROUP_REAP_WAIT_MS = 1_000;
const GROUP_POLL_MS = 10;

export interface ShutdownGrace {
  shutdownRequestMs: number;
  stdinGraceMs: number;
  termGraceMs: number;
  killWaitMs: number;
}

export const DEFAULT_SHUTDOWN_GRACE: ShutdownGrace = Object.freeze({
  shutdownRequestMs: SHUTDOWN_REQUEST_TIMEOUT_MS,
  stdinGraceMs: STDIN_GRACE_MS,
  termGraceMs: TERM_GRACE_MS,
  killWaitMs: KILL_WAIT_MS,
});

export interface ShutdownTarget {
  /** Process group id (the leader's pid); undefined when the spawn itself failed. */
  pgid: number | undefined;
  /** Resolves once the leader has exited (and been reaped). Never rejects. */
  exited: Promise<unknown>;
  hasExited(): boolean;
  /** Send the `shutdown` request; any answer, error or timeout moves on to the next step. */
  requestShutdown?(timeoutMs: number): Promise<unknown>;
  /** Close the plugin's stdin: well-behaved plugins exit on EOF. */
  closeStdin(): Promise<void> | void;
}

/** The last step that was needed; "already_exited" when there was nothing to stop. */
export type ShutdownStep = "already_exited" | "request" | "stdin_eof" | "sigterm" | "sigkill";

export interface ShutdownOptions {
  grace?: Partial<ShutdownGrace>;
  /** Skip the polite steps (invoke timeout, H5): SIGTERM right away, SIGKILL after the grace. */
  startAt?: "request" | "sigterm";
}

function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}

export async function shutdownPluginProcess(
  target: ShutdownTarget,
  options: ShutdownOptions = {},
): Promise<ShutdownStep> {
  const grace: ShutdownGrace = { ...DEFAULT_SHUTDOWN_GRACE, ...options.grace };
  const step = await escalate(target, grace, options.startAt ?? "request");
  if (target.pgid !== undefined && sweepGroup(target.pgid)) await reaped(target.pgid);
  return step;
}

/** No event tells us when processes that are not our children are gone: poll, bounded. */
async function reaped(pgid: number): Promise<void> {
  const deadline = Date.now() + GROUP_REAP_WAIT_MS;
  while (groupHasLiveMembers(pgid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }
}

async function escalate(
  target: ShutdownTarget,
  grace: ShutdownGrace,
  startAt: "request" | "sigterm",
): Promise<ShutdownStep> {
  if (target.hasExited() || target.pgid === undefined) {
    await target.closeStdin();
    return "already_exited";
  }
  if (startAt === "request") {
    if (target.requestShutdown !== undefined) {
      await settlesWithin(
        target.requestShutdown(grace.shutdownRequestMs).catch(() => undefined),
        grace.shutdownRequestMs,
      );
      if (target.hasExited()) {
        await target.closeStdin();
        return "request";
      }
    }
    await target.closeStdin();
    if (await settlesWithin(target.exited, grace.stdinGraceMs)) return "stdin_eof";
  } else {
    await target.closeStdin();
  }
  signalGroup(target.pgid, "SIGTERM");
  if (await settlesWithin(target.exited, grace.termGraceMs)) return "sigterm";
  signalGroup(target.pgid, "SIGKILL");
  await settlesWithin(target.exited, grace.killWaitMs);
  return "sigkill";
}
