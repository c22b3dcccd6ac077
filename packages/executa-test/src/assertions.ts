// Runner-neutral assertions over raw frames: each checks one wire rule against the app-schema
// schemas and throws an EnvelopeAssertionError that says what was expected, what arrived and,
// where the platform has a known pitfall, how to fix it. Each returns the checked value so tests
// can go on asserting on it.

import {
  InitializeResultSchema,
  InvokeResultSchema,
  JsonRpcErrorResponseSchema,
  JsonRpcSuccessResponseSchema,
  PROTOCOL_ERRORS,
  findByCode,
  formatIssues,
  parseDescribeResult,
  type ExecutaManifest,
  type InitializeResult,
  type InvokeResult,
  type JsonRpcErrorObject,
  type ManifestWarning,
} from "@anna-ai/app-schema";
import { sameId, type Frame, type RpcId } from "./frame.js";

/** How much of an offending frame a message quotes. */
const QUOTE_MAX_CHARS = 300;

export class EnvelopeAssertionError extends Error {
  /** The offending frame, when one frame is to blame. */
  declare readonly frame: Frame | undefined;
  /** The message without the quoted frame. */
  readonly detail: string;

  constructor(detail: string, frame: Frame | undefined) {
    super(frame === undefined ? detail : `${detail}\n  frame: ${quote(frame.line)}`);
    this.name = "EnvelopeAssertionError";
    this.detail = detail;
    // Not enumerable: test runners print enumerable error fields, and the message quotes it.
    Object.defineProperty(this, "frame", { value: frame, enumerable: false });
  }
}

function quote(text: string): string {
  return text.length > QUOTE_MAX_CHARS ? `${text.slice(0, QUOTE_MAX_CHARS)}…` : text;
}

/** `error -32602 (INVALID_PARAMS): …`: the catalog name from `data.errorCode`, else the standard one. */
function describeError(error: JsonRpcErrorObject): string {
  const data = error.data as Record<string, unknown> | undefined;
  const named = typeof data === "object" && data !== null ? data.errorCode : undefined;
  const name = typeof named === "string" ? named : findByCode("protocol", error.code)?.errorCode;
  return `error ${error.code}${name === undefined ? "" : ` (${name})`}: ${error.message}`;
}

export type ResponseEnvelope =
  | { kind: "result"; id: RpcId; result: unknown }
  | { kind: "error"; id: RpcId | null; error: JsonRpcErrorObject };

/**
 * A JSON-RPC 2.0 response (T1): `jsonrpc: "2.0"`, the request's id with its JSON type, and
 * exactly one of `result` / `error`. `id` omitted skips the id check.
 */
export function assertResponse(frame: Frame, id?: RpcId): ResponseEnvelope {
  const message = frame.message;
  if (typeof message.method === "string") {
    throw new EnvelopeAssertionError(
      `expected a response, got a ${"id" in message ? "request" : "notification"} "${message.method}"`,
      frame,
    );
  }
  if (message.jsonrpc !== "2.0") {
    throw new EnvelopeAssertionError(
      `response has jsonrpc ${JSON.stringify(message.jsonrpc)}; every frame must carry "jsonrpc": "2.0"`,
      frame,
    );
  }
  const hasResult = "result" in message;
  const hasError = "error" in message;
  if (hasResult === hasError) {
    throw new EnvelopeAssertionError(
      hasResult
        ? "response carries both result and error; send exactly one"
        : "response carries neither result nor error; send exactly one",
      frame,
    );
  }
  if (id !== undefined && !sameId(message.id, id)) {
    throw new EnvelopeAssertionError(
      `response id ${JSON.stringify(message.id)} (${typeof message.id}) does not echo the request id ${JSON.stringify(id)} (${typeof id}); echo the id with its JSON type`,
      frame,
    );
  }
  if (hasResult) {
    const parsed = JsonRpcSuccessResponseSchema.safeParse(message);
    if (!parsed.success) {
      throw new EnvelopeAssertionError(
        `malformed success response: ${formatIssues(parsed.error.issues).join("; ")}`,
        frame,
      );
    }
    return { kind: "result", id: parsed.data.id, result: parsed.data.result };
  }
  const parsed = JsonRpcErrorResponseSchema.safeParse(message);
  if (!parsed.success) {
    throw new EnvelopeAssertionError(
      `malformed error response (error needs an integer code and a string message): ${formatIssues(parsed.error.issues).join("; ")}`,
      frame,
    );
  }
  return { kind: "error", id: parsed.data.id ?? null, error: parsed.data.error };
}

/** A success response; returns its `result`. */
export function assertResult(frame: Frame, id?: RpcId): unknown {
  const envelope = assertResponse(frame, id);
  if (envelope.kind === "error") {
    throw new EnvelopeAssertionError(
      `expected a result, got ${describeError(envelope.error)}`,
      frame,
    );
  }
  return envelope.result;
}

export interface ExpectedRpcError {
  code?: number;
  /** The catalog name in `error.data.errorCode` (H12), e.g. "SAMPLING_DISABLED". */
  errorCode?: string;
}

