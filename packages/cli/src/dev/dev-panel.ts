// What the developer panel shows, kept server-side so a reloaded page sees the history: every
// Host API call with its outcome and timing, and live notices (reload, executa state) pushed to
// the page over its own SSE stream (`/dev/stream`), apart from the app's event stream.
import type { SseSink } from "@anna-ai/app-core/http";

/** Calls kept for a freshly opened page. */
export const PANEL_LOG_MAX_ENTRIES = 500;

/**
 * Call rows reach the page in batches at most this often. Each batch is one write, so the page
 * adds its rows in one task and renders once: a render per call, on the page that also runs the
 * iframe's bridge, about doubled a Host API round trip from the iframe (bench/app-dev).
 */
export const PANEL_CALL_FLUSH_MS = 100;

export type CallOutcome = "allowed" | "denied" | "error";

export interface CallEntry {
  id: string;
  ts: number;
  window_uuid: string;
  ns: string;
  method: string;
  args: unknown;
  outcome: CallOutcome;
  ms: number;
  result?: unknown;
  error?: { code: string; message: string; details?: unknown };
  /** The call worked but not as its author may think (e.g. `if_match` on legacy storage). */
  warning?: string;
}

/** What the panel saw, for the terminal's one line per happening (`anna-app dev` without --quiet). */
export type DevActivity =
  { kind: "call"; entry: CallEntry } | { kind: "notice"; event: string; data: unknown };

/** Codes that mean "the gate refused", as opposed to a handler failing. */
const DENIAL_CODES = new Set([
  "permission_denied",
  "invalid_token",
  "method_not_found",
  "APP_NOT_GRANTED",
  "llm_disabled",
]);

export function outcomeOf(answer: { ok: boolean; error?: { code: string } }): CallOutcome {
  if (answer.ok) return "allowed";
  return DENIAL_CODES.has(answer.error?.code ?? "") ? "denied" : "error";
}

/** How a frame reaches a page's stream (the harness's bounded writer; plain write in tests). */
export type SseWrite = (res: SseSink, frame: string) => void;

export class DevPanel {
  /** The last PANEL_LOG_MAX_ENTRIES calls. */
  readonly calls: CallEntry[] = [];
  private readonly clients = new Set<SseSink>();
  private readonly activityListeners = new Set<(activity: DevActivity) => void>();
  /** SSE frames of calls not yet sent (see PANEL_CALL_FLUSH_MS). */
  private pendingCalls = "";
  private flushTimer: NodeJS.Timeout | undefined;
  /** Calls recorded so far; the n-th call's sequence number is n. */
  private recorded = 0;
  /** The last call sent to the open streams, or recorded while none was open. */
  private settled = 0;

  constructor(private readonly write: SseWrite = (res, frame) => res.write(frame)) {}

  /** How many calls were recorded: a page that showed `calls` attaches with `after` = this. */
  get recordedCount(): number {
    return this.recorded;
  }

  /** Every call and notice as it happens; answers the function that stops listening. */
  onActivity(listener: (activity: DevActivity) => void): () => void {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  record(entry: CallEntry): void {
    for (const listener of this.activityListeners) listener({ kind: "call", entry });
    this.calls.push(entry);
    if (this.calls.length > PANEL_LOG_MAX_ENTRIES) this.calls.shift();
    this.recorded += 1;
    if (this.clients.size === 0) {
      this.settled = this.recorded;
      return;
    }
    this.pendingCalls += sseFrame("call", entry, this.recorded);
    if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => this.flushCalls(), PANEL_CALL_FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** Sends one SSE event to every open panel, after the calls recorded before it. */
  push(event: string, data: unknown): void {
    for (const listener of this.activityListeners) listener({ kind: "notice", event, data });
    this.flushCalls();
    const frame = sseFrame(event, data);
    for (const client of this.clients) this.write(client, frame);
  }

  private flushCalls(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pendingCalls === "") return;
    const frames = this.pendingCalls;
    this.pendingCalls = "";
    this.settled = this.recorded;
    for (const client of this.clients) this.write(client, frames);
  }

  /**
   * Adds a page's stream. `after`: the calls the page already shows (its boot state's
   * `recordedCount`); the ones recorded since, before this stream opened, are sent first, so a
   * call made while the page was loading is not missing from its panel. Calls still waiting for
   * the next flush go out with it.
   */
  attach(res: SseSink, after?: number): void {
    if (after !== undefined && after < this.settled) {
      const firstSeq = this.recorded - this.calls.length + 1;
      const from = Math.max(0, after + 1 - firstSeq);
      const missed = this.calls.slice(from, this.settled + 1 - firstSeq);
      if (missed.length > 0) {
        this.write(
          res,
          missed.map((entry, i) => sseFrame("call", entry, firstSeq + from + i)).join(""),
        );
      }
    }
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  close(): void {
    this.flushCalls();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

/**
 * A call frame carries its sequence number as the SSE `id`: a page whose stream drops reconnects
 * with it as `Last-Event-ID` and gets only the calls after it, not its boot state's again.
 */
function sseFrame(event: string, data: unknown, id?: number): string {
  const head = id === undefined ? "" : `id: ${id}\n`;
  return `${head}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
