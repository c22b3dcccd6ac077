// @anna-ai/cli/test: drive an app bundle from vitest (`import { mountBundle } from "@anna-ai/cli/test"`).
export {
  type BundleHarness,
  type HarnessRuntime,
  mountBundle,
  MountBundleError,
  type MountBundleOptions,
} from "./mount-bundle.js";
export { CallLog, type CallRecord } from "./call-log.js";
export { HarnessEvents, type HarnessEvent } from "./harness-events.js";
export { createHarnessAcl, type HarnessAcl } from "./harness-acl.js";
export { readBundledToolIds } from "./bundled-tool-ids.js";
export { readRecording } from "./read-recording.js";
export type { RecordedCall, RecordedEvent, Recording } from "@anna-ai/app-schema";
export type { MockHandler } from "./default-mocks.js";
export { HostApiError, HostRpcError } from "@anna-ai/app-runtime";
