// Live replay of a recording into a harness window: every recorded call is issued again, in
// order, through the harness's own call path (token, ACL, `manifest.dev.mocks`, handler — the
// same as a call from the iframe, so it reaches the panel and the session recording), and each
// answer is compared with the recorded one. Where `anna-app fixture replay` projects verdicts
// without running anything (D49), this runs the calls: it also catches a changed result.
// Events are not re-emitted: the dispatcher emits its own as the calls run.
import type { CallResult } from "@anna-ai/app-core";
import { errorCount, REDACTED, type RecordedCall, type Recording } from "@anna-ai/app-schema";
import { isJsonObject } from "@anna-ai/app-core/http";

/**
 * Result keys that name this session rather than what the app did (ids, tokens, times): a
 * replay never reproduces them, so they are not compared.
 */
export const VOLATILE_RESULT_KEYS: ReadonlySet<string> = new Set([
  "window_uuid",
  "token",
  "expires_in",
  "expires_at",
  "etag",
  "job_id",
  "stream_id",
  "run_id",
  "app_session_uuid",
  "thread_id",
  "upload_id",
  "r2_key",
  "created_at",
  "updated_at",
  "message_id",
]);

/** Differences listed per call; the rest are counted. */
export const MAX_DIFFERENCES_PER_CALL = 5;

export type ReplayVerdict = "match" | "differs" | "skipped";

export interface ReplayedCall {
  /** Line of the call in the recording. */
  line: number;
  ns: string;
  method: string;
  recorded: { ok: boolean; code?: string };
  /** Absent when the call was skipped. */
  replayed?: { ok: boolean; code?: string; message?: string };
  verdict: ReplayVerdict;
  /** What differs (`result.value: 3 → 4`, `outcome: ok → permission_denied`), or why skipped. */
  differences: string[];
}

export interface LiveReplayReport {
  file: string;
  window_uuid: string;
  calls: ReplayedCall[];
  matched: number;
  differed: number;
  skipped: number;
}

/** Why a recording cannot be replayed; the endpoint answers 422 with it. */
export class ReplayRefused extends Error {
  readonly issues: Recording["issues"];
  constructor(message: string, issues: Recording["issues"] = []) {
    super(message);
    this.name = "ReplayRefused";
    this.issues = issues;
  }
}

export type IssueCall = (ns: string, method: string, args: unknown) => Promise<CallResult>;

/**
 * Refuses (before issuing anything) a recording with errors, or one that holds plugin frames
 * rather than Host API calls; then replays every answered call in order.
 */
export async function replayIntoWindow(
  file: string,
  windowUuid: string,
  recording: Recording,
  issue: IssueCall,
): Promise<LiveReplayReport> {
  if (recording.style === "frame") {
    throw new ReplayRefused(
      `${file} is an executa dev transcript (plugin frames), not Host API calls; replay an anna-app dev recording`,
    );
  }
  const errors = errorCount(recording.issues);
  if (errors > 0) {
    throw new ReplayRefused(
      `${file} has ${errors} broken line(s); nothing was replayed — run anna-app fixture verify ${file}`,
      recording.issues.filter((i) => i.severity === "error"),
    );
  }
  const calls: ReplayedCall[] = [];
  for (const call of recording.calls) calls.push(await replayOne(call, issue));
  const count = (verdict: ReplayVerdict) => calls.filter((c) => c.verdict === verdict).length;
  return {
    file,
    window_uuid: windowUuid,
    calls,
    matched: count("match"),
    differed: count("differs"),
    skipped: count("skipped"),
  };
}

async function replayOne(call: RecordedCall, issue: IssueCall): Promise<ReplayedCall> {
  const base = { line: call.line, ns: call.ns, method: call.method };
  const recorded = {
    ok: call.outcome === "ok",
    ...(call.errorCode === undefined ? {} : { code: call.errorCode }),
  };
  if (call.outcome === "pending") {
    return {
      ...base,
      recorded,
      verdict: "skipped",
      differences: ["never answered in the recording"],
    };
  }
  const answer = await issue(call.ns, call.method, call.args);
  const replayed = answer.ok
    ? { ok: true }
    : { ok: false, code: answer.error.code, message: answer.error.message };
  const differences: string[] = [];
  if (recorded.ok !== answer.ok || (!answer.ok && recorded.code !== answer.error.code)) {
    differences.push(`outcome: ${recorded.code ?? "ok"} → ${answer.ok ? "ok" : answer.error.code}`);
  } else if (answer.ok && "result" in call) {
    diffJson(call.result, answer.result, "result", differences);
  }
  const shown = differences.slice(0, MAX_DIFFERENCES_PER_CALL);
  if (differences.length > shown.length) {
    shown.push(`… ${differences.length - shown.length} more`);
  }
  return {
    ...base,
    recorded,
    replayed,
    verdict: differences.length === 0 ? "match" : "differs",
    differences: shown,
  };
}

/**
 * Appends `path: before → after` for every leaf that differs, skipping volatile keys and values
 * the recording redacted (a secret is never written, so it cannot be compared).
 */
function diffJson(before: unknown, after: unknown, at: string, out: string[]): void {
  if (before === REDACTED) return;
  if (isJsonObject(before) && isJsonObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) {
      if (VOLATILE_RESULT_KEYS.has(key)) continue;
      diffJson(before[key], after[key], `${at}.${key}`, out);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item, i) => diffJson(item, after[i], `${at}[${i}]`, out));
    return;
  }
  const a = JSON.stringify(before);
  const b = JSON.stringify(after);
  if (a !== b) out.push(`${at}: ${short(a)} → ${short(b)}`);
}

function short(json: string | undefined, maxChars = 80): string {
  const text = json ?? "(absent)";
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
