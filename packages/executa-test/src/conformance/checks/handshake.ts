// The handshake: `initialize` offered at protocol 2.0 (T4, H7), an unknown method answered -32601
// (the v1/v2 fallback depends on it, L8525), and a plugin started by a host that never sends
// `initialize` (protocol 1.1) still describing and invoking.

import { InitializeResultSchema, PROTOCOL_ERRORS, formatIssues } from "@anna-ai/app-schema";
import { PROTOCOL_VERSION_OFFERED } from "@anna-ai/executa-host";
import { assertInvokeResult, assertManifest, assertResponse } from "../../assertions.js";
import type { ContractCase } from "../../contract-cases.js";
import type { KitSession } from "../kit-session.js";
import { fail, pass, quoteFrame, warn, type Verdict } from "../verdict.js";

const METHOD_NOT_FOUND = PROTOCOL_ERRORS.METHOD_NOT_FOUND.code;
const INVALID_REQUEST = PROTOCOL_ERRORS.INVALID_REQUEST.code;
/** A method no protocol version defines: only -32601 is a right answer. */
export const UNKNOWN_METHOD = "conformance/no-such-method";

export interface InitializeOutcome {
  verdict: Verdict;
  protocolVersion: "2.0" | "1.1";
}

export async function checkInitialize(session: KitSession): Promise<InitializeOutcome> {
  const frame = await session.client.initialize();
  const envelope = assertResponse(frame);
  if (envelope.kind === "error") {
    if (envelope.error.code === METHOD_NOT_FOUND) {
      return {
        verdict: pass("protocol 1.1: initialize answered -32601, so reverse calls are off"),
        protocolVersion: "1.1",
      };
    }
    return {
      verdict: warn(
        `initialize answered error ${envelope.error.code} (${envelope.error.message}); the host falls back to protocol 1.1 and turns reverse calls off`,
        `answer {protocolVersion: "2.0", capabilities, server_info}, or -32601 if the plugin speaks only protocol 1.1`,
      ),
      protocolVersion: "1.1",
    };
  }
  const parsed = InitializeResultSchema.safeParse(envelope.result);
  if (!parsed.success) {
    return {
      verdict: fail(
        `initialize result is malformed (${formatIssues(parsed.error.issues).join("; ")}): ${quoteFrame(frame)}`,
        `answer {protocolVersion: "2.0", capabilities: {…}, server_info: {name, version}}`,
      ),
      protocolVersion: "2.0",
    };
  }
  const version = parsed.data.protocolVersion;
  if (typeof version === "string" && version.startsWith("1")) {
    return {
      verdict: pass(`protocol 1.1: initialize answered protocolVersion "${version}"`),
      protocolVersion: "1.1",
    };
  }
  if (version !== PROTOCOL_VERSION_OFFERED) {
    return {
      verdict: fail(
        `initialize answered protocolVersion ${JSON.stringify(version)} to an offer of "${PROTOCOL_VERSION_OFFERED}"`,
        `echo protocolVersion "${PROTOCOL_VERSION_OFFERED}" exactly (hosts and plugins compare the string)`,
      ),
      protocolVersion: "2.0",
    };
  }
  return { verdict: pass(), protocolVersion: "2.0" };
}

export async function checkUnknownMethod(session: KitSession): Promise<Verdict> {
  const frame = await session.client.request(UNKNOWN_METHOD, {});
  const envelope = assertResponse(frame);
  if (envelope.kind === "error" && envelope.error.code === METHOD_NOT_FOUND) return pass();
  const got =
    envelope.kind === "error"
      ? `error ${envelope.error.code} (${envelope.error.message})`
      : "a result";
  return fail(
    `"${UNKNOWN_METHOD}" was answered with ${got}: ${quoteFrame(frame)}`,
    "answer every method the plugin does not implement with error -32601 (Method not found)",
  );
}

/**
 * A fresh process, no `initialize`: how a host on protocol 1.1 (or after the fallback) talks.
 * `valid` is one accepted contract case to invoke; without one only describe is checked.
 */
export async function checkWithoutInitialize(
  session: KitSession,
  valid: ContractCase | undefined,
): Promise<Verdict> {
  const described = await session.client.describe();
  try {
    assertManifest(described);
  } catch {
    return fail(
      `describe before initialize was not answered with the manifest: ${quoteFrame(described)}`,
      "answer describe whether or not initialize came first (a protocol 1.1 host never sends it)",
    );
  }
  if (valid === undefined) return pass("no tool with arguments the kit can build: describe only");
  const frame = await session.invoke(valid.tool, valid.arguments);
  const envelope = assertResponse(frame);
  if (envelope.kind === "error") {
    if (envelope.error.code === METHOD_NOT_FOUND || envelope.error.code === INVALID_REQUEST) {
      return fail(
        `invoke ${valid.tool} before initialize was refused with error ${envelope.error.code}: ${quoteFrame(frame)}`,
        "serve invoke without the handshake; only reverse calls need protocol 2.0",
      );
    }
    return pass();
  }
  assertInvokeResult(frame);
  return pass();
}
