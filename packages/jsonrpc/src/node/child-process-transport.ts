// The host side of plugin stdio: the child's stdout is our input, its stdin our output. The
// process itself belongs to the caller (supervision, signals, process groups live in
// executa-host): closing the transport only ends stdin and stops delivering stdout.

import type { ChildProcess } from "node:child_process";
import { StreamTransport } from "./stream-transport.js";
import type { StreamTransportOptions } from "./stream-transport.js";

/** One pipe read: what libuv reads at most per call on Linux. */
export const STATIC_READ_BUFFER_BYTES = 64 * 1024;

export type ChildProcessTransportOptions = Omit<
  StreamTransportOptions,
  "endWritableOnClose" | "readableOnClose"
>;

export class ChildProcessTransport extends StreamTransport {
  /**
   * `child` must have been spawned with piped stdin and stdout. File transport pointers are
   * resolved by default: plugins send them for frames over 512 KiB, requests included (H3).
   * stdout is read into one reused buffer (static-read.ts) unless something already reads it.
   */
  constructor(child: ChildProcess, options: ChildProcessTransportOptions = {}) {
    const { stdout, stdin } = child;
    if (stdout === null || stdin === null) {
      throw new TypeError(
        "ChildProcessTransport needs a child spawned with stdio 'pipe' for stdin and stdout",
      );
    }
    super(stdout, stdin, {
      ...options,
      fileTransport: options.fileTransport ?? { resolveIncoming: true },
      endWritableOnClose: true,
      // Keep draining: a plugin still printing after we let go must not block on a full pipe.
      readableOnClose: "drain",
      // 0 turns it off (e.g. to tap child.stdout 'data' yourself before the transport starts).
      staticReadBufferBytes:
        options.staticReadBufferBytes === 0
          ? undefined
          : (options.staticReadBufferBytes ?? STATIC_READ_BUFFER_BYTES),
    });
  }
}
