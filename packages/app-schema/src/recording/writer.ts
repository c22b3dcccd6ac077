// The recording writer: a `meta` line at once, then one line per call, answer and event, every
// line passed through the one redaction list (so no token, credential or known secret value
// lands in a file). Where the lines go is the caller's: a file, memory, a capped sink.
import { Redactor } from "../redact/redact.js";
import {
  RECORDING_FORMAT_VERSION,
  type RecordedError,
  type RecordingRecord,
  type ReqRecord,
  type ResRecord,
} from "./records.js";

/** Receives every call and event of a session. */
export interface Recorder {
  req(record: Omit<ReqRecord, "t" | "kind">): void;
  res(
    record:
      | { id: string; ns: string; method: string; ok: true; result: unknown }
      | { id: string; ns: string; method: string; ok: false; error: RecordedError },
  ): void;
  /** `name` is the event's name (written under both `event` and `name`, see EventRecord). */
  event(record: { name: string; window_uuid?: string; payload: unknown }): void;
}

export interface JsonlRecorderOptions {
  /** Called with each line (no trailing newline). */
  write: (line: string) => void;
  /** Milliseconds since the epoch; default `Date.now`. */
  clock?: () => number;
  /** Extra fields of the `meta` line (app_id, user_id, manifest path, harness_version…). */
  meta?: Record<string, unknown>;
  /** Secret values learnt during the session; default a fresh one (the key list only). */
  redactor?: Redactor;
}

export function createJsonlRecorder(options: JsonlRecorderOptions): Recorder {
  const clock = options.clock ?? Date.now;
  const redactor = options.redactor ?? new Redactor();
  const start = clock();
  // `t` never goes backwards even if the injected clock does (verify checks monotonicity).
  let last = 0;
  const t = () => (last = Math.max(last, clock() - start));
  const emit = (record: RecordingRecord) => options.write(JSON.stringify(redactor.redact(record)));
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
    event: (record) => emit({ t: t(), kind: "event", event: record.name, ...record }),
  };
}
