// Step 4 of a reverse call: validate the params with the app-schema schema of the method, then
// bring them to the one shape the services take (camelCase sampling, wrapped embeddings input,
// defaulted `n` and `purpose`) and apply the per-call caps that are validation errors.
// Rejections become the family's INVALID_REQUEST code.
import {
  AgentCompleteParamsSchema,
  AgentSessionCancelParamsSchema,
  AgentSessionCreateParamsSchema,
  AgentSessionDeleteParamsSchema,
  AgentSessionHistoryParamsSchema,
  AgentSessionListParamsSchema,
  AgentSessionRefreshParamsSchema,
  AgentSessionRunParamsSchema,
  CredentialsGetTokenParamsSchema,
  CredentialsListAccountsParamsSchema,
  EmbeddingsCreateParamsSchema,
  FilesDeleteParamsSchema,
  FilesDownloadUrlParamsSchema,
  FilesListParamsSchema,
  FilesUploadBeginParamsSchema,
  FilesUploadCompleteParamsSchema,
  HostUploadParamsSchema,
  ImageEditParamsSchema,
  ImageGenerateParamsSchema,
  SamplingCreateMessageParamsSchema,
  StorageDeleteParamsSchema,
  StorageGetParamsSchema,
  StorageListParamsSchema,
  StorageSetParamsSchema,
  WebFetchParamsSchema,
  WebImageFetchParamsSchema,
  WebImageSearchParamsSchema,
  WebSearchParamsSchema,
  normalizeSamplingParams,
} from "@anna-ai/app-schema";
import type { SamplingCreateMessageParams } from "@anna-ai/app-schema";
import type { RouterLimits } from "./limits.js";
import { UPLOAD_DEFAULT_PURPOSE } from "./limits.js";

/** A params problem; the router turns it into the family's INVALID_REQUEST. */
export class InvalidParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidParamsError";
  }
}

type Params = Record<string, unknown>;

/** The part of a zod schema the router needs (no zod import in this package). */
interface ParamsSchema {
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | {
        success: false;
        error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
      };
}

const SCHEMAS: ReadonlyMap<string, ParamsSchema> = new Map<string, ParamsSchema>([
  ["sampling/createMessage", SamplingCreateMessageParamsSchema],
  ["agent/session.create", AgentSessionCreateParamsSchema],
  ["agent/session.run", AgentSessionRunParamsSchema],
  ["agent/session.cancel", AgentSessionCancelParamsSchema],
  ["agent/session.history", AgentSessionHistoryParamsSchema],
  ["agent/session.list", AgentSessionListParamsSchema],
  ["agent/session.refresh", AgentSessionRefreshParamsSchema],
  ["agent/session.delete", AgentSessionDeleteParamsSchema],
  ["agent/complete", AgentCompleteParamsSchema],
  ["storage/get", StorageGetParamsSchema],
  ["storage/set", StorageSetParamsSchema],
  ["storage/delete", StorageDeleteParamsSchema],
  ["storage/list", StorageListParamsSchema],
  ["files/upload_begin", FilesUploadBeginParamsSchema],
  ["files/upload_complete", FilesUploadCompleteParamsSchema],
  ["files/download_url", FilesDownloadUrlParamsSchema],
  ["files/list", FilesListParamsSchema],
  ["files/delete", FilesDeleteParamsSchema],
  ["image/generate", ImageGenerateParamsSchema],
  ["image/edit", ImageEditParamsSchema],
  ["host/uploadFile", HostUploadParamsSchema],
  ["embeddings/create", EmbeddingsCreateParamsSchema],
  // Shapes only; the caps (urls 1–10, max_chars ≤ 8 000, …) are the web service's (R153, R157).
  ["web/search", WebSearchParamsSchema],
  ["web/fetch", WebFetchParamsSchema],
  ["web/image_search", WebImageSearchParamsSchema],
  ["web/image_fetch", WebImageFetchParamsSchema],
  ["credentials/listAccounts", CredentialsListAccountsParamsSchema],
  ["credentials/getToken", CredentialsGetTokenParamsSchema],
]);

function fail(message: string): never {
  throw new InvalidParamsError(message);
}

