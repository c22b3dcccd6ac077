// `--record <file.jsonl>`: the session transcript in the format of @anna-ai/jsonrpc's
// RecordingTransport (`{t, ts, dir, bytes, msg, file?}`, A10), so the fixture tools read it.
// Secrets are redacted twice: by key (tokens, credentials, passwords; redactSecrets) and by
// value, for credentials a plugin echoes back inside a result.
import type { FrameMeta, JsonRpcMessage, RecordedFrame } from "@anna-ai/jsonrpc";
import { REDACTED, redactSecrets } from "@anna-ai/jsonrpc";
import { createFileSink, type FileSink } from "@anna-ai/jsonrpc/node";

/** Values shorter than this are not hunted inside strings: they would redact ordinary words. */
const MIN_SECRET_VALUE_CHARS = 4;

export class SessionRecorder {
  private readonly sink: FileSink;
  private readonly startedAt = Date.now();
  private secrets: string[] = [];

  constructor(file: string, secretValues: readonly string[] = []) {
    this.sink = createFileSink(file);
    this.addSecrets(secretValues);
  }

  /** Credential values to hide wherever they appear (sent per invoke, so known late). */
  addSecrets(values: readonly string[]): void {
    // Longest first, so a secret containing another is hidden whole.
    this.secrets = [...new Set([...this.secrets, ...values])]
      .filter((v) => v.length >= MIN_SECRET_VALUE_CHARS)
      .sort((a, b) => b.length - a.length);
  }

  write(dir: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): void {
    const at = Date.now();
    const frame: RecordedFrame = {
      t: at - this.startedAt,
      ts: new Date(at).toISOString(),
      dir,
      bytes: meta.bytes,
      msg: this.redact(message),
    };
    if (meta.fileTransport !== undefined) frame.file = meta.fileTransport;
    this.sink.write(`${JSON.stringify(frame)}\n`);
  }

  close(): void {
    this.sink.close();
  }

  private redact(message: JsonRpcMessage): unknown {
    const byKey = redactSecrets(message);
    if (this.secrets.length === 0) return byKey;
    return redactValues(byKey, this.secrets);
  }
}

export function redactValues(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") {
    let out = value;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redactValues(v, secrets));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValues(v, secrets);
    return out;
  }
  return value;
}
