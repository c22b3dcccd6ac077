// Session recordings (A10). The codec — record types, the writer and the reader — lives in
// @anna-ai/app-schema (src/recording), shared with the fixture commands and the test kit; this
// module adds only the file sink the dispatcher's callers use.
import { appendFileSync, writeFileSync } from "node:fs";
import { createJsonlRecorder, type JsonlRecorderOptions, type Recorder } from "@anna-ai/app-schema";

/** A recorder appending to `path` (created or truncated now); synchronous so no line is lost. */
export function createFileRecorder(
  path: string,
  options: Omit<JsonlRecorderOptions, "write"> = {},
): Recorder {
  writeFileSync(path, "");
  return createJsonlRecorder({ ...options, write: (line) => appendFileSync(path, line + "\n") });
}
