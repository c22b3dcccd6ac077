// Libraries never print: Nexus code logs through this interface; only main() picks the JSON-lines
// sink on stderr. Field values whose key looks secret are replaced before anything is written.

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

export interface Logger {
  log(level: LogLevel, msg: string, fields?: LogFields): void;
}

export const nullLogger: Logger = { log: () => {} };

// A key is secret when its last word is one of these (`pat`, `user_pat`, `password_hash`…);
// `token_id` or `path` are not.
const SECRET_KEY =
  /(^|_)(pat|password|passwd|hash|secret|token|cookie|authorization|code|session)$/i;
export const REDACTED = "[redacted]";

/** Deep-copies `fields` with every secret-looking key's value replaced. */
export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_KEY.test(k)) out[k] = REDACTED;
    else if (v && typeof v === "object" && !Array.isArray(v)) out[k] = redact(v as LogFields);
    else out[k] = v;
  }
  return out;
}

export function jsonLogger(
  write: (line: string) => void,
  clock: { now(): number } = Date,
  minLevel: LogLevel = "info",
): Logger {
  const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
  return {
    log(level, msg, fields) {
      if (order[level] < order[minLevel]) return;
      const line = { t: new Date(clock.now()).toISOString(), level, msg, ...redact(fields ?? {}) };
      write(JSON.stringify(line) + "\n");
    },
  };
}

/** Collects records in memory (tests assert that no secret reaches a log line). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const inner = jsonLogger((l) => lines.push(l), { now: () => 0 }, "debug");
  return { lines, log: (level, msg, fields) => inner.log(level, msg, fields) };
}

/** Written at once (after what is buffered): a warning or error must not wait or be lost. */
const FLUSH_LEVELS: ReadonlySet<LogLevel> = new Set(["warn", "error"]);
const BUFFER_MAX_BYTES = 16_384;
const BUFFER_MAX_MS = 25;

/**
 * jsonLogger on a buffered sink: info and debug lines (one per request) are gathered and written
 * in one call at most every 25 ms or 16 KiB, instead of one synchronous pipe write per request;
 * warn and error lines flush at once. `flush()` before exiting; a SIGKILL loses at most the
 * last 25 ms of info lines.
 */
export function bufferedJsonLogger(
  write: (chunk: string) => void,
  clock: { now(): number } = Date,
): Logger & { flush(): void } {
  let buffer = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (buffer === "") return;
    const chunk = buffer;
    buffer = "";
    write(chunk);
  };
  const inner = jsonLogger((line) => {
    buffer += line;
    if (buffer.length >= BUFFER_MAX_BYTES) flush();
    else if (timer === undefined) {
      timer = setTimeout(flush, BUFFER_MAX_MS);
      timer.unref();
    }
  }, clock);
  return {
    flush,
    log(level, msg, fields) {
      inner.log(level, msg, fields);
      if (FLUSH_LEVELS.has(level)) flush();
    },
  };
}