function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  return issues
    .slice(0, 5)
    .map((issue) =>
      issue.path.length > 0
        ? `'${issue.path.map(String).join(".")}': ${issue.message}`
        : issue.message,
    )
    .join("; ");
}

function requireText(params: Params, key: string, method: string): void {
  const value = params[key];
  if (typeof value !== "string" || value.trim() === "") {
    fail(`${method}: '${key}' must be a non-empty string`);
  }
}

function checkSampling(params: Params, limits: RouterLimits, method: string): Params {
  const request = normalizeSamplingParams(params as SamplingCreateMessageParams);
  if (request.maxTokens > limits.samplingMaxTokensPerCall) {
    fail(
      `${method}: 'maxTokens' ${request.maxTokens} is over the per-call limit of ${limits.samplingMaxTokensPerCall}`,
    );
  }
  // normalizeSamplingParams keeps the known fields; unknown ones travel on for the service.
  const { _clientTimeoutS: _t, ...rest } = params;
  for (const snake of [
    "max_tokens",
    "system_prompt",
    "stop_sequences",
    "model_preferences",
    "include_context",
    "response_format",
    "on_unsupported",
  ]) {
    delete rest[snake];
  }
  return { ...rest, ...request };
}

function checkImage(params: Params, method: string): Params {
  requireText(params, "prompt", method);
  if (method === "image/edit") requireText(params, "image_url", method);
  const n = params["n"] ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
    fail(`${method}: 'n' must be an integer ≥ 1`);
  }
  return { ...params, n };
}

function checkUpload(params: Params, method: string): Params {
  if (params["mode"] === "confirm") return params;
  const purpose = params["purpose"] ?? UPLOAD_DEFAULT_PURPOSE;
  if (params["mode"] === "inline") {
    const content = String(params["content_b64"]);
    if (content === "" || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(content.replace(/\s+/g, ""))) {
      fail(`${method}: 'content_b64' must be non-empty base64`);
    }
    return { ...params, purpose };
  }
  // The SDK sends `size_bytes`, the wire names it `expected_bytes` (Z23).
  const expected = params["expected_bytes"] ?? params["size_bytes"];
  return expected === undefined || expected === null
    ? { ...params, purpose }
    : { ...params, purpose, expected_bytes: expected };
}

function checkEmbeddings(params: Params, limits: RouterLimits, method: string): Params {
  const raw = params["input"];
  // A bare string is wrapped into a one-item batch (R54).
  const input = typeof raw === "string" ? [raw] : (raw as string[]);
  if (input.length === 0) fail(`${method}: 'input' must not be empty`);
  if (input.length > limits.embeddingsMaxInputsPerCall) {
    fail(
      `${method}: ${input.length} inputs; at most ${limits.embeddingsMaxInputsPerCall} per call`,
    );
  }
  input.forEach((item, index) => {
    if (item.trim() === "") fail(`${method}: input[${index}] is empty`);
    if (item.length > limits.embeddingsMaxCharsPerInput) {
      fail(
        `${method}: input[${index}] has ${item.length} characters; at most ${limits.embeddingsMaxCharsPerInput}`,
      );
    }
  });
  return { ...params, input };
}

/** Validate and normalise the params of one reverse call. Throws InvalidParamsError. */
export function checkParams(method: string, params: unknown, limits: RouterLimits): Params {
  // A missing params object is treated as empty: some SDKs omit it on parameterless calls.
  const value = params === undefined || params === null ? {} : params;
  const schema = SCHEMAS.get(method);
  if (schema !== undefined) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) fail(`${method}: invalid params: ${describeIssues(parsed.error.issues)}`);
  }
  if (typeof value !== "object" || Array.isArray(value))
    fail(`${method}: params must be an object`);
  // Services get the params as sent (zod's output drops nothing for these loose objects, but
  // would turn `undefined` members into absent ones): keep the plugin's own object shape.
  const p = value as Params;
  if (method === "sampling/createMessage") return checkSampling(p, limits, method);
  if (method.startsWith("image/")) return checkImage(p, method);
  if (method === "host/uploadFile") return checkUpload(p, method);
  if (method === "embeddings/create") return checkEmbeddings(p, limits, method);
  return { ...p };
}
