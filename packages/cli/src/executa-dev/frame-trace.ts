// `--trace`: one line per frame with direction, size and, for replies, the latency since the
// request it answers. Host→plugin ids and plugin→host ids live in separate tables, as on the wire.
import type { FrameMeta, JsonRpcMessage } from "@anna-ai/jsonrpc";
import { Redactor } from "@anna-ai/jsonrpc";
import type { Style } from "../cli/style.js";

const PREVIEW_CHARS = 400;

export class FrameTracer {
  private readonly sentAt = new Map<string, number>();

  constructor(
    private readonly style: Style,
    /** The session's: the one redaction list plus the secret values it knows. */
    private readonly redactor: Redactor = new Redactor(),
  ) {}

  /**
   * Notes one frame's time without rendering it: called for every frame while tracing is off,
   * so a reply's latency is right once tracing is turned on. Answers the latency text of a reply.
   */
  track(direction: "in" | "out", message: JsonRpcMessage): string {
    const now = performance.now();
    const m = message as { id?: unknown; method?: unknown };
    if (m.id === undefined || m.id === null) return "";
    if (typeof m.method === "string") {
      // A request: remember when it crossed, keyed by who sent it.
      this.sentAt.set(`${direction}:${JSON.stringify(m.id)}`, now);
      return "";
    }
    const key = `${direction === "in" ? "out" : "in"}:${JSON.stringify(m.id)}`;
    const started = this.sentAt.get(key);
    if (started === undefined) return "";
    this.sentAt.delete(key);
    return ` ${(now - started).toFixed(1)}ms`;
  }

  /** The trace line for one frame (it tracks the frame too). */
  line(direction: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): string {
    const latency = this.track(direction, message);
    const arrow =
      direction === "out" ? this.style.cyan("host → plugin") : this.style.magenta("plugin → host");
    // The wire carried only the pointer line; say how big the message itself was.
    const via = meta.fileTransport
      ? ` via file ${meta.fileTransport} (${formatBytes(Buffer.byteLength(JSON.stringify(message)))})`
      : "";
    let body = JSON.stringify(this.redactor.redact(message));
    if (body.length > PREVIEW_CHARS)
      body = body.slice(0, PREVIEW_CHARS) + `… (+${body.length - PREVIEW_CHARS} chars)`;
    return `${this.style.dim("[trace]")} ${arrow} ${formatBytes(meta.bytes)}${latency}${via} ${this.style.dim(body)}`;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)}MiB`;
}
