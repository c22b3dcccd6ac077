// Several invokes in flight on one process (T7, L1071), the invoke_id every reverse call must echo
// so the host can route it (T12, L1044-L1071), and cancellation: the host gives up on an invoke
// (a cancelled tool job, a timeout) without a wire message — the protocol has none — and the
// plugin must go on serving; reverse calls of the abandoned invoke are refused.

import { assertResponse } from "../../assertions.js";
import type { ContractCase } from "../../contract-cases.js";
import { withTimeout } from "../../wait.js";
import type { KitSession, ReverseCall } from "../kit-session.js";
import { describeFailure, fail, pass, skip, warn, type Verdict } from "../verdict.js";

/** At most this many invokes at once: enough to interleave, few enough for a 2-core runner. */
export const MAX_CONCURRENT_INVOKES = 6;
/** How long the cancellation check waits for the tool to make its first reverse call. */
export const REVERSE_CALL_WAIT_MS = 3_000;

/** One accepted case per tool, the first tool twice, so at least two invokes overlap. */
function concurrentCases(cases: readonly ContractCase[]): ContractCase[] {
  const perTool = new Map<string, ContractCase>();
  for (const c of cases)
    if (c.expect === "accepted" && !perTool.has(c.tool)) perTool.set(c.tool, c);
  const picked = [...perTool.values()];
  const first = picked[0];
  if (first !== undefined) picked.push(first);
  return picked.slice(0, MAX_CONCURRENT_INVOKES);
}

export async function checkConcurrent(
  session: KitSession,
  cases: readonly ContractCase[],
): Promise<Verdict> {
  const picked = concurrentCases(cases);
  if (picked.length < 2) return skip("no tool with arguments the kit can build");
  const settled = await Promise.allSettled(picked.map((c) => session.invoke(c.tool, c.arguments)));
  const problems: string[] = [];
  settled.forEach((outcome, index) => {
    const tool = picked[index]?.tool ?? "?";
    if (outcome.status === "rejected") {
      problems.push(`${tool}: ${describeFailure(outcome.reason)}`);
      return;
    }
    try {
      assertResponse(outcome.value);
    } catch (error) {
      problems.push(`${tool}: ${describeFailure(error)}`);
    }
  });
  if (problems.length > 0) {
    return fail(
      `${problems.length} of ${picked.length} concurrent invokes went wrong: ${problems.join("; ")}`,
      "answer every invoke, each with its own request id, while others are in flight",
    );
  }
  return pass(`${picked.length} invokes in flight at once, all answered`);
}

function describeCall(call: ReverseCall): string {
  const id =
    call.invokeId === undefined ? "no invoke_id" : `invoke_id ${JSON.stringify(call.invokeId)}`;
  return `${call.method} with ${id} while ${call.active.length} invoke(s) were in flight`;
}

export function checkReverseInvokeId(session: KitSession): Verdict {
  const calls = session.reverseCalls;
  if (calls.length === 0) return skip("the plugin made no reverse calls in this run");
  const missing = calls.filter((c) => c.routing === "missing");
  const unknown = calls.filter((c) => c.routing === "unknown");
  const expected =
    'echo params.context.invoke_id of the invoke being served in every reverse call: "params": {…, "context": {"invoke_id": "<the invoke\'s id>"}} (the SDKs do it inside bindInvoke / bind_invoke)';
  const bad = [...missing, ...unknown];
  const firstBad = bad[0];
  if (firstBad !== undefined) {
    const codes = `${missing.length > 0 ? "MISSING_INVOKE_CONTEXT" : ""}${missing.length > 0 && unknown.length > 0 ? ", " : ""}${unknown.length > 0 ? "UNKNOWN_INVOKE_CONTEXT" : ""}`;
    return fail(
      `${bad.length} of ${calls.length} reverse call(s) could not be routed (${codes}), first: ${describeCall(firstBad)}`,
      expected,
    );
  }
  const fallback = calls.filter((c) => c.routing === "single_fallback");
  const firstFallback = fallback[0];
  if (firstFallback !== undefined) {
    return warn(
      `${fallback.length} reverse call(s) carried no invoke_id and were routed only because one invoke was in flight, first: ${describeCall(firstFallback)}`,
      expected,
    );
  }
  return pass(`${calls.length} reverse call(s), each with its invoke's id`);
}

export async function checkCancellation(
  session: KitSession,
  cases: readonly ContractCase[],
): Promise<Verdict> {
  const accepted = cases.filter((c) => c.expect === "accepted");
  const callers = session.toolsWithReverseCalls();
  const testCase = accepted.find((c) => callers.has(c.tool)) ?? accepted[0];
  if (testCase === undefined) return skip("no tool with arguments the kit can build");
  const invokeId = session.newInvokeId();
  const reverseArrived = callers.has(testCase.tool)
    ? session.holdReverseCalls(invokeId)
    : undefined;
  const abandoned = session.invoke(testCase.tool, testCase.arguments, invokeId);
  // The late answer, if any, is judged below; until then it must not become an unhandled rejection.
  abandoned.catch(() => undefined);
  let midCall = false;
  if (reverseArrived !== undefined) {
    midCall = await withTimeout(reverseArrived, REVERSE_CALL_WAIT_MS, "the reverse call").then(
      () => true,
      () => false,
    );
  }
  session.abandon(invokeId);
  const where = midCall ? "while its reverse call was pending" : "right after sending it";
  try {
    assertResponse(await session.client.health());
    assertResponse(await session.invoke(testCase.tool, testCase.arguments));
  } catch (error) {
    return fail(
      `after the host abandoned invoke ${testCase.tool} ${where}, the plugin stopped serving: ${describeFailure(error)}`,
      "keep serving other requests when an invoke is abandoned; a refused reverse call (ABORTED, UNKNOWN_INVOKE_CONTEXT) ends that invoke only",
    );
  }
  try {
    assertResponse(await abandoned);
  } catch (error) {
    return warn(
      `the abandoned invoke ${testCase.tool} was answered with a malformed frame or not at all: ${describeFailure(error)}`,
      "answer every request once, even one whose reverse call was refused (the host drops the late answer)",
    );
  }
  return pass(`invoke ${testCase.tool} abandoned ${where}; the plugin kept serving`);
}
