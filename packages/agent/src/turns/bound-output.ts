// Tool outputs go to the model, the event stream and the database, so one cap applies to all
// three: a plugin that returns megabytes must not blow up a prompt, a frame or a row.

/** The biggest tool output kept (serialized as JSON, in UTF-8 bytes). */
export const MAX_TOOL_OUTPUT_BYTES = 256 * 1024;

/** What replaces an output over the cap: the marker says it was cut and by how much. */
export interface TruncatedOutput {
  truncated: true;
  /** Size of the whole output as JSON, in bytes. */
  originalBytes: number;
  limitBytes: number;
  /** The first part of the output's JSON, cut to fit under the limit. */
  preview: string;
}

/** Room left for the marker's own fields when the preview is cut. */
const MARKER_OVERHEAD_BYTES = 256;

/** The output as it is when its JSON fits under `limitBytes`, else a `TruncatedOutput`. */
export function boundToolOutput(
  output: unknown,
  limitBytes: number = MAX_TOOL_OUTPUT_BYTES,
): unknown {
  let json: string;
  try {
    json = JSON.stringify(output ?? null) ?? "null";
  } catch (err) {
    return { error: `the tool's output cannot be serialized as JSON: ${(err as Error).message}` };
  }
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes <= limitBytes) return output ?? null;
  const room = Math.max(0, limitBytes - MARKER_OVERHEAD_BYTES);
  // Cut by bytes, then drop a split trailing character (U+FFFD after decoding).
  const preview = Buffer.from(json, "utf8")
    .subarray(0, room)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const marker: TruncatedOutput = {
    truncated: true,
    originalBytes: bytes,
    limitBytes,
    preview,
  };
  return marker;
}
