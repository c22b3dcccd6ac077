// @anna-ai/jsonrpc/node — transports over Node streams, child processes and this process's stdio,
// file transport and file-backed recordings.

export { CLOSE_FLUSH_TIMEOUT_MS, StreamTransport } from "./stream-transport.js";
export type { FileTransportOptions, StreamTransportOptions } from "./stream-transport.js";
export { ChildProcessTransport, STATIC_READ_BUFFER_BYTES } from "./child-process-transport.js";
export type { ChildProcessTransportOptions } from "./child-process-transport.js";
export { stdioTransport } from "./stdio-transport.js";
export type { StdioTransportOptions } from "./stdio-transport.js";
export {
  DEFAULT_MAX_FILE_TRANSPORT_BYTES,
  FILE_TRANSPORT_PREFIX,
  FILE_TRANSPORT_THRESHOLD_BYTES,
  FileTransportError,
  allowedFileTransportDirs,
  readFileTransport,
  writeFileTransport,
} from "./file-transport.js";
export { createFileSink } from "./file-sink.js";
export type { FileSink } from "./file-sink.js";
export { RecordingTransport } from "../recording-transport.js";
export type {
  RecordedFrame,
  RecordingSink,
  RecordingTransportOptions,
} from "../recording-transport.js";
