// Libraries never print: Nexus code logs through this interface; only main() picks the JSON-lines
// sink on stderr. Field values whose key looks secret are replaced before anything is written.

export type LogLevel = "debug" | "info" | "warn" | "error";
/** `json`: one JSON object per line (for collectors); `pretty`: one readable line (a terminal). */
export type LogFormat = "json" | "pretty";
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
// Secrets inside a value under an innocent key (an error message quoting a header, a URL with
// `?pat=`): our token prefixes, a Bearer/Basic credential, a cookie or a secret query parameter.
const SECRET_IN_TEXT =
  /\banna_(?:pat|upl)_[A-Za-z0-9_-]+|\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+|\b(cookie|set-cookie|authorization)(["']?\s*[:=]\s*)[^\n,;}]+|([?&](?:pat|token|code|signature|X-Amz-Signature|X-Amz-Credential)=)[^&\s"]+/gi;

/** `text` with every secret-looking run replaced (the key words kept, so the line still reads). */
export function redactText(text: string): string {
  return text.replace(
    SECRET_IN_TEXT,
    (_m, scheme?: string, header?: string, sep?: string, param?: string) =>
      scheme
        ? `${scheme} ${REDACTED}`
        : header
          ? `${header}${sep}${REDACTED}`
          : param
            ? `${param}${REDACTED}`
            : REDACTED,
  );
}

/** Deep-copies `fields` with every secret-looking key's value, and secret-looking text, replaced. */
export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields))
    out[k] = SECRET_KEY.test(k) ? REDACTED : redactValue(v);
  return out;
}

function redactValue(v: unknown): unknown {
  if (typeof v === "string") return redactText(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (v && typeof v === "object") return redact(v as LogFields);
  return v;
}

/** One line of a record; `time`, `level` and `msg` first so every line starts alike. */
export function formatRecord(
  format: LogFormat,
  time: number,
  level: LogLevel,
  msg: string,
  fields: LogFields,
): string {
  const iso = new Date(time).toISOString();
  if (format === "json") {
    return JSON.stringify({ time: iso, level, msg: redactText(msg), ...fields }) + "\n";
  }
  const rest = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === "string" && !/[\s"=]/.test(v) ? v : JSON.stringify(v)}`)
    .join(" ");
  return `${iso.slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${redactText(msg)}${rest ? ` ${rest}` : ""}\n`;
}

export function jsonLogger(
  write: (line: string) => void,
  clock: { now(): number } = Date,
  minLevel: LogLevel = "info",
  format: LogFormat = "json",
): Logger {
  const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
  return {
    log(level, msg, fields) {
      if (order[level] < order[minLevel]) return;
      write(formatRecord(format, clock.now(), level, msg, redact(fields ?? {})));
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
  format: LogFormat = "json",
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
  const inner = jsonLogger(
    (line) => {
      buffer += line;
      if (buffer.length >= BUFFER_MAX_BYTES) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, BUFFER_MAX_MS);
        timer.unref();
      }
    },
    clock,
    "info",
    format,
  );
  return {
    flush,
    log(level, msg, fields) {
      inner.log(level, msg, fields);
      if (FLUSH_LEVELS.has(level)) flush();
    },
  };
}
