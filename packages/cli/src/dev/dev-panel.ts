// What the developer panel shows, kept server-side so a reloaded page sees the history: every
// Host API call with its outcome and timing, and live notices (reload, executa state) pushed to
// the page over its own SSE stream (`/dev/stream`), apart from the app's event stream.
import type { ServerResponse } from "node:http";

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
}

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

export class DevPanel {
  readonly calls: CallEntry[] = [];
  private readonly clients = new Set<ServerResponse>();
  /** SSE frames of calls not yet sent (see PANEL_CALL_FLUSH_MS). */
  private pendingCalls = "";
  private flushTimer: NodeJS.Timeout | undefined;

  record(entry: CallEntry): void {
    this.calls.push(entry);
    if (this.calls.length > PANEL_LOG_MAX_ENTRIES) this.calls.shift();
    if (this.clients.size === 0) return;
    this.pendingCalls += sseFrame("call", entry);
    if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => this.flushCalls(), PANEL_CALL_FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** Sends one SSE event to every open panel, after the calls recorded before it. */
  push(event: string, data: unknown): void {
    this.flushCalls();
    const frame = sseFrame(event, data);
    for (const client of this.clients) client.write(frame);
  }

  private flushCalls(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pendingCalls === "") return;
    const frames = this.pendingCalls;
    this.pendingCalls = "";
    for (const client of this.clients) client.write(frames);
  }

  attach(res: ServerResponse): void {
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  close(): void {
    this.flushCalls();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
