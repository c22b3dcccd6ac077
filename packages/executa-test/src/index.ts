// @anna-ai/executa-test: test Executa Tool plugins in any language. Start a plugin the way the
// host does, talk raw NDJSON to it, assert envelopes against the wire schemas, and generate
// contract cases from the parameters it declares.

// Starting plugins (the host's launch detection and spawn).
export { startPlugin, startPluginCommand } from "./start-plugin.js";
export type { StartCommandOptions, StartDirOptions, StartedPlugin } from "./start-plugin.js";

// The raw client.
export {
  DISPOSE_STDIN_GRACE_MS,
  DISPOSE_TERM_GRACE_MS,
  EXIT_TIMEOUT_MS,
  MAX_KEPT_GARBAGE_CHARS,
  MAX_KEPT_GARBAGE_LINES,
  MAX_STDOUT_LINE_CHARS,
  PluginClient,
} from "./plugin-client.js";
export type { ExitInfo, PluginClientOptions } from "./plugin-client.js";
export { refusingHost } from "./reverse.js";
export type { MethodHandler, ReverseAnswer, ReverseHandler, RpcErrorObject } from "./reverse.js";
export { isNotification, isRequest, isResponse, sameId } from "./frame.js";
export type { Frame, JsonObject, RpcId } from "./frame.js";
export { WAIT_TIMEOUT_MS, WaitTimeoutError, withTimeout } from "./wait.js";

// Envelope assertions.
export {
  EnvelopeAssertionError,
  assertCleanStdout,
  assertInitialize,
  assertInvokeFailure,
  assertInvokeResult,
  assertInvokeSuccess,
  assertManifest,
  assertResponse,
  assertResult,
  assertRpcError,
} from "./assertions.js";
export type {
  CheckedManifest,
  ExpectedRpcError,
  InvokeFailure,
  ResponseEnvelope,
} from "./assertions.js";

// Contract cases from declared parameters.
export {
  assertContractOutcome,
  contractCases,
  sampleValue,
  toolContractCases,
  wrongTypeValue,
} from "./contract-cases.js";
export type { ContractCase, ContractCaseKind, ContractOptions } from "./contract-cases.js";
export { loadContractCases } from "./load-contract-cases.js";

// The conformance suite (`anna-app executa test`).
export {
  CHECKS,
  CHECK_IDS,
  CONTRACT_CHECK_PREFIX,
  ConformanceSelectorError,
  conformanceJUnit,
  contractCheckId,
  runConformance,
  summarise,
} from "./conformance/index.js";
export type {
  CheckDefinition,
  CheckResult,
  CheckStatus,
  ConformanceOptions,
  ConformanceReport,
  ConformanceSummary,
  Finding,
} from "./conformance/index.js";
