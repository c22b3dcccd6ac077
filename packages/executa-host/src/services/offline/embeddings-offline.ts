// Offline `embeddings/create` (R54–R55): `off` (the platform's EMBED_API_ENABLED=false),
// `synthetic` (deterministic unit vectors from a hash of the text) and `mock` (fixture lines
// `{"ns":"embeddings","method":"create",…}` or `{"ns":"llm","method":"embed",…}`, synthetic
// vectors when no line matches).
//
// The router already wraps a bare string and enforces the bridge caps (128 inputs, 64 000
// characters). This service plays Nexus, whose own caps are tighter (64 inputs, 32 000
// characters, R54) and which knows the model aliases. The input checks run again here so the
// service is safe to call without the router (the app-side `llm.embed`).
import {
  DEFAULT_EMBED_MODEL,
  EMBED_MAX_CHARS_PER_INPUT,
  EMBED_MAX_INPUTS,
} from "@anna-ai/app-schema";
import type { EmbeddingsCreateResult } from "@anna-ai/app-schema";
import { EMBEDDINGS_ERRORS } from "@anna-ai/app-schema/errors";
import type { EmbeddingsService } from "../embeddings-service.js";
import { catalogError } from "../service-error.js";
import type { MockFixture } from "./mock-fixture.js";
import { fixtureRpcError } from "./sampling-fixture.js";
import { approxTokens, charCount } from "./synthetic-tokens.js";
import { syntheticEmbedding } from "./synthetic-vector.js";

export type OfflineEmbeddingsMode = "off" | "mock" | "synthetic";

export interface EmbeddingAlias {
  /** Fixed per alias (R54: "dimensions are immutable per alias"). */
  dimensions: number;
}

/** The host aliases (R54). `anna-managed-v2` exists only behind EMBEDDING_ENABLE_V2. */
export const EMBEDDING_ALIASES: Readonly<Record<string, EmbeddingAlias>> = Object.freeze({
  [DEFAULT_EMBED_MODEL]: Object.freeze({ dimensions: 1536 }),
});

/** `_meta.backendModel` of synthetic vectors: says plainly they come from no real model. */
export const SYNTHETIC_EMBEDDING_BACKEND = "offline/sha256-synthetic";
/** `_meta.provider` of every offline answer. */
export const OFFLINE_EMBEDDING_PROVIDER = "offline";
/** The `message` of the `off` error. */
export const EMBEDDINGS_DISABLED_MESSAGE = "embeddings_disabled";

export interface OfflineEmbeddingsOptions {
  mode: OfflineEmbeddingsMode;
  /** Mock-answer file for `mock` mode; without one, mock answers like `synthetic`. */
  fixture?: MockFixture;
  /** Replaces the alias table (e.g. to add `anna-managed-v2`). */
  aliases?: Readonly<Record<string, EmbeddingAlias>>;
  /** Nexus cap on inputs per request; default 64 (`EMBED_MAX_INPUTS_PER_REQUEST`). */
  maxInputs?: number;
  /** Nexus cap on characters per input; default 32 000 (`EMBED_MAX_CHARS_PER_INPUT`). */
  maxCharsPerInput?: number;
}

function invalid(message: string, data: Record<string, unknown> = {}): never {
  throw catalogError(EMBEDDINGS_ERRORS.INVALID_REQUEST, message, data);
}

export function createOfflineEmbeddingsService(
  options: OfflineEmbeddingsOptions,
): EmbeddingsService {
  if (options.mode === "off") {
    return {
      create: () =>
        Promise.reject(
          catalogError(EMBEDDINGS_ERRORS.NOT_NEGOTIATED, EMBEDDINGS_DISABLED_MESSAGE, {
            reason: "DISABLED",
            hint: "embeddings are switched off on this host; run with synthetic or mock embeddings",
          }),
        ),
    };
  }
  const aliases = options.aliases ?? EMBEDDING_ALIASES;
  const maxInputs = options.maxInputs ?? EMBED_MAX_INPUTS;
  const maxChars = options.maxCharsPerInput ?? EMBED_MAX_CHARS_PER_INPUT;
  const fixture = options.mode === "mock" ? options.fixture : undefined;

  const create = (params: { input: unknown; model?: string | null }): EmbeddingsCreateResult => {
    const input = checkEmbeddingInputs(params.input, maxInputs, maxChars);
    const alias = params.model ?? DEFAULT_EMBED_MODEL;
    const spec = Object.hasOwn(aliases, alias) ? aliases[alias] : undefined;
    if (spec === undefined) {
      const known = Object.keys(aliases);
      invalid(`unknown embedding model alias '${alias}'; available aliases: ${known.join(", ")}`, {
        model: alias,
        aliases: known,
      });
    }
    const promptTokens = input.reduce((sum, text) => sum + approxTokens(text), 0);
    const entry = fixture?.find("embeddings/create", { ...params, input });
    if (entry?.error !== undefined) throw fixtureRpcError(entry.error, "embeddings");
    if (entry?.result !== undefined) return fromFixtureResult(entry.result, alias, promptTokens);
    if (entry?.events !== undefined) {
      throw catalogError(
        EMBEDDINGS_ERRORS.PROVIDER_ERROR,
        `mock embeddings: ${fixture?.file ?? "fixture"}:${entry.line} answers with "events"; embeddings lines need "result" or "error"`,
        { line: entry.line },
      );
    }
    return {
      object: "list",
      model: alias,
      data: input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: syntheticEmbedding(text, alias, spec.dimensions),
      })),
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      _meta: {
        alias,
        dimensions: spec.dimensions,
        backendModel: SYNTHETIC_EMBEDDING_BACKEND,
        provider: OFFLINE_EMBEDDING_PROVIDER,
      },
    };
  };

  return {
    create: (params) => {
      try {
        return Promise.resolve(create(params));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}

/**
 * Nexus's validation (R54, R121, L9324): reject the whole batch, never truncate. Shared with the
 * gateway-backed service in `@anna-ai/agent`, so both refuse the same inputs with the same codes.
 */
export function checkEmbeddingInputs(raw: unknown, maxInputs: number, maxChars: number): string[] {
  const input = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(input)) invalid("'input' must be a string or a list of strings");
  if (input.length === 0) invalid("'input' must not be empty");
  if (input.length > maxInputs) {
    invalid(`too many inputs: ${input.length} > max=${maxInputs}`, { maxInputs });
  }
  input.forEach((item: unknown, index) => {
    if (typeof item !== "string") invalid(`input[${index}] is not a string`, { index });
    if (item.trim() === "") invalid(`input[${index}] is empty`, { index });
    const chars = charCount(item);
    if (chars > maxChars) {
      invalid(`input[${index}] has ${chars} characters; at most ${maxChars}`, {
        index,
        maxCharsPerInput: maxChars,
      });
    }
  });
  return input as string[];
}

/**
 * A fixture `result` as written, with `object`, `model` and `usage` filled in when missing
 * (plugins read `model`; the OpenAI shape has the other two).
 */
function fromFixtureResult(
  result: unknown,
  alias: string,
  promptTokens: number,
): EmbeddingsCreateResult {
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    return result as EmbeddingsCreateResult;
  }
  const out = structuredClone(result) as Record<string, unknown>;
  out["object"] ??= "list";
  out["model"] ??= alias;
  out["usage"] ??= { prompt_tokens: promptTokens, total_tokens: promptTokens };
  return out as EmbeddingsCreateResult;
}
