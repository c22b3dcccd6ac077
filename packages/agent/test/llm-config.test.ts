import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  LLM_ENV_VARS,
  LlmConfigError,
  OFFLINE_MODEL_ID,
  Secret,
  llmConfigFromEnv,
  parseLlmConfig,
  redactSecrets,
} from "../src/index.js";

const KEY = "sk-live-abcdefghijklmnop";

function configError(run: () => unknown): LlmConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof LlmConfigError) return error;
    throw error;
  }
  throw new Error("expected an LlmConfigError");
}

describe("the LLM configuration from the environment", () => {
  it("is the offline model when nothing is set, and says so in its model id", () => {
    const config = llmConfigFromEnv({});
    for (const purpose of ["chat", "sampling", "embeddings", "images"] as const) {
      expect(config[purpose]).toMatchObject({ provider: "offline", model: OFFLINE_MODEL_ID });
    }
    expect(config.embeddings.dimensions).toBe(1536);
  });

  it("reads a provider, its key, model and base URL, and lets sampling override the model", () => {
    const config = llmConfigFromEnv({
      ANNA_LLM_PROVIDER: "openai",
      ANNA_LLM_API_KEY: KEY,
      ANNA_LLM_MODEL: "gpt-4.1",
      ANNA_LLM_BASE_URL: "https://proxy.example.com/v1",
      ANNA_SAMPLING_MODEL: "gpt-4.1-mini",
      ANNA_LLM_MAX_RETRIES: "4",
    });
    expect(config.chat).toMatchObject({
      provider: "openai",
      model: "gpt-4.1",
      baseUrl: "https://proxy.example.com/v1",
    });
    expect(config.sampling).toMatchObject({ provider: "openai", model: "gpt-4.1-mini" });
    expect(config.sampling.apiKey?.reveal()).toBe(KEY);
    expect(config.embeddings.model).toBe("text-embedding-3-small");
    expect(config.maxRetries).toBe(4);
  });

  it("never hands a key or URL to a purpose that names another provider", () => {
    const config = llmConfigFromEnv({
      ANNA_LLM_PROVIDER: "anthropic",
      ANNA_LLM_API_KEY: KEY,
      ANNA_LLM_MODEL: "claude-sonnet-4-5",
      ANNA_EMBEDDINGS_PROVIDER: "openai-compatible",
      ANNA_EMBEDDINGS_BASE_URL: "http://127.0.0.1:11434/v1",
      ANNA_EMBEDDINGS_MODEL: "nomic-embed-text",
      ANNA_EMBEDDINGS_DIMENSIONS: "768",
    });
    expect(config.embeddings).toMatchObject({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "nomic-embed-text",
      dimensions: 768,
      apiKey: undefined,
    });
    expect(config.images).toMatchObject({ provider: "anthropic", model: undefined });
  });

  it("names the variable and the accepted values of a bad provider", () => {
    const error = configError(() => llmConfigFromEnv({ ANNA_LLM_PROVIDER: "gemini" }));
    expect(error.message).toContain(
      'ANNA_LLM_PROVIDER must be one of openai, anthropic, openai-compatible, offline (got "gemini")',
    );
  });

  it("lists every missing setting of a real provider at once", () => {
    const error = configError(() => llmConfigFromEnv({ ANNA_LLM_PROVIDER: "openai" }));
    expect(error.issues.map((i) => i.setting)).toEqual(["ANNA_LLM_API_KEY", "ANNA_LLM_MODEL"]);
    const compatible = configError(() =>
      llmConfigFromEnv({ ANNA_LLM_PROVIDER: "openai-compatible", ANNA_LLM_MODEL: "llama3.1" }),
    );
    expect(compatible.message).toContain(
      "ANNA_LLM_BASE_URL is required when ANNA_LLM_PROVIDER is openai-compatible",
    );
    expect(compatible.message).toContain("11434");
  });

  it("refuses malformed numbers, booleans, URLs and enums with what would be right", () => {
    const error = configError(() =>
      llmConfigFromEnv({
        ANNA_LLM_MAX_RETRIES: "lots",
        ANNA_SAMPLING_STRUCTURED_OUTPUT: "maybe",
      }),
    );
    expect(error.message).toContain("ANNA_LLM_MAX_RETRIES must be an integer");
    expect(error.message).toContain("ANNA_SAMPLING_STRUCTURED_OUTPUT must be true or false");
    const url = configError(() =>
      llmConfigFromEnv({ ANNA_LLM_BASE_URL: "ftp://user:hunter22@host/" }),
    );
    expect(url.message).toContain("ANNA_LLM_BASE_URL must be an http:// or https:// URL");
    expect(url.message).not.toContain("hunter22");
    const api = configError(() => llmConfigFromEnv({ ANNA_LLM_OPENAI_API: "assistants" }));
    expect(api.message).toContain("ANNA_LLM_OPENAI_API must be one of responses, chat");
    const retries = configError(() => llmConfigFromEnv({ ANNA_LLM_MAX_RETRIES: "99" }));
    expect(retries.message).toContain("ANNA_LLM_MAX_RETRIES must be an integer from 0 to 10");
  });

  it("documents every variable it reads", () => {
    expect(LLM_ENV_VARS).toContain("ANNA_LLM_PROVIDER");
    expect(LLM_ENV_VARS).toContain("ANNA_SAMPLING_MODEL");
    expect(LLM_ENV_VARS).toContain("ANNA_EMBEDDINGS_DIMENSIONS");
    expect(LLM_ENV_VARS).toContain("ANNA_IMAGES_API_KEY");
  });
});

describe("the LLM configuration object (a file, the admin settings)", () => {
  it("has the same shape and names problems by their path", () => {
    const config = parseLlmConfig({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:8000/v1",
      model: "Qwen/Qwen2.5-7B-Instruct",
      embeddings: { model: "BAAI/bge-m3", dimensions: 1024 },
    });
    expect(config.embeddings).toMatchObject({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:8000/v1",
      dimensions: 1024,
    });
    const error = configError(() =>
      parseLlmConfig({ provider: "openai", images: { provider: "dalle" }, extra: 1 }),
    );
    expect(error.message).toContain("images.provider must be one of");
    expect(error.message).toContain("has unknown settings extra");
  });
});

describe("API keys", () => {
  it("are redacted in toString, JSON, inspect and template literals", () => {
    const config = llmConfigFromEnv({
      ANNA_LLM_PROVIDER: "anthropic",
      ANNA_LLM_API_KEY: KEY,
      ANNA_LLM_MODEL: "claude-sonnet-4-5",
    });
    const secret = config.chat.apiKey as Secret;
    expect(`${secret}`).toBe("[redacted]");
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
    expect(String(secret)).toBe("[redacted]");
    expect(secret.reveal()).toBe(KEY);
  });

  it("are cut out of any text that echoes them", () => {
    expect(redactSecrets(`401 for key ${KEY} at url?key=${KEY}`, [new Secret(KEY)])).toBe(
      "401 for key [redacted] at url?key=[redacted]",
    );
  });

  it("never appear in a configuration error", () => {
    const error = configError(() =>
      llmConfigFromEnv({ ANNA_LLM_PROVIDER: "nope", ANNA_LLM_API_KEY: KEY }),
    );
    expect(error.message).not.toContain(KEY);
  });
});
