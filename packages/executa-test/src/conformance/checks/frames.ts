// Frames both ways. To the plugin the host sends every frame inline (H2), so a plugin must read a
// line well over 512 KiB (a 64 KiB line buffer is the classic bug). From the plugin, responses
// over ~512 KiB should travel by file transport and must stay under the 2 MiB line ceiling (L833,
// T2); a pointer must name a regular executa-* file in the OS temp dir (H3). Lines on stdout that
// are not frames are skipped by the host (H1) but are still reported.

import { toLlmToolSchema, type ExecutaManifest } from "@anna-ai/app-schema";
import { assertResponse } from "../../assertions.js";
import type { ContractCase } from "../../contract-cases.js";
import { isResponse } from "../../frame.js";
import type { KitSession } from "../kit-session.js";
import { describeFailure, fail, pass, skip, warn, type Verdict } from "../verdict.js";

/** Above this a response should use file transport (L833, L1075). */
export const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;
/** The platform's readline ceiling for one line (L833). */
export const LINE_CEILING_BYTES = 2 * 1024 * 1024;
/** The string argument the large-request check sends: past the threshold, under the ceiling. */
export const LARGE_ARGUMENT_BYTES = 600 * 1024;
const GARBAGE_QUOTE_CHARS = 120;

/** The first accepted case of a tool with a string parameter, and that parameter. */
function stringParameterCase(
  manifest: ExecutaManifest,
  cases: readonly ContractCase[],
): { testCase: ContractCase; parameter: string } | undefined {
  for (const testCase of cases) {
    if (testCase.expect !== "accepted") continue;
    const tool = manifest.tools.find((t) => t.name === testCase.tool);
    if (tool === undefined) continue;
    const { schema } = toLlmToolSchema(tool);
    const parameter = Object.entries(schema.properties).find(
      ([, property]) => property.type === "string" && property.enum === undefined,
    )?.[0];
    if (parameter !== undefined) return { testCase, parameter };
  }
  return undefined;
}

export async function checkLargeRequest(
  session: KitSession,
  manifest: ExecutaManifest,
  cases: readonly ContractCase[],
): Promise<Verdict> {
  const found = stringParameterCase(manifest, cases);
  if (found === undefined)
    return skip("no tool takes a free string parameter to carry the payload");
  const { testCase, parameter } = found;
  const args = { ...testCase.arguments, [parameter]: "x".repeat(LARGE_ARGUMENT_BYTES) };
  const what = `invoke ${testCase.tool} with "${parameter}" of ${LARGE_ARGUMENT_BYTES / 1024} KiB on one line`;
  try {
    assertResponse(await session.invoke(testCase.tool, args));
  } catch (error) {
    return fail(
      `${what}: ${describeFailure(error)}`,
      "read stdin lines of any length the host sends (it sends frames inline, up to 16 MiB); raise the line buffer (Go: bufio.Reader, not a default bufio.Scanner)",
    );
  }
  return pass(`${what}: answered`);
}

/** Judges every response seen in the session, so it runs after the checks that invoke. */
export function checkLargeResponses(session: KitSession): Verdict {
  const { client } = session;
  if (client.transportErrors.length > 0) {
    return fail(
      `a __file_transport pointer could not be read: ${client.transportErrors[0] ?? ""}`,
      "write the response to a regular executa-*.json file in the OS temp dir and send its path",
    );
  }
  const responses = client.frames.filter(isResponse);
  const inline = responses.filter((f) => f.fileTransport === undefined);
  const over = inline.filter((f) => Buffer.byteLength(f.line) > FILE_TRANSPORT_THRESHOLD_BYTES);
  const viaFile = responses.length - inline.length;
  const largest = over.reduce((max, f) => Math.max(max, Buffer.byteLength(f.line)), 0);
  if (largest > LINE_CEILING_BYTES) {
    return fail(
      `a response of ${largest} bytes was sent inline, over the ${LINE_CEILING_BYTES}-byte line ceiling`,
      `send responses over ${FILE_TRANSPORT_THRESHOLD_BYTES / 1024} KiB by file transport: {"jsonrpc":"2.0","id":…,"__file_transport":"/tmp/executa-resp-….json"}`,
    );
  }
  if (over.length > 0) {
    return warn(
      `${over.length} response(s) over ${FILE_TRANSPORT_THRESHOLD_BYTES / 1024} KiB were sent inline (largest ${largest} bytes)`,
      `send responses over ${FILE_TRANSPORT_THRESHOLD_BYTES / 1024} KiB by file transport (the SDKs do it for you)`,
    );
  }
  if (viaFile > 0) return pass(`${viaFile} response(s) arrived by file transport and were valid`);
  return skip(
    `no response reached ${FILE_TRANSPORT_THRESHOLD_BYTES / 1024} KiB in this run (a tool that echoes its input would)`,
  );
}

export function checkNonJsonStdout(session: KitSession): Verdict {
  const { garbage, garbageCount } = session.client;
  const first = garbage[0];
  if (first === undefined) return pass();
  const quoted = JSON.stringify(first.slice(0, GARBAGE_QUOTE_CHARS));
  return warn(
    `stdout carried ${garbageCount} line(s) that are not JSON-RPC frames, first: ${quoted} (the host logs and skips them)`,
    "write logs to stderr; stdout belongs to the protocol (some hosts kill a plugin for it)",
  );
}
