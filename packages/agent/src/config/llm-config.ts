// The LLM gateway's configuration: one base endpoint (`ANNA_LLM_*`) and per-purpose overrides for
// sampling, embeddings and images (`ANNA_SAMPLING_*`, `ANNA_EMBEDDINGS_*`, `ANNA_IMAGES_*`). The same
// shape comes from the environment (config-env.ts), a config file or the admin settings; it is
// parsed once here with zod, and every problem names the setting and the values it accepts.
//
// A purpose inherits the base endpoint's fields it does not set, except when it names a different
// provider: then nothing is inherited, so an OpenAI key is never sent to another vendor's URL.
import { didYouMean } from "@anna-ai/app-schema";
import { z } from "zod";
import { Secret } from "./secret.js";

export const LLM_PROVIDERS = ["openai", "anthropic", "openai-compatible", "offline"] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** OpenAI's two text APIs; the AI SDK's default for OpenAI is the Responses API. */
export const OPENAI_APIS = ["responses", "chat"] as const;
export type OpenAiApi = (typeof OPENAI_APIS)[number];

export const DEFAULT_MAX_RETRIES = 2;
export const MAX_MAX_RETRIES = 10;
export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
/** Dimensions of the `anna-managed-v1` embeddings alias (R54: fixed per alias). */
export const DEFAULT_EMBEDDING_DIMENSIONS = 1536;
/** Model ids that OpenAI keeps stable for years; other providers have no safe default. */
export const OPENAI_DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";
export const OPENAI_DEFAULT_IMAGE_MODEL = "gpt-image-1";
/** The offline model's id: it says what it is, so it is never taken for a real model. */
export const OFFLINE_MODEL_ID = "offline";

const EndpointShape = {
  provider: z.enum(LLM_PROVIDERS).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  apiKey: z.string().min(1).optional(),
  model: z.string().trim().min(1).optional(),
  openaiApi: z.enum(OPENAI_APIS).optional(),
  /** Whether the model honours a JSON Schema response format (T18's `supports_structured_output`). */
  structuredOutput: z.boolean().optional(),
};
const EndpointSchema = z.strictObject(EndpointShape);

/** The configuration object a file or the admin settings give. Every field is optional. */
export const LlmConfigInputSchema = z.strictObject({
  ...EndpointShape,
  sampling: EndpointSchema.optional(),
  embeddings: z
    .strictObject({ ...EndpointShape, dimensions: z.int().min(1).max(16_384).optional() })
    .optional(),
  images: EndpointSchema.optional(),
  maxRetries: z.int().min(0).max(MAX_MAX_RETRIES).optional(),
  timeoutMs: z.int().min(1_000).max(600_000).optional(),
  /** A JSONL file of scripted answers for the offline model (the `--mock-*` format). */
  offlineFixture: z.string().min(1).optional(),
});
export type LlmConfigInput = z.input<typeof LlmConfigInputSchema>;

export type Purpose = "chat" | "sampling" | "embeddings" | "images";

/** One model behind one purpose, with everything needed to call it. */
export interface ModelEndpoint {
  purpose: Purpose;
  provider: LlmProvider;
  /** Undefined when the purpose has no model configured and the provider has no default. */
  model: string | undefined;
  baseUrl: string | undefined;
  apiKey: Secret | undefined;
  openaiApi: OpenAiApi;
  structuredOutput: boolean;
}

export interface LlmConfig {
  chat: ModelEndpoint;
  sampling: ModelEndpoint;
  embeddings: ModelEndpoint & { dimensions: number };
  images: ModelEndpoint;
  maxRetries: number;
  timeoutMs: number;
  offlineFixture: string | undefined;
}

export interface LlmConfigIssue {
  /** The setting as the operator wrote it: an env var, or a dotted path in the config object. */
  setting: string;
  message: string;
}

export class LlmConfigError extends Error {
  readonly issues: readonly LlmConfigIssue[];

  constructor(issues: readonly LlmConfigIssue[]) {
    super(
      `invalid LLM configuration: ${issues.map((i) => `${i.setting} ${i.message}`).join("; ")}`,
    );
    this.name = "LlmConfigError";
    this.issues = issues;
  }
}

/** How settings are named in messages: env var names, or the object's own paths. */
export type SettingNames = (path: readonly (string | number)[]) => string;

const objectPath: SettingNames = (path) => (path.length === 0 ? "config" : path.join("."));

/**
 * Parses and resolves a configuration object. An empty object is the offline default. Throws
 * `LlmConfigError` listing every problem; key values never appear in a message.
 */
export function parseLlmConfig(input: unknown, names: SettingNames = objectPath): LlmConfig {
  const raw = parseLlmConfigInput(input, names);
  const issues: LlmConfigIssue[] = [];
  const base = endpoint("chat", raw, undefined, names, issues);
  const config: LlmConfig = {
    chat: base,
    sampling: endpoint("sampling", raw.sampling ?? {}, raw, names, issues),
    embeddings: {
      ...endpoint("embeddings", raw.embeddings ?? {}, raw, names, issues),
      dimensions: raw.embeddings?.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS,
    },
    images: endpoint("images", raw.images ?? {}, raw, names, issues),
    maxRetries: raw.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: raw.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    offlineFixture: raw.offlineFixture,
  };
  if (issues.length > 0) throw new LlmConfigError(issues);
  return config;
}

/**
 * Checks the shape of a configuration object (types, enums, unknown keys) without resolving it:
 * a layer (file, admin settings, env) may be partial, the merge of all of them must resolve.
 */
