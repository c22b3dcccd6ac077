import type { Logger } from "../src/types.js";

export interface LogRecord {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that keeps what it is told, for asserting on log lines. */
export function memoryLogger(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at =
    (level: LogRecord["level"]) =>
    (message: string, fields?: Record<string, unknown>): void => {
      records.push({ level, message, fields });
    };
  return { records, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** Resolves when `predicate` holds, checking on every macrotask; fails after `timeoutMs`. */
export async function waitFor(
  predicate: () => boolean,
  timeoutMs = 1000,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Rejects if `promise` does not settle within `timeoutMs`. */
export async function within<T>(
  promise: Promise<T>,
  timeoutMs: number,
  what = "promise",
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
