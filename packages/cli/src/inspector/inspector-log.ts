// What the inspector page shows, kept server-side so a reloaded page sees it again: the last
// frames both ways, the plugin's stderr, its state and the invokes made from the page. Everything
// a browser receives went through the session's redactor first; the raw arguments of an invoke
// stay here (Re-run and Save as test case need them as typed).
import type { FrameMeta, JsonRpcMessage } from "@anna-ai/jsonrpc";
import type { InvokeOutcome } from "@anna-ai/executa-host";
import type { DevSession } from "../executa-dev/session.js";

/** Frames kept for a freshly opened page (older ones fall off). */
export const FRAME_RING_SIZE = 500;
/** Plugin stderr lines kept. */
export const STDERR_RING_SIZE = 500;
/** Invokes kept in the history. */
export const HISTORY_SIZE = 200;
/** A frame's JSON past this many characters is kept as a preview: 500 frames stay a few MiB. */
export const FRAME_PREVIEW_CHARS = 16 * 1024;

/** The part of the session's redactor the log needs (the instance may come from the bundle). */
export interface TextRedactor {
  redact<T>(value: T): T;
  text(text: string): string;
}

export interface FrameEntry {
  seq: number;
  /** Epoch milliseconds. */
  at: number;
  /** `out`: host → plugin; `in`: plugin → host. */
  direction: "in" | "out";
  kind: "request" | "notification" | "response" | "error";
  /** The request's method; for a response, the method of the request it answers. */
  method?: string;
  id?: string | number;
  /** A call the plugin made to the host (sampling, storage, …), or the host's answer to one. */
  reverse: boolean;
  bytes: number;
  /** For a response: time since its request crossed. */
  latency_ms?: number;
  file_transport?: string;
  /** The redacted message, or its first FRAME_PREVIEW_CHARS characters as text. */
  message?: unknown;
  preview?: string;
  chars?: number;
}

export type OutcomeView =
  | { ok: true; data: unknown }
  | { ok: false; kind: "tool_failed"; error: string; data?: unknown }
  | {
      ok: false;
      kind: "rpc_error";
      error: { code: number; message: string; error_code?: string; data?: unknown };
    };

export interface HistoryEntry {
  id: number;
  at: number;
  tool: string;
  /** As sent (the page gets a redacted copy). */
  arguments: Record<string, unknown>;
  duration_ms: number;
  outcome: OutcomeView;
  /** The id the host sent the plugin with it: its reverse calls carry it (Save as mock). */
  invoke_id?: string;
}

export interface ProcessView {
  state: string;
  pid: number | null;
  protocol: string | null;
  reason: string | null;
  warnings: string[];
}

type Broadcast = (event: string, data: unknown) => void;

export class InspectorLog {
  readonly frames: FrameEntry[] = [];
  readonly stderr: string[] = [];
  readonly history: HistoryEntry[] = [];
  private seq = 0;
  private nextHistoryId = 1;
  /** Request crossing times and methods, keyed by sender and id (ids are per direction). */
  private readonly pending = new Map<string, { at: number; method: string }>();
  private readonly offs: Array<() => void>;

  constructor(
    private readonly session: DevSession,
    private readonly redactor: TextRedactor,
    private readonly broadcast: Broadcast,
  ) {
    const proc = session.process;
    this.stderr.push(...session.stderrTail().map((line) => redactor.text(line)));
    this.offs = [
      proc.on("frame", (e) => this.addFrame(e.direction, e.message, e.meta)),
      proc.on("stderr", (e) => this.addStderr(e.line)),
      proc.on("state", () => this.broadcast("process", this.processView())),
      proc.on("warning", () => this.broadcast("process", this.processView())),
    ];
  }

  processView(): ProcessView {
    const proc = this.session.process;
    return {
      state: proc.state,
      pid: proc.pid ?? null,
      protocol: proc.protocolVersion ?? null,
      reason: proc.stoppedReason ?? null,
      warnings: [...this.session.warnings],
    };
  }

  /** Records one invoke made from the page; returns the entry as the page sees it. */
  addInvoke(
    tool: string,
    args: Record<string, unknown>,
    outcome: InvokeOutcome,
    invokeId?: string,
  ): HistoryEntry {
    const entry: HistoryEntry = {
      id: this.nextHistoryId++,
      at: Date.now(),
      tool,
      arguments: args,
      duration_ms: Math.round(outcome.durationMs * 10) / 10,
      outcome: outcomeView(outcome),
      ...(invokeId === undefined ? {} : { invoke_id: invokeId }),
    };
    this.history.push(entry);
    if (this.history.length > HISTORY_SIZE) this.history.shift();
    const view = this.historyView(entry);
    this.broadcast("history", view);
    return view;
  }

  findInvoke(id: number): HistoryEntry | undefined {
    return this.history.find((h) => h.id === id);
  }

  historyView(entry: HistoryEntry): HistoryEntry {
    return this.redactor.redact(entry);
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
  }

  private addFrame(direction: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): void {
    const now = Date.now();
    const m = message as { id?: unknown; method?: unknown; error?: unknown };
    const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
    const entry: FrameEntry = {
      seq: ++this.seq,
      at: now,
      direction,
      kind: "notification",
      reverse: false,
      bytes: meta.bytes,
      ...(id === undefined ? {} : { id }),
      ...(meta.fileTransport ? { file_transport: meta.fileTransport } : {}),
    };
    if (typeof m.method === "string") {
      entry.method = m.method;
      if (id !== undefined) {
        entry.kind = "request";
        this.pending.set(`${direction}:${JSON.stringify(id)}`, { at: now, method: m.method });
      }
      entry.reverse = direction === "in" && id !== undefined;
    } else if (id !== undefined) {
      entry.kind = m.error === undefined ? "response" : "error";
      // A response travels the other way from the request it answers.
      const key = `${direction === "in" ? "out" : "in"}:${JSON.stringify(id)}`;
      const request = this.pending.get(key);
      if (request !== undefined) {
        this.pending.delete(key);
        entry.method = request.method;
        entry.latency_ms = now - request.at;
      }
      entry.reverse = direction === "out";
    }
    const text = JSON.stringify(this.redactor.redact(message));
    if (text.length > FRAME_PREVIEW_CHARS) {
      entry.preview = text.slice(0, FRAME_PREVIEW_CHARS);
      entry.chars = text.length;
    } else {
      entry.message = JSON.parse(text) as unknown;
    }
    this.frames.push(entry);
    if (this.frames.length > FRAME_RING_SIZE) this.frames.shift();
    this.broadcast("frame", entry);
  }

  private addStderr(line: string): void {
    const redacted = this.redactor.text(line);
    this.stderr.push(redacted);
    if (this.stderr.length > STDERR_RING_SIZE) this.stderr.shift();
    this.broadcast("stderr", redacted);
  }
}

export function outcomeView(outcome: InvokeOutcome): OutcomeView {
  if (outcome.ok) return { ok: true, data: outcome.data ?? null };
  if (outcome.kind === "tool_failed") {
    const data = (outcome.raw as { data?: unknown } | null | undefined)?.data;
    return {
      ok: false,
      kind: "tool_failed",
      error: outcome.error,
      ...(data === undefined || data === null ? {} : { data }),
    };
  }
  const e = outcome.error;
  return {
    ok: false,
    kind: "rpc_error",
    error: {
      code: e.code,
      message: e.message,
      ...(e.errorCode ? { error_code: e.errorCode } : {}),
      ...(e.data === undefined ? {} : { data: e.data }),
    },
  };
}
