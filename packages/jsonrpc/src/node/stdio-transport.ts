// The plugin side: this process's stdin and stdout. stdout belongs to the protocol, so logs go to
// stderr through the injected logger. A parent that went away (EPIPE) closes the transport
// instead of crashing the process.

import { STATIC_READ_BUFFER_BYTES } from "./child-process-transport.js";
import { FILE_TRANSPORT_THRESHOLD_BYTES } from "./file-transport.js";
import { StreamTransport } from "./stream-transport.js";
import type { StreamTransportOptions } from "./stream-transport.js";

export type StdioTransportOptions = Omit<
  StreamTransportOptions,
  "endWritableOnClose" | "readableOnClose"
>;

/**
 * A transport over process.stdin/process.stdout. Defaults to the SDK side of H2: frames over
 * 512 KiB leave through file transport, incoming pointers are resolved.
 */
export function stdioTransport(options: StdioTransportOptions = {}): StreamTransport {
  return new StreamTransport(process.stdin, process.stdout, {
    ...options,
    fileTransport: options.fileTransport ?? {
      resolveIncoming: true,
      writeAboveBytes: FILE_TRANSPORT_THRESHOLD_BYTES,
    },
    // A piped stdin is read into one reused buffer, as the host reads plugin stdout: no stream
    // machinery and no Buffer per read (a TTY keeps its own stream; a file is not a socket).
    staticReadBufferBytes:
      options.staticReadBufferBytes === 0
        ? undefined
        : (options.staticReadBufferBytes ??
          (process.stdin.isTTY === true ? undefined : STATIC_READ_BUFFER_BYTES)),
    // process.stdout is never ended by a library; stdin is released so the process can exit.
    endWritableOnClose: false,
    readableOnClose: "destroy",
  });
}
