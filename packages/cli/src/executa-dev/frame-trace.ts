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

  /** Returns the trace line for one frame (always computed, so latency stays right when toggled). */
  line(direction: "in" | "out", message: JsonRpcMessage, meta: FrameMeta): string {
    const now = performance.now();
    const m = message as { id?: unknown; method?: unknown };
    const hasId = m.id !== undefined && m.id !== null;
    let latency = "";
    if (typeof m.method === "string") {
      // A request: remember when it crossed, keyed by who sent it.
      if (hasId) this.sentAt.set(`${direction}:${JSON.stringify(m.id)}`, now);
    } else if (hasId) {
      const key = `${direction === "in" ? "out" : "in"}:${JSON.stringify(m.id)}`;
      const started = this.sentAt.get(key);
      if (started !== undefined) {
        this.sentAt.delete(key);
        latency = ` ${(now - started).toFixed(1)}ms`;
      }
    }
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
