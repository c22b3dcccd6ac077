// The transport a plugin speaks through, wrapped around any @anna-ai/jsonrpc transport:
// - a non-JSON line gets -32700 with id null and a JSON value that is not an object -32600, like
//   the spec's samples (L470–L480); the peer alone would only log them (H1);
// - frames over the threshold leave through `__file_transport` (H2, T2) unless the host said
//   `capabilities.fileTransport: false` in `initialize` (L1140). Hosts that say nothing get it,
//   as the real SDKs do (real-world-plugins.md).

import {
  INVALID_REQUEST,
  PARSE_ERROR,
  type JsonRpcMessage,
  type Transport,
  type TransportHandlers,
} from "@anna-ai/jsonrpc";
import { writeFileTransport } from "@anna-ai/jsonrpc/node";

/**
 * Whether the JSON text of `value` could exceed `limit` bytes: a cheap upper bound (six bytes
 * per string character, as for `\uXXXX` escapes) that stops as soon as it is passed, so the
 * usual small frame is serialised once, by the transport.
 */
export function mayExceed(value: unknown, limit: number): boolean {
  let budget = limit;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") budget -= item.length * 6 + 2;
    else if (item !== null && typeof item === "object") {
      if (Array.isArray(item)) {
        budget -= item.length + 2;
        for (const element of item as unknown[]) stack.push(element);
      } else {
        budget -= 2;
        for (const key in item) {
          budget -= key.length * 6 + 4;
          stack.push((item as Record<string, unknown>)[key]);
        }
      }
    } else budget -= 24;
    if (budget < 0) return true;
  }
  return false;
}

export class PluginTransport implements Transport {
  /** Cleared when the host's `initialize` declines file transport. */
  fileTransport = true;

  constructor(
    private readonly inner: Transport,
    /** Frames above this many bytes go through a file; undefined: always inline. */
    private readonly fileAboveBytes: number | undefined,
  ) {}

  start(handlers: TransportHandlers): void {
    const inner = this.inner;
    inner.start({
      onMessage: handlers.onMessage,
      onClose: handlers.onClose,
      onDropped(line) {
        if (line.reason === "not_json") {
          inner.send({
            jsonrpc: "2.0",
            id: null,
            error: { code: PARSE_ERROR, message: "Parse error" },
          });
        } else if (line.reason === "not_object") {
          inner.send({
            jsonrpc: "2.0",
            id: null,
            error: { code: INVALID_REQUEST, message: "Invalid Request" },
          });
        }
        handlers.onDropped?.(line);
      },
    });
  }

  send(message: JsonRpcMessage): number {
    const above = this.fileAboveBytes;
    if (above !== undefined && this.fileTransport && mayExceed(message, above)) {
      const text = JSON.stringify(message);
      if (text.length > above / 3 && Buffer.byteLength(text) > above) {
        const path = writeFileTransport(text);
        const id = (message as { id?: unknown }).id;
        const pointer =
          id === undefined
            ? { jsonrpc: "2.0", __file_transport: path }
            : { jsonrpc: "2.0", id, __file_transport: path };
        return this.inner.send(pointer as unknown as JsonRpcMessage);
      }
    }
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