/** An error response (optionally with a given code / `data.errorCode`); returns the error. */
export function assertRpcError(
  frame: Frame,
  expected: ExpectedRpcError = {},
  id?: RpcId,
): JsonRpcErrorObject {
  const envelope = assertResponse(frame, id);
  if (envelope.kind === "result") {
    throw new EnvelopeAssertionError(
      `expected a JSON-RPC error${expected.code === undefined ? "" : ` ${expected.code}`}, got a result`,
      frame,
    );
  }
  const error = envelope.error;
  if (expected.code !== undefined && error.code !== expected.code) {
    throw new EnvelopeAssertionError(
      `expected error code ${expected.code}, got ${describeError(error)}`,
      frame,
    );
  }
  if (expected.errorCode !== undefined) {
    const data = error.data as Record<string, unknown> | undefined;
    const actual = typeof data === "object" && data !== null ? data.errorCode : undefined;
    if (actual !== expected.errorCode) {
      throw new EnvelopeAssertionError(
        `expected error.data.errorCode ${JSON.stringify(expected.errorCode)}, got ${JSON.stringify(actual)}`,
        frame,
      );
    }
  }
  return error;
}

/**
 * An `invoke` answer in the result model (T7, R23): `{success, data?, error?}` with `success`
 * present, because the platform reads a missing `success` as a failure (pitfall 5b).
 */
export function assertInvokeResult(frame: Frame, id?: RpcId): InvokeResult {
  const result = assertResult(frame, id);
  const parsed = InvokeResultSchema.safeParse(result);
  if (!parsed.success) {
    const missingSuccess =
      typeof result === "object" && result !== null && !("success" in result)
        ? '; add "success": true|false (the platform reads a missing success as a failure)'
        : "";
    throw new EnvelopeAssertionError(
      `invoke result does not follow {success, data?, error?}: ${formatIssues(parsed.error.issues).join("; ")}${missingSuccess}`,
      frame,
    );
  }
  return parsed.data;
}

/** `{success: true, …}`; returns the result (its `data` is what the LLM sees). */
export function assertInvokeSuccess(frame: Frame, id?: RpcId): InvokeResult {
  const envelope = assertResponse(frame, id);
  if (envelope.kind === "error") {
    throw new EnvelopeAssertionError(
      `expected invoke success, got ${describeError(envelope.error)}`,
      frame,
    );
  }
  const result = assertInvokeResult(frame, id);
  if (!result.success) {
    throw new EnvelopeAssertionError(
      `expected invoke success, got success: false with error ${JSON.stringify(result.error)}`,
      frame,
    );
  }
  return result;
}

export type InvokeFailure =
  | { kind: "tool"; error: string; result: InvokeResult }
  | { kind: "rpc"; error: JsonRpcErrorObject };

/**
 * A failed invoke, either way a plugin may report it: `{success: false, error}` (a tool failure
 * the LLM reads) or a JSON-RPC error (e.g. -32602 for bad arguments).
 */
export function assertInvokeFailure(frame: Frame, id?: RpcId): InvokeFailure {
  const envelope = assertResponse(frame, id);
  if (envelope.kind === "error") return { kind: "rpc", error: envelope.error };
  const result = assertInvokeResult(frame, id);
  if (result.success) {
    throw new EnvelopeAssertionError(
      "expected the invoke to fail (success: false or a JSON-RPC error), got success: true",
      frame,
    );
  }
  if (typeof result.error !== "string" || result.error === "") {
    throw new EnvelopeAssertionError(
      'invoke failed without a message; set "error" to a string the LLM can act on',
      frame,
    );
  }
  return { kind: "tool", error: result.error, result };
}

export interface CheckedManifest {
  manifest: ExecutaManifest;
  /** What the host would warn about (duplicate tools, unknown types, input_schema, …). */
  warnings: ManifestWarning[];
}

/** A `describe` answer the host accepts (the bare manifest, not `{manifest: …}`, pitfall 5). */
export function assertManifest(frame: Frame, id?: RpcId): CheckedManifest {
  const result = assertResult(frame, id);
  const parsed = parseDescribeResult(result);
  if (!parsed.ok) throw new EnvelopeAssertionError(`describe: ${parsed.error}`, frame);
  return { manifest: parsed.manifest, warnings: parsed.warnings };
}

/**
 * An `initialize` answer. A -32601 answer is allowed (legacy plugins, T4) and returns
 * `undefined`: the host then speaks protocol 1.1.
 */
export function assertInitialize(frame: Frame, id?: RpcId): InitializeResult | undefined {
  const envelope = assertResponse(frame, id);
  if (envelope.kind === "error") {
    if (envelope.error.code === PROTOCOL_ERRORS.METHOD_NOT_FOUND.code) return undefined;
    throw new EnvelopeAssertionError(
      `initialize failed with ${describeError(envelope.error)}; answer it, or answer -32601 to stay on protocol 1.1`,
      frame,
    );
  }
  const parsed = InitializeResultSchema.safeParse(envelope.result);
  if (!parsed.success) {
    throw new EnvelopeAssertionError(
      `malformed initialize result: ${formatIssues(parsed.error.issues).join("; ")}`,
      frame,
    );
  }
  return parsed.data;
}

/** Nothing but JSON frames on stdout (H1: the host skips other lines, but logs belong on stderr). */
export function assertCleanStdout(client: {
  readonly garbage: readonly string[];
  /** Every non-frame line, where the client keeps only the first few in `garbage`. */
  readonly garbageCount?: number;
  readonly transportErrors: readonly string[];
}): void {
  if (client.transportErrors.length > 0) {
    throw new EnvelopeAssertionError(
      `bad __file_transport frame: ${client.transportErrors[0] ?? ""}`,
      undefined,
    );
  }
  const first = client.garbage[0];
  if (first !== undefined) {
    throw new EnvelopeAssertionError(
      `stdout carried ${client.garbageCount ?? client.garbage.length} line(s) that are not JSON-RPC frames, first: ${quote(JSON.stringify(first))}; write logs to stderr, stdout belongs to the protocol`,
      undefined,
    );
  }
}
