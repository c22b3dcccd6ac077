// Session recordings (A10): one JSON object per line, `t` in ms from session start, and
// `kind: meta | req | res | event`. The reader also accepts the guide's `dir: out | in` lines
// (L7917–L7927), so both styles load through one function.
import { appendFileSync, writeFileSync } from "node:fs";
import type { Clock } from "../clock.js";
import { SYSTEM_CLOCK } from "../clock.js";
import type { HostApiErrorWire } from "../errors/host-api-error.js";

export const RECORDING_FORMAT_VERSION = 1;

export interface MetaRecord {
  t: number;
  kind: "meta";
  format: number;
  started_at: string;
  [field: string]: unknown;
}
export interface ReqRecord {
  t: number;
  kind: "req";
  id: string;
  ns: string;
  method: string;
  args: unknown;
  window_uuid?: string;
}
export type ResRecord =
  | { t: number; kind: "res"; id: string; ns: string; method: string; ok: true; result: unknown }
  | {
      t: number;
      kind: "res";
      id: string;
      ns: string;
      method: string;
      ok: false;
      error: HostApiErrorWire;
    };
export interface EventRecord {
  t: number;
  kind: "event";
  name: string;
  window_uuid?: string;
  payload: unknown;
}
export type RecordingRecord = MetaRecord | ReqRecord | ResRecord | EventRecord;

/** Receives every call and event of a session. */
export interface Recorder {
  req(record: Omit<ReqRecord, "t" | "kind">): void;
  res(
    record:
      | { id: string; ns: string; method: string; ok: true; result: unknown }
      | { id: string; ns: string; method: string; ok: false; error: HostApiErrorWire },
  ): void;
  event(record: Omit<EventRecord, "t" | "kind">): void;
}

export interface JsonlRecorderOptions {
  /** Called with each line (no trailing newline). */
  write: (line: string) => void;
  clock?: Clock;
  /** Extra fields of the `meta` line (app_id, user_id, manifest path…). */
  meta?: Record<string, unknown>;
}

/** Writes the `meta` line at once, then one line per call, answer and event. */
export function createJsonlRecorder(options: JsonlRecorderOptions): Recorder {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const start = clock();
  // `t` never goes backwards even if the injected clock does (verify checks monotonicity).
  let last = 0;
  const t = () => (last = Math.max(last, clock() - start));
  const emit = (record: RecordingRecord) => options.write(JSON.stringify(record));
  emit({
    ...options.meta,
    t: 0,
    kind: "meta",
    format: RECORDING_FORMAT_VERSION,
    started_at: new Date(start).toISOString(),
  });
  return {
    req: (record) => emit({ t: t(), kind: "req", ...record }),
    res: (record) => emit({ t: t(), kind: "res", ...record } as ResRecord),
    event: (record) => emit({ t: t(), kind: "event", ...record }),
  };
}

/** A recorder appending to `path` (created or truncated now); synchronous so no line is lost. */
export function createFileRecorder(
  path: string,
  options: Omit<JsonlRecorderOptions, "write"> = {},
): Recorder {
  writeFileSync(path, "");
  return createJsonlRecorder({ ...options, write: (line) => appendFileSync(path, line + "\n") });
}

export interface RecordingIssue {
  line: number;
  message: string;
}

export interface ParsedRecording {
  records: RecordingRecord[];
  issues: RecordingIssue[];
}

/**
 * Parses a recording in either style. Lines of the `dir` style become `req` + `res` (for `out`)
 * or `event` (for `in`). Never throws: a bad line is an issue with its 1-based line number.
 */
export function parseRecording(text: string): ParsedRecording {
  const records: RecordingRecord[] = [];
  const issues: RecordingIssue[] = [];
  let synthetic = 0;
  let lastT = -Infinity;
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      issues.push({ line, message: "not JSON" });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      issues.push({ line, message: "not a JSON object" });
      return;
    }
    const rec = value as Record<string, unknown>;
    if (typeof rec.t !== "number" || !Number.isFinite(rec.t)) {
      issues.push({ line, message: "`t` must be a number of ms from session start" });
      return;
    }
    if (rec.t < lastT) issues.push({ line, message: `\`t\` goes backwards (${rec.t} < ${lastT})` });
    lastT = rec.t;
    if (rec.kind === "meta") {
      records.push(rec as unknown as MetaRecord);
    } else if (rec.kind === "req" || rec.kind === "res") {
      if (
        typeof rec.id !== "string" ||
        typeof rec.ns !== "string" ||
        typeof rec.method !== "string"
      ) {
        issues.push({ line, message: `a ${rec.kind} line needs string id, ns and method` });
        return;
      }
      if (rec.kind === "res" && typeof rec.ok !== "boolean") {
        issues.push({ line, message: "a res line needs a boolean ok" });
        return;
      }
      records.push(rec as unknown as ReqRecord | ResRecord);
    } else if (rec.kind === "event") {
      if (typeof rec.name !== "string") {
        issues.push({ line, message: "an event line needs a string name" });
        return;
      }
      records.push(rec as unknown as EventRecord);
    } else if (rec.dir === "out") {
      if (typeof rec.ns !== "string" || typeof rec.method !== "string") {
        issues.push({ line, message: "an out line needs string ns and method" });
        return;
      }
      const id = `line-${line}-${synthetic++}`;
      const base = { t: rec.t, id, ns: rec.ns, method: rec.method };
      records.push({ ...base, kind: "req", args: rec.args ?? {} });
      records.push(
        rec.error !== undefined
          ? { ...base, kind: "res", ok: false, error: rec.error as HostApiErrorWire }
          : { ...base, kind: "res", ok: true, result: rec.result },
      );
    } else if (rec.dir === "in") {
      if (typeof rec.name !== "string") {
        issues.push({ line, message: "an in line needs a string name" });
        return;
      }
      records.push({ t: rec.t, kind: "event", name: rec.name, payload: rec.payload });
    } else {
      issues.push({
        line,
        message: "unknown record: expected kind meta|req|res|event or dir out|in",
      });
    }
  });
  return { records, issues };
}
