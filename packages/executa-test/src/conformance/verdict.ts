// How a check says what it found, and the one wrapper that times it and turns a thrown error (a
// timeout, the plugin exiting, an assertion) into a failed result that quotes what happened.

import { EnvelopeAssertionError } from "../assertions.js";
import type { Frame } from "../frame.js";
import type { CheckDefinition } from "./check-catalog.js";
import type { CheckResult, Finding } from "./report.js";

export type Verdict =
  | { status: "pass"; note?: string }
  | { status: "fail" | "warn"; finding: Finding; note?: string }
  | { status: "skip"; note: string };

/** How much of a frame a finding quotes. */
export const FINDING_QUOTE_MAX_CHARS = 240;

export function pass(note?: string): Verdict {
  return note === undefined ? { status: "pass" } : { status: "pass", note };
}

export function fail(observed: string, expected: string): Verdict {
  return { status: "fail", finding: { observed, expected } };
}

export function warn(observed: string, expected: string): Verdict {
  return { status: "warn", finding: { observed, expected } };
}

export function skip(note: string): Verdict {
  return { status: "skip", note };
}

export function quoteFrame(frame: Frame): string {
  const line = frame.line;
  return line.length > FINDING_QUOTE_MAX_CHARS
    ? `${line.slice(0, FINDING_QUOTE_MAX_CHARS)}…`
    : line;
}

/** An assertion's message without its quoted frame, then the frame (so findings stay one line). */
export function describeFailure(error: unknown): string {
  if (error instanceof EnvelopeAssertionError) {
    return error.frame === undefined
      ? error.detail
      : `${error.detail}; frame: ${quoteFrame(error.frame)}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  // Waits append the client's state and the stderr tail on later lines: a finding keeps the
  // stderr (joined on one line) and drops the counters, which mean nothing to a plugin author.
  return message
    .replace(/; unclaimed frames: \d+; garbage lines: \d+; stderr tail:\s*/, "; stderr: ")
    .replace(/\s*\n\s*/g, " | ")
    .replace(/; stderr: $/, "");
}

export async function runCheck(
  definition: CheckDefinition,
  body: () => Promise<Verdict>,
  expectedOnError = "answer the request with a well-formed JSON-RPC response and keep running",
): Promise<CheckResult> {
  const started = performance.now();
  let verdict: Verdict;
  try {
    verdict = await body();
  } catch (error) {
    verdict = fail(describeFailure(error), expectedOnError);
  }
  return { ...definition, ...verdict, durationMs: Math.round(performance.now() - started) };
}
