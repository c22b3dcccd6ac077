// `@anna-ai/agent/test-kit`: fake model providers for tests of the gateway and of everything
// built on it (Nexus, the agent loop). Real HTTP on 127.0.0.1, real wire formats.
export {
  FAKE_EMBEDDING_DIMENSIONS,
  FAKE_PROVIDER_MAX_BODY_BYTES,
  startFakeProvider,
} from "./fake-provider.js";
export type {
  FakeProvider,
  FakeProviderOptions,
  FakeUploadedFile,
  RecordedRequest,
} from "./fake-provider.js";
export { DEFAULT_USAGE } from "./script.js";
export type { ScriptedError, ScriptedFinish, ScriptedReply, ScriptedToolCall } from "./script.js";
