// The records of a session recording as our writer puts them on disk (A10): one JSON object per
// line, `t` in ms from the session start, `kind: meta | req | res | event`. The reader
// (parse-recording.ts) also takes the upstream harness's variants of the same records.

export const RECORDING_FORMAT_VERSION = 1;

/** A failed call's error as recorded: the Host API's string code and message. */
export interface RecordedError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

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
      error: RecordedError;
    };
/**
 * An event names itself in `event`, which is the key the upstream reader looks for (a record
 * naming its event only in `name` fails there), and in `name`, which earlier versions of ours
 * wrote and read. Our reader takes either.
 */
export interface EventRecord {
  t: number;
  kind: "event";
  event: string;
  name: string;
  window_uuid?: string;
  payload: unknown;
}
export type RecordingRecord = MetaRecord | ReqRecord | ResRecord | EventRecord;
