// What the developer panel shows, kept server-side so a reloaded page sees the history: every
// Host API call with its outcome and timing, and live notices (reload, executa state) pushed to
// the page over its own SSE stream (`/dev/stream`), apart from the app's event stream.
import type { ServerResponse } from "node:http";

/** Calls kept for a freshly opened page. */
export const PANEL_LOG_MAX_ENTRIES = 500;

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

  record(entry: CallEntry): void {
    this.calls.push(entry);
    if (this.calls.length > PANEL_LOG_MAX_ENTRIES) this.calls.shift();
    this.push("call", entry);
  }

  /** Sends one SSE event to every open panel. */
  push(event: string, data: unknown): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of this.clients) client.write(frame);
  }

  attach(res: ServerResponse): void {
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  close(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}
