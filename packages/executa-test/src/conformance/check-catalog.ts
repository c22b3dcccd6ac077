// The protocol checks of the conformance suite: stable ids (what `--only` matches and CI keeps in
// its history), a title, and the spec lines each enforces. Contract checks are generated per tool
// and parameter (`contract.<tool>.<case>`, see contract-check-id.ts) and are not listed here.

export interface CheckDefinition {
  id: string;
  title: string;
  spec: string;
}

function check(id: string, title: string, spec: string): CheckDefinition {
  return { id, title, spec };
}

export const CHECKS = {
  initialize: check(
    "handshake.initialize",
    "initialize: protocol 2.0 echoed, or -32601 for protocol 1.1",
    "L1129-L1176, H7",
  ),
  unknownMethod: check(
    "handshake.unknown-method",
    "an unknown method is answered -32601 (the v1/v2 fallback depends on it)",
    "L1005, L8525",
  ),
  withoutInitialize: check(
    "handshake.v1-fallback",
    "a host on protocol 1.1 (no initialize): describe and invoke still answer",
    "L1036, L1168-L1176, L815",
  ),
  manifest: check(
    "describe.manifest",
    "describe answers the bare manifest the host accepts",
    "L843-L916, L3521",
  ),
  parameters: check(
    "describe.parameters",
    "parameter types, enums and defaults are ones the host can map",
    "L918-L924",
  ),
  health: check(
    "lifecycle.health",
    "health answers a known status (or -32601) within 3 s",
    "L973-L987, L1230-L1241, H8",
  ),
  unknownTool: check(
    "errors.unknown-tool",
    "invoke of an unknown tool is answered -32601",
    "L1005, L1011, L8525",
  ),
  badArguments: check(
    "errors.bad-arguments",
    "invoke with a missing required argument is answered -32602",
    "L1006, L1011, L8527",
  ),
  parseError: check(
    "errors.parse-error",
    "a line that is not JSON is answered -32700 and the plugin keeps serving",
    "L8521, L8529, T1",
  ),
  largeRequest: check(
    "frames.large-request",
    "an invoke line over 512 KiB (the host sends frames inline) is read and answered",
    "L833, H2",
  ),
  largeResponse: check(
    "frames.large-response",
    "responses over 512 KiB travel by file transport; pointers are valid temp files",
    "L833, L1073-L1087, H3",
  ),
  nonJsonStdout: check(
    "frames.non-json-stdout",
    "stdout carries only JSON-RPC frames (the host skips other lines)",
    "L829, L8427, H1",
  ),
  concurrent: check(
    "invoke.concurrent",
    "concurrent invokes are all answered, each with its own id",
    "L1071, T7",
  ),
  reverseInvokeId: check(
    "reverse.invoke-id",
    "every reverse call echoes the invoke_id of the invoke it serves",
    "L1044-L1071",
  ),
  cancellation: check(
    "invoke.cancellation",
    "after the host abandons an invoke, the plugin keeps serving the other requests",
    "L11187, L11292, H5",
  ),
  shutdown: check(
    "lifecycle.shutdown",
    "shutdown + stdin EOF: the plugin exits 0 within 5 s and leaves no process behind",
    "L834, L1243-L1253, H4",
  ),
} as const satisfies Record<string, CheckDefinition>;

/** The generated contract checks: one per case of contractCases (valid, missing, wrong type). */
export const CONTRACT_CHECK_PREFIX = "contract";
export const CONTRACT_SPEC = "L918-L924, L1011, L8527";

export const CHECK_IDS: readonly string[] = Object.values(CHECKS).map((c) => c.id);

/** Whether `--only` selectors pick `id`: exact id, or a dotted prefix (`handshake`, `contract.greet`). */
export function selected(id: string, only: readonly string[] | undefined): boolean {
  if (only === undefined || only.length === 0) return true;
  return only.some((selector) => id === selector || id.startsWith(`${selector}.`));
}

/** Selectors that can never match (a typo): `contract…` selectors are checked after describe. */
export function unknownSelectors(only: readonly string[]): string[] {
  return only.filter(
    (selector) =>
      selector !== CONTRACT_CHECK_PREFIX &&
      !selector.startsWith(`${CONTRACT_CHECK_PREFIX}.`) &&
      !CHECK_IDS.some((id) => id === selector || id.startsWith(`${selector}.`)),
  );
}
