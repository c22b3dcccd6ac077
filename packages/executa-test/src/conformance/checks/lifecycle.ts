// `health` (T8, H8) and the end of a plugin's life (H4, L1243-L1253): the shutdown request, then
// stdin EOF; a conforming plugin exits 0 on its own within the 5 s grace and leaves nothing in its
// process group. The kit stops it the host's way (SIGTERM, SIGKILL, sweep) whatever it does.

import { PROTOCOL_ERRORS } from "@anna-ai/app-schema";
import {
  HEALTH_TIMEOUT_MS,
  STDIN_GRACE_MS,
  TERM_GRACE_MS,
  groupHasLiveMembers,
  isSupervised,
  shutdownPluginProcess,
} from "@anna-ai/executa-host";
import { assertResponse } from "../../assertions.js";
import { withTimeout } from "../../wait.js";
import type { KitSession } from "../kit-session.js";
import { fail, pass, quoteFrame, warn, type Verdict } from "../verdict.js";

const HEALTHY = new Set(["ready", "healthy", "ok"]);
/** How long the kit waits for the answer to `shutdown` before it closes stdin anyway. */
export const SHUTDOWN_ANSWER_MS = 1_000;
/**
 * Members of the group may still be on their way out when the plugin's exit is seen (a sandbox's
 * namespace being torn down): only what is still there after this grace is left behind.
 */
export const ORPHAN_GRACE_MS = 500;
const ORPHAN_POLL_MS = 10;

async function stillPopulated(pgid: number): Promise<boolean> {
  const deadline = Date.now() + ORPHAN_GRACE_MS;
  while (groupHasLiveMembers(pgid)) {
    if (Date.now() >= deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, ORPHAN_POLL_MS));
  }
  return false;
}

export async function checkHealth(session: KitSession): Promise<Verdict> {
  const started = performance.now();
  const frame = await session.client.health();
  const elapsedMs = Math.round(performance.now() - started);
  const envelope = assertResponse(frame);
  if (elapsedMs > HEALTH_TIMEOUT_MS) {
    return fail(
      `health took ${elapsedMs} ms`,
      `answer health within ${HEALTH_TIMEOUT_MS} ms (the host gives up and reports the plugin unhealthy)`,
    );
  }
  if (envelope.kind === "error") {
    if (envelope.error.code === PROTOCOL_ERRORS.METHOD_NOT_FOUND.code) {
      return pass("no health method (-32601): the host counts that as healthy");
    }
    return fail(
      `health answered error ${envelope.error.code} (${envelope.error.message})`,
      'answer {"status":"ready"} (or -32601 when the plugin has no health method)',
    );
  }
  const result = envelope.result;
  const status =
    typeof result === "object" && result !== null
      ? (result as { status?: unknown }).status
      : undefined;
  if (typeof status === "string" && HEALTHY.has(status)) return pass();
  return warn(
    `health answered status ${JSON.stringify(status)}: ${quoteFrame(frame)}`,
    'answer {"status":"ready","message":"","details":{}} once the plugin can serve (status is one of ready, initializing, error)',
  );
}

export async function checkShutdown(session: KitSession): Promise<Verdict> {
  const { client } = session;
  const pgid = client.pid;
  let leftBehind = false;
  let answer: string | undefined;
  const step = await shutdownPluginProcess(
    {
      pgid,
      // Look at the group the moment the plugin itself exits, before the host's sweep.
      exited: client.exited.then(async () => {
        if (pgid !== undefined) leftBehind = await stillPopulated(pgid);
      }),
      hasExited: () => session.exited,
      requestShutdown: async (timeoutMs) => {
        const frame = await withTimeout(client.shutdown(), timeoutMs, "the shutdown answer");
        answer = assertResponse(frame).kind;
      },
      closeStdin: () => {
        client.child.stdin.end();
      },
    },
    { grace: { shutdownRequestMs: SHUTDOWN_ANSWER_MS } },
  );
  const exit = await client.exited;
  const how = exit.signal === null ? `code ${String(exit.code)}` : `signal ${exit.signal}`;
  if (step === "sigterm" || step === "sigkill") {
    return fail(
      `the plugin did not exit within ${STDIN_GRACE_MS} ms of stdin EOF; the host had to send SIGTERM${step === "sigkill" ? ` and, ${TERM_GRACE_MS} ms later, SIGKILL` : ""} (exit: ${how})`,
      "exit on stdin EOF: end the read loop, flush, and return from main",
    );
  }
  if (leftBehind) {
    return fail(
      "the plugin exited but left processes in its process group (the host killed them)",
      "stop the helpers the plugin started before it exits",
    );
  }
  if (exit.code !== 0) {
    return fail(
      `the plugin exited with ${how} after stdin EOF`,
      "exit 0 on a requested shutdown: the host counts a non-zero exit as a crash against the restart budget",
    );
  }
  const ending =
    answer === undefined
      ? "exited before answering shutdown"
      : `shutdown answered with a ${answer}, then exited 0 on stdin EOF`;
  // In the sandbox, helpers die with its namespace: a leak shows only without the supervisor.
  const sandboxed = isSupervised(client.child)
    ? "; sandboxed, so helpers it leaves die with the sandbox (ANNA_EXECUTA_SUPERVISOR=none shows them)"
    : "";
  return pass(`${ending}${sandboxed}`);
}
