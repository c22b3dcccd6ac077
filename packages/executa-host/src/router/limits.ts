// Per-invoke budgets and host caps from the spec, with their units. Grants may lower them, never
// raise them past the host cap. Override for tests or a self-hosted deployment through
// `ReverseRpcRouterOptions.limits`. Values app-schema already names are taken from there.
import {
  AGENT_RUN_MAX_FRAMES,
  DEFAULT_SAMPLING_MAX_TOKENS_PER_CALL,
  DEFAULT_UPLOAD_PURPOSE,
  IMAGE_HOST_MAX_N,
  INLINE_UPLOAD_MAX_BYTES,
  PROGRESS_MAX_EVENTS_PER_S as SCHEMA_PROGRESS_MAX_EVENTS_PER_S,
  PROGRESS_MAX_EVENT_BYTES as SCHEMA_PROGRESS_MAX_EVENT_BYTES,
  UPLOAD_PURPOSES,
} from "@anna-ai/app-schema";

const MiB = 1024 * 1024;

/** Sampling: `maxTokens` ceiling per call (L1879, R29) → -32004. */
export const SAMPLING_MAX_TOKENS_PER_CALL = DEFAULT_SAMPLING_MAX_TOKENS_PER_CALL;
/** Sampling: calls per invoke (L1880, R29) → -32006. */
export const SAMPLING_MAX_CALLS_PER_INVOKE = 8;
/** Sampling: cumulative tokens per invoke (L1881, R29) → -32007. */
export const SAMPLING_MAX_TOKENS_PER_INVOKE = 32_000;
/** `storage/*` + `files/*` calls per invoke (`max_calls`, L2366) → -32026. */
export const STORAGE_MAX_CALLS_PER_INVOKE = 200;
/** Upload: files per invoke, counted on inline and first confirm (R61) → -32211. */
export const UPLOAD_MAX_FILES_PER_INVOKE = 16;
/** Upload: one file (`upload_token.max_file_bytes`, L3190) → -32204. */
export const UPLOAD_MAX_FILE_BYTES = 20 * MiB;
/** Upload: all files of one invoke (`max_total_bytes`, L3191) → -32204. */
export const UPLOAD_MAX_TOTAL_BYTES_PER_INVOKE = 80 * MiB;
/** Upload: decoded inline payload (`INLINE_MAX_BYTES`, T28) → -32204. */
export const UPLOAD_INLINE_MAX_BYTES = INLINE_UPLOAD_MAX_BYTES;
/** Upload purposes a token may allow (`ALLOWED_PURPOSES`, R61). */
export const UPLOAD_ALLOWED_PURPOSES: readonly string[] = UPLOAD_PURPOSES;
export const UPLOAD_DEFAULT_PURPOSE: string = DEFAULT_UPLOAD_PURPOSE;
/** Image: host hard cap on `n` per call (`_MAX_N`, R57) → -32106 with `data.hostCap`. */
export const IMAGE_MAX_N_PER_CALL = IMAGE_HOST_MAX_N;
/** Image: default per-call grant for generate (R57). */
export const IMAGE_MAX_PER_CALL_GENERATE = 4;
/** Image: default per-call grant for edit (R57). */
export const IMAGE_MAX_PER_CALL_EDIT = 1;
/** Image: images per invoke across generate and edit (`max_images`, R57) → -32106. */
export const IMAGE_MAX_IMAGES_PER_INVOKE = 4;
/** Agent: buffered frames per `agent/session.run` (`_MAX_FRAMES_PER_RUN`, R33) → -32047. */
export const AGENT_MAX_FRAMES_PER_RUN = AGENT_RUN_MAX_FRAMES;
/** Embeddings: inputs per call at the bridge (`_HARD_MAX_INPUTS`, R54) → -32504. */
export const EMBEDDINGS_MAX_INPUTS_PER_CALL = 128;
/** Embeddings: characters per input at the bridge (`_HARD_MAX_INPUT_CHARS`, R54) → -32504. */
export const EMBEDDINGS_MAX_CHARS_PER_INPUT = 64_000;
/** `executa/progress`: events per second per invoke (T29); the excess is dropped. */
export const PROGRESS_MAX_EVENTS_PER_S = SCHEMA_PROGRESS_MAX_EVENTS_PER_S;
/** `executa/progress`: serialized `data` per event (T29); larger events are dropped. */
export const PROGRESS_MAX_EVENT_BYTES = SCHEMA_PROGRESS_MAX_EVENT_BYTES;

export interface RouterLimits {
  samplingMaxTokensPerCall: number;
  samplingMaxCallsPerInvoke: number;
  samplingMaxTokensPerInvoke: number;
  storageMaxCallsPerInvoke: number;
  uploadMaxFilesPerInvoke: number;
  uploadMaxFileBytes: number;
  uploadMaxTotalBytesPerInvoke: number;
  uploadInlineMaxBytes: number;
  imageMaxNPerCall: number;
  imageMaxPerCallGenerate: number;
  imageMaxPerCallEdit: number;
  imageMaxImagesPerInvoke: number;
  agentMaxFramesPerRun: number;
  embeddingsMaxInputsPerCall: number;
  embeddingsMaxCharsPerInput: number;
  progressMaxEventsPerS: number;
  progressMaxEventBytes: number;
}

export const DEFAULT_ROUTER_LIMITS: Readonly<RouterLimits> = Object.freeze({
  samplingMaxTokensPerCall: SAMPLING_MAX_TOKENS_PER_CALL,
  samplingMaxCallsPerInvoke: SAMPLING_MAX_CALLS_PER_INVOKE,
  samplingMaxTokensPerInvoke: SAMPLING_MAX_TOKENS_PER_INVOKE,
  storageMaxCallsPerInvoke: STORAGE_MAX_CALLS_PER_INVOKE,
  uploadMaxFilesPerInvoke: UPLOAD_MAX_FILES_PER_INVOKE,
  uploadMaxFileBytes: UPLOAD_MAX_FILE_BYTES,
  uploadMaxTotalBytesPerInvoke: UPLOAD_MAX_TOTAL_BYTES_PER_INVOKE,
  uploadInlineMaxBytes: UPLOAD_INLINE_MAX_BYTES,
  imageMaxNPerCall: IMAGE_MAX_N_PER_CALL,
  imageMaxPerCallGenerate: IMAGE_MAX_PER_CALL_GENERATE,
  imageMaxPerCallEdit: IMAGE_MAX_PER_CALL_EDIT,
  imageMaxImagesPerInvoke: IMAGE_MAX_IMAGES_PER_INVOKE,
  agentMaxFramesPerRun: AGENT_MAX_FRAMES_PER_RUN,
  embeddingsMaxInputsPerCall: EMBEDDINGS_MAX_INPUTS_PER_CALL,
  embeddingsMaxCharsPerInput: EMBEDDINGS_MAX_CHARS_PER_INPUT,
  progressMaxEventsPerS: PROGRESS_MAX_EVENTS_PER_S,
  progressMaxEventBytes: PROGRESS_MAX_EVENT_BYTES,
});

/** A grant value capped by the host limit; missing or invalid grant values mean the limit. */
export function capped(grantValue: number | undefined, hostCap: number): number {
  if (grantValue === undefined || !Number.isFinite(grantValue) || grantValue < 0) return hostCap;
  return Math.min(Math.floor(grantValue), hostCap);
}
