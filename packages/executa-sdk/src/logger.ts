// Plugin logs: one JSON object per line on stderr (stdout belongs to the protocol). The host
// surfaces stderr in traces, so secrets never reach it: secret-looking keys are masked by
// redactSecrets, and the invoke's credential values are masked wherever they appear.

import { maskText, redactSecrets, secretValues, type Logger } from "@anna-ai/jsonrpc";

export type LogLevel = "debug" | "info" | "warn" | "error";

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface StderrLoggerOptions {
  /** Fields added to every line (plugin, tool, invoke_id). */
  fields?: Record<string, unknown>;
  /** Literal values to mask wherever they appear (credential values of the invoke). */
  secrets?: readonly string[];
  /** Lines below this level are dropped. Default from `EXECUTA_LOG_LEVEL`, else "info". */
  level?: LogLevel;
  /** Where lines go; default `process.stderr`. */
  write?: (line: string) => void;
}

function defaultLevel(): LogLevel {
  const value = process.env.EXECUTA_LOG_LEVEL?.toLowerCase();
  return value !== undefined && value in LEVEL_RANK ? (value as LogLevel) : "info";
}

function errorFields(value: unknown): unknown {
  if (value instanceof Error)
    return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** A Logger writing redacted JSON lines to stderr; `child` adds fields and secrets. */
export class StderrLogger implements Logger {
  private readonly fields: Record<string, unknown>;
  private readonly secrets: readonly string[];
  private readonly minRank: number;
  private readonly writeLine: (line: string) => void;

  constructor(options: StderrLoggerOptions = {}) {
    this.fields = options.fields ?? {};
    this.secrets = secretValues(options.secrets ?? []);
    this.minRank = LEVEL_RANK[options.level ?? defaultLevel()];
    this.writeLine = options.write ?? ((line) => void process.stderr.write(line));
  }

  child(fields: Record<string, unknown>, secrets: readonly string[] = []): StderrLogger {
    const level =
      (Object.keys(LEVEL_RANK) as LogLevel[]).find((l) => LEVEL_RANK[l] === this.minRank) ?? "info";
    return new StderrLogger({
      fields: { ...this.fields, ...fields },
      secrets: [...this.secrets, ...secrets],
      level,
      write: this.writeLine,
    });
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.log("debug", message, fields);
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.log("info", message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.log("warn", message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.log("error", message, fields);
  }

  private log(level: LogLevel, message: string, fields: Record<string, unknown> | undefined): void {
    if (LEVEL_RANK[level] < this.minRank) return;
    const extra: Record<string, unknown> = {};
    if (fields !== undefined)
      for (const [key, value] of Object.entries(fields)) extra[key] = errorFields(value);
    const ts = new Date().toISOString();
    const safe = redactSecrets({ ts, level, msg: message, ...this.fields, ...extra }, this.secrets);
    let line: string;
    try {
      line = JSON.stringify(safe);
    } catch {
      line = JSON.stringify({
        ts,
        level,
        msg: maskText(message, this.secrets),
        note: "fields not serialisable",
      });
    }
    this.writeLine(`${line}\n`);
  }
}
