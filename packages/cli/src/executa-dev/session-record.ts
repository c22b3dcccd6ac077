// `--record <file.jsonl>`: the session transcript in the format of @anna-ai/jsonrpc's
// RecordingTransport (`{t, ts, dir, bytes, msg, file?}`, A10), so the fixture tools read it.
// Every frame goes through the session's Redactor — the one redaction list (tokens, credentials,
// passwords by key; every JWT) plus the secret values the session knows (`--credential` and
// `--account` values, credentials sent per invoke), which a plugin may echo inside a result.
import type { FrameMeta, JsonRpcMessage, RecordedFrame, Redactor } from "@anna-ai/jsonrpc";
import { createFileSink, type FileSink } from "@anna-ai/jsonrpc/node";

export class SessionRecorder {
  private readonly sink: FileSink;
  private readonly startedAt = Date.now();

  constructor(
    file: string,
    private readonly redactor: Redactor,
  ) {
    this.sink = createFileSink(file);
  }

  write(dir: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): void {
    const at = Date.now();
    const frame: RecordedFrame = {
      t: at - this.startedAt,
      ts: new Date(at).toISOString(),
      dir,
      bytes: meta.bytes,
      msg: this.redactor.redact(message),
    };
    if (meta.fileTransport !== undefined) frame.file = meta.fileTransport;
    this.sink.write(`${JSON.stringify(frame)}\n`);
  }

  close(): void {
    this.sink.close();
  }
}
