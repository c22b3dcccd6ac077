// Step 4 of a reverse call: check the params of each method and bring them to one shape (the
// wire names the services see). Rejections become the family's INVALID_REQUEST code.
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

function fail(message: string): never {
  throw new InvalidParamsError(message);
}

function requireString(params: Params, key: string, method: string, maxLength?: number): string {
  const value = params[key];
  if (typeof value !== "string" || value.trim() === "") {
    fail(`${method}: '${key}' must be a non-empty string`);
  }
  if (maxLength !== undefined && value.length > maxLength) {
    fail(`${method}: '${key}' is longer than ${maxLength} characters`);
  }
  return value;
}

function optionalInteger(
  params: Params,
  key: string,
  method: string,
  min: number,
): number | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    fail(`${method}: '${key}' must be an integer ≥ ${min}`);
  }
  return value;
}

/** Sampling params arrive in camelCase and snake_case (real-world-plugins.md); MCP wire is camel. */
const SAMPLING_SNAKE_TO_CAMEL: Readonly<Record<string, string>> = {
  max_tokens: "maxTokens",
  system_prompt: "systemPrompt",
  stop_sequences: "stopSequences",
  model_preferences: "modelPreferences",
  include_context: "includeContext",
  response_format: "responseFormat",
  on_unsupported: "onUnsupported",
};

const SAMPLING_MAX_MESSAGES = 64;

export function camelizeSampling(params: Params): Params {
  const out: Params = { ...params };
  for (const [snake, camel] of Object.entries(SAMPLING_SNAKE_TO_CAMEL)) {
    if (snake in out) {
      if (out[camel] === undefined) out[camel] = out[snake];
      delete out[snake];
    }
  }
  return out;
}

export function checkSampling(raw: Params, limits: RouterLimits, method: string): Params {
  const params = camelizeSampling(raw);
  const messages = params["messages"];
  if (!Array.isArray(messages) || messages.length === 0) {
    fail(`${method}: 'messages' must be a non-empty array`);
  }
  if (messages.length > SAMPLING_MAX_MESSAGES) {
    fail(`${method}: at most ${SAMPLING_MAX_MESSAGES} messages per call`);
  }
  for (const message of messages) {
    if (
      typeof message !== "object" ||
      message === null ||
      typeof (message as Params)["role"] !== "string"
    ) {
      fail(`${method}: every message needs a 'role' and 'content'`);
    }
  }
  const maxTokens = params["maxTokens"];
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens <= 0) {
    fail(`${method}: 'maxTokens' is required and must be a positive integer`);
  }
  if (maxTokens > limits.samplingMaxTokensPerCall) {
    fail(
      `${method}: 'maxTokens' ${maxTokens} is over the per-call limit of ${limits.samplingMaxTokensPerCall}`,
    );
  }
  const includeContext = params["includeContext"];
  if (includeContext !== undefined && includeContext !== null && includeContext !== "none") {
    fail(`${method}: 'includeContext' must be "none"`);
  }
  return params;
}

function checkStorage(params: Params, method: string): Params {
  if (method !== "storage/list") requireString(params, "key", method, 1024);
  if (method === "storage/set" && !("value" in params)) fail(`${method}: 'value' is required`);
  if (method === "storage/list") optionalInteger(params, "limit", method, 0);
  if (method === "storage/set") optionalInteger(params, "ttl_seconds", method, 1);
  return params;
}

function checkFiles(params: Params, method: string): Params {
  if (method !== "files/list") requireString(params, "path", method, 1024);
  if (method === "files/upload_begin") optionalInteger(params, "size_bytes", method, 0);
  return params;
}

function checkImage(params: Params, method: string): Params {
  requireString(params, "prompt", method);
  if (method === "image/edit") requireString(params, "image_url", method);
  const n = optionalInteger(params, "n", method, 1) ?? 1;
  return { ...params, n };
}

function checkUpload(params: Params, method: string): Params {
  const mode = params["mode"];
  const purpose = params["purpose"] ?? UPLOAD_DEFAULT_PURPOSE;
  if (typeof purpose !== "string") fail(`${method}: 'purpose' must be a string`);
  switch (mode) {
    case "inline": {
      requireString(params, "filename", method);
      requireString(params, "mime_type", method);
      const content = params["content_b64"];
      if (typeof content !== "string" || content === "") {
        fail(`${method}: 'content_b64' must be a non-empty base64 string`);
      }
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(content.replace(/\s+/g, ""))) {
        fail(`${method}: 'content_b64' is not base64`);
      }
      return { ...params, purpose };
    }
    case "negotiate": {
      requireString(params, "filename", method);
      requireString(params, "mime_type", method);
      // The SDK sends `size_bytes`, the wire names it `expected_bytes` (Z23): accept both.
      const expected =
        optionalInteger(params, "expected_bytes", method, 1) ??
        optionalInteger(params, "size_bytes", method, 1);
      return expected === undefined
        ? { ...params, purpose }
        : { ...params, purpose, expected_bytes: expected };
    }
    case "confirm":
      requireString(params, "r2_key", method);
      return params;
    default:
      return fail(`${method}: 'mode' must be "inline", "negotiate" or "confirm"`);
  }
}

function checkEmbeddings(params: Params, limits: RouterLimits, method: string): Params {
  const raw = params["input"];
  // A bare string is wrapped into a one-item batch (R54).
  const input = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(input) || input.length === 0) {
    fail(`${method}: 'input' must be a non-empty string or array of strings`);
  }
  if (input.length > limits.embeddingsMaxInputsPerCall) {
    fail(
      `${method}: ${input.length} inputs; at most ${limits.embeddingsMaxInputsPerCall} per call`,
    );
  }
  input.forEach((item: unknown, index) => {
    if (typeof item !== "string" || item.trim() === "") {
      fail(`${method}: input[${index}] must be a non-empty string`);
    }
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
  if (params === undefined || params === null) params = {};
  if (typeof params !== "object" || Array.isArray(params))
    fail(`${method}: params must be an object`);
  const p = params as Params;
  if (method === "sampling/createMessage") return checkSampling(p, limits, method);
  if (method === "agent/complete") return camelizeSampling(p);
  if (method.startsWith("storage/")) return checkStorage(p, method);
  if (method.startsWith("files/")) return checkFiles(p, method);
  if (method.startsWith("image/")) return checkImage(p, method);
  if (method === "host/uploadFile") return checkUpload(p, method);
  if (method === "embeddings/create") return checkEmbeddings(p, limits, method);
  return p;
}
