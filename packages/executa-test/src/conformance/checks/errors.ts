// The invoke error model (T9): an unknown tool is -32601, a missing required argument -32602
// (programmer errors are error frames; `success: false` is for expected failures, L1011), and a
// line that is not JSON is -32700 with the plugin still serving (L8529: never crash the loop).

import { PROTOCOL_ERRORS } from "@anna-ai/app-schema";
import { assertInvokeResult, assertResponse } from "../../assertions.js";
import type { ContractCase } from "../../contract-cases.js";
import { isResponse } from "../../frame.js";
import type { KitSession } from "../kit-session.js";
import { describeFailure, fail, pass, quoteFrame, skip, warn, type Verdict } from "../verdict.js";

export const UNKNOWN_TOOL = "conformance_no_such_tool";
/** How long the kit waits for a -32700 answer before it probes whether the plugin is alive. */
export const PARSE_ERROR_ANSWER_MS = 2_000;
const NOT_JSON_LINE = "{this is not json";

export async function checkUnknownTool(session: KitSession): Promise<Verdict> {
  const frame = await session.invoke(UNKNOWN_TOOL, {});
  const envelope = assertResponse(frame);
  const expected = `answer an invoke of a tool the manifest does not declare with error -32601 ("Unknown tool: ${UNKNOWN_TOOL}")`;
  if (envelope.kind === "error") {
    if (envelope.error.code === PROTOCOL_ERRORS.METHOD_NOT_FOUND.code) return pass();
    return warn(
      `unknown tool answered error ${envelope.error.code} (${envelope.error.message})`,
      expected,
    );
  }
  const result = assertInvokeResult(frame);
  if (result.success)
    return fail(`unknown tool answered success: true: ${quoteFrame(frame)}`, expected);
  return warn(`unknown tool answered success: false (${String(result.error)})`, expected);
}

export async function checkBadArguments(
  session: KitSession,
  cases: readonly ContractCase[],
): Promise<Verdict> {
  const missing = cases.find((c) => c.kind === "missing_required");
  if (missing === undefined) return skip("no tool declares a required parameter");
  const frame = await session.invoke(missing.tool, missing.arguments);
  const envelope = assertResponse(frame);
  const expected = `answer error -32602 (Invalid params) naming "${missing.parameter}"`;
  const what = `invoke ${missing.tool} without required "${missing.parameter}"`;
  if (envelope.kind === "error") {
    if (envelope.error.code === PROTOCOL_ERRORS.INVALID_PARAMS.code) return pass();
    return warn(
      `${what} answered error ${envelope.error.code} (${envelope.error.message})`,
      expected,
    );
  }
  const result = assertInvokeResult(frame);
  if (result.success) return fail(`${what} answered success: true: ${quoteFrame(frame)}`, expected);
  // The host and the LLM both read this as a refusal; the spec still asks for the error frame.
  return warn(`${what} answered success: false (${String(result.error)})`, expected);
}

export async function checkParseError(session: KitSession): Promise<Verdict> {
  const { client } = session;
  session.client.sendLine(NOT_JSON_LINE);
  let answered: boolean;
  try {
    const frame = await client.waitFor(
      (f) => isResponse(f) && (f.message.id === null || !("id" in f.message)),
      "the -32700 answer to a line that is not JSON",
      PARSE_ERROR_ANSWER_MS,
    );
    const envelope = assertResponse(frame);
    answered =
      envelope.kind === "error" && envelope.error.code === PROTOCOL_ERRORS.PARSE_ERROR.code;
  } catch {
    answered = false;
  }
  try {
    assertResponse(await client.health());
  } catch (error) {
    return fail(
      `after the line ${JSON.stringify(NOT_JSON_LINE)} the plugin stopped serving: ${describeFailure(error)}`,
      'answer {"jsonrpc":"2.0","id":null,"error":{"code":-32700,…}} and keep reading stdin',
    );
  }
  if (answered) return pass();
  return warn(
    `the line ${JSON.stringify(NOT_JSON_LINE)} got no -32700 answer within ${PARSE_ERROR_ANSWER_MS} ms (the plugin kept serving)`,
    'answer {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
  );
}