export function parseLlmConfigInput(
  input: unknown,
  names: SettingNames = objectPath,
): z.infer<typeof LlmConfigInputSchema> {
  const parsed = LlmConfigInputSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new LlmConfigError(
      parsed.error.issues.map((issue) => ({
        setting: names(issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))),
        message: issueMessage(issue, input),
      })),
    );
  }
  return parsed.data;
}

type RawEndpoint = z.infer<typeof EndpointSchema>;

function endpoint(
  purpose: Purpose,
  own: RawEndpoint,
  base: RawEndpoint | undefined,
  names: SettingNames,
  issues: LlmConfigIssue[],
): ModelEndpoint {
  const prefix = purpose === "chat" ? [] : [purpose];
  const provider = own.provider ?? base?.provider ?? "offline";
  // Inherit only from the same vendor: a key or URL meant for one provider never reaches another.
  const inherit =
    base !== undefined && (own.provider === undefined || own.provider === base.provider);
  const pick = <K extends keyof RawEndpoint>(key: K): RawEndpoint[K] =>
    own[key] ?? (inherit ? base[key] : undefined);
  const name = (key: string) => names([...prefix, key]);
  const baseUrl = pick("baseUrl");
  const apiKey = pick("apiKey");
  // The base model is a chat model: sampling may share it, embeddings and images never do.
  let model = purpose === "embeddings" || purpose === "images" ? own.model : pick("model");

  // An inherited field that is missing is the base endpoint's problem, reported once there.
  const report = (issue: LlmConfigIssue) => {
    if (!inherit) issues.push(issue);
  };
  if (provider === "offline") {
    model = OFFLINE_MODEL_ID;
  } else {
    if (provider === "openai-compatible" && baseUrl === undefined) {
      report({
        setting: name("baseUrl"),
        message: `is required when ${name("provider")} is openai-compatible (e.g. http://127.0.0.1:11434/v1 for Ollama, http://127.0.0.1:8000/v1 for vLLM, http://127.0.0.1:8080/v1 for llama.cpp)`,
      });
    }
    if ((provider === "openai" || provider === "anthropic") && apiKey === undefined) {
      report({
        setting: name("apiKey"),
        message: `is required when ${name("provider")} is ${provider}`,
      });
    }
    model ??= defaultModel(purpose, provider);
    if (model === undefined && (purpose === "chat" || purpose === "sampling")) {
      report({
        setting: name("model"),
        message: `is required when ${name("provider")} is ${provider} (the provider's model id, e.g. ${exampleModel(provider)})`,
      });
    }
  }
  return {
    purpose,
    provider,
    model,
    baseUrl,
    apiKey: apiKey === undefined ? undefined : new Secret(apiKey),
    openaiApi: pick("openaiApi") ?? "responses",
    structuredOutput: pick("structuredOutput") ?? defaultStructuredOutput(provider),
  };
}

function defaultModel(purpose: Purpose, provider: LlmProvider): string | undefined {
  if (provider !== "openai") return undefined;
  if (purpose === "embeddings") return OPENAI_DEFAULT_EMBEDDING_MODEL;
  if (purpose === "images") return OPENAI_DEFAULT_IMAGE_MODEL;
  return undefined;
}

/**
 * OpenAI models take a JSON Schema response format; for Anthropic and local servers support
 * varies by model, so the admin turns it on (T18: missing means unsupported). The offline model
 * always answers schema-shaped JSON.
 */
function defaultStructuredOutput(provider: LlmProvider): boolean {
  return provider === "openai" || provider === "offline";
}

function exampleModel(provider: LlmProvider): string {
  if (provider === "anthropic") return "claude-sonnet-4-5";
  if (provider === "openai") return "gpt-4.1-mini";
  return "llama3.1:8b";
}

const ACCEPTED: Readonly<Record<string, readonly string[]>> = {
  provider: LLM_PROVIDERS,
  openaiApi: OPENAI_APIS,
};

/** Says what is accepted; echoes the value only for enum settings, never a key or a URL. */
function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const key = String(issue.path.at(-1) ?? "");
  const accepted = ACCEPTED[key];
  if (accepted !== undefined) {
    const got = valueAt(input, issue.path);
    const shown = typeof got === "string" ? ` (got "${got.slice(0, 40)}")` : "";
    return `must be one of ${accepted.join(", ")}${shown}`;
  }
  if (issue.code === "unrecognized_keys") {
    const known = knownKeysAt(issue.path);
    const hints = issue.keys.map((k) => didYouMean(k, known).trim()).filter((h) => h !== "");
    return `has unknown settings ${issue.keys.join(", ")}; known: ${known.join(", ")}${hints.length > 0 ? `. ${hints.join(" ")}` : ""}`;
  }
  if (key === "baseUrl") return "must be an http:// or https:// URL";
  if (key === "apiKey") return "must be a non-empty string";
  if (key === "structuredOutput") return "must be true or false";
  if (key === "maxRetries") return `must be an integer from 0 to ${MAX_MAX_RETRIES}`;
  if (key === "timeoutMs") return "must be an integer number of milliseconds from 1000 to 600000";
  if (key === "dimensions") return "must be an integer from 1 to 16384";
  return issue.message;
}

/** The settings an object at `path` accepts: the top level, or one purpose's section. */
function knownKeysAt(path: readonly PropertyKey[]): string[] {
  const section = path[0];
  if (section === "embeddings") return [...Object.keys(EndpointShape), "dimensions"];
  if (section === "sampling" || section === "images") return Object.keys(EndpointShape);
  return Object.keys(LlmConfigInputSchema.shape);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
