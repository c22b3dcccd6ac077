// The package entry. It loads the single-file build (dist/bundle/executa-sdk.js, made by
// `npm run bundle`) when that file is newer than the compiled modules it was made from, and
// the compiled modules otherwise. One file instead of about thirty modules roughly halves
// spawn → ready and idle RSS (benchmark targets: node + 20 ms, node + 8 MiB); the freshness
// check means a plain `tsc -b` never runs stale code. EXECUTA_SDK_NO_BUNDLE=1 forces modules.

import { bundleIsFresh } from "./fresh-bundle.js";
import type * as Sdk from "./index.js";

const BUNDLE = "./bundle/executa-sdk.js";
/** Build stamps the bundle must be newer than: this package's, and jsonrpc's (bundled in). */
const INPUT_STAMPS = ["./.tsbuildinfo", "../../jsonrpc/dist/.tsbuildinfo"];

const url = (relative: string) => new URL(relative, import.meta.url);
const fresh = bundleIsFresh(url(BUNDLE), INPUT_STAMPS.map(url), {
  off: process.env.EXECUTA_SDK_NO_BUNDLE === "1",
});

const sdk = (fresh ? await import(BUNDLE) : await import("./index.js")) as typeof Sdk;

export const {
  definePlugin,
  p,
  validateArguments,
  normalizeParameters,
  ArgumentError,
  serve,
  divertConsoleToStderr,
  FILE_TRANSPORT_ABOVE_BYTES,
  createPluginRuntime,
  capabilitiesFor,
  PROTOCOL_VERSION,
  randomHexId,
  bindInvoke,
  currentInvoke,
  emitProgress,
  StderrLogger,
  RpcError,
  RpcLocalError,
  AgentError,
  EmbeddingsError,
  HostCallError,
  ImageError,
  SamplingError,
  StorageError,
  UploadError,
  SamplingClient,
  SAMPLING_TIMEOUT_MS,
  StorageClient,
  STORAGE_TIMEOUT_MS,
  FilesClient,
  AgentSessionClient,
  AGENT_TIMEOUT_MS,
  AGENT_RUN_TIMEOUT_MS,
  ImageClient,
  IMAGE_TIMEOUT_MS,
  HostUploadClient,
  INLINE_MAX_BYTES,
  UPLOAD_TIMEOUT_MS,
  EmbeddingsClient,
  EMBEDDINGS_TIMEOUT_MS,
  WebClient,
  WebError,
  WEB_TIMEOUT_MS,
  CredentialsClient,
  CredentialsError,
  CREDENTIALS_TIMEOUT_MS,
} = sdk;
