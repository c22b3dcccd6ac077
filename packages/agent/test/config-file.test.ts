// The config file of `anna-nexus start --config`: the same settings as the env under `llm`,
// secrets from the environment with {"env": …}, every problem naming its key, and the layers
// (file < database < env) merged setting by setting.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  ConfigFileError,
  llmConfigInputFromEnv,
  llmSettingSources,
  parseConfigFile,
  readConfigFile,
  resolveLlmConfigLayers,
} from "../src/index.js";

function writeConfig(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), "anna-config-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "anna.json");
  writeFileSync(file, content);
  return file;
}

const GOOD = JSON.stringify({
  $schema: "https://example.com/anna-config.schema.json",
  llm: {
    provider: "openai",
    apiKey: { env: "OPENAI_KEY_FOR_TEST" },
    model: "gpt-4.1-mini",
    images: { model: "gpt-image-1" },
    embeddings: { dimensions: 512 },
  },
});

describe("the config file", () => {
  it("reads the settings and takes the key from the named variable", async () => {
    const file = writeConfig(GOOD);
    const read = await readConfigFile(file, { OPENAI_KEY_FOR_TEST: "sk-from-env-123456" });
    expect(read.path).toBe(file);
    const config = resolveLlmConfigLayers([{ source: "file", input: read.llm }]);
    expect(config.chat).toMatchObject({ provider: "openai", model: "gpt-4.1-mini" });
    expect(config.chat.apiKey?.reveal()).toBe("sk-from-env-123456");
    expect(config.images.model).toBe("gpt-image-1");
    expect(config.embeddings.dimensions).toBe(512);
  });

  it("names an unknown key, where it is, and the key it probably meant", () => {
    const typo = JSON.stringify({ llm: { provider: "openai", apiKey: "sk-x", modle: "gpt" } });
    expect(() => parseConfigFile(typo, "anna.json", {})).toThrow(
      /config file anna\.json: llm has unknown settings modle; known: provider, baseUrl, .*Did you mean "model"\?/,
    );
    const nested = JSON.stringify({ llm: { images: { modell: "gpt-image-1" } } });
    expect(() => parseConfigFile(nested, "anna.json", {})).toThrow(
      /llm\.images has unknown settings modell; known: provider, baseUrl, apiKey, model, openaiApi, structuredOutput\. Did you mean "model"\?/,
    );
    expect(() => parseConfigFile(JSON.stringify({ lm: {} }), "anna.json", {})).toThrow(
      'config file anna.json: unknown key lm; the file has $schema, llm. Did you mean "llm"?',
    );
  });

  it("says what a setting allows, and which variable a secret reference lacks", () => {
    const bad = JSON.stringify({ llm: { provider: "openia", maxRetries: 99 } });
    expect(() => parseConfigFile(bad, "anna.json", {})).toThrow(
      'llm.provider must be one of openai, anthropic, openai-compatible, offline (got "openia")',
    );
    expect(() => parseConfigFile(bad, "anna.json", {})).toThrow(
      "llm.maxRetries must be an integer from 0 to 10",
    );
    const missing = JSON.stringify({ llm: { apiKey: { env: "NOT_SET_ANYWHERE" } } });
    expect(() => parseConfigFile(missing, "anna.json", {})).toThrow(
      "llm.apiKey reads the environment variable NOT_SET_ANYWHERE, which is not set",
    );
    expect(() => parseConfigFile("{ not json", "anna.json", {})).toThrow(ConfigFileError);
    expect(() => parseConfigFile("[]", "anna.json", {})).toThrow("must be a JSON object");
  });

  it("says which file cannot be read", async () => {
    await expect(readConfigFile("/nonexistent/anna.json", {})).rejects.toThrow(
      /cannot read config file \/nonexistent\/anna\.json: .*ENOENT.*pass an existing JSON file/,
    );
  });
});

describe("the configuration layers", () => {
  it("lets the env override the database and the database the file, setting by setting", () => {
    const file = parseConfigFile(GOOD, "anna.json", { OPENAI_KEY_FOR_TEST: "sk-file-key-1234" });
    const database = { model: "gpt-4.1" };
    const env = llmConfigInputFromEnv({ ANNA_IMAGES_MODEL: "dall-e-3", ANNA_LLM_MAX_RETRIES: "0" });
    const layers = [
      { source: "file" as const, input: file.llm },
      { source: "database" as const, input: database },
      { source: "env" as const, input: env },
    ];
    const config = resolveLlmConfigLayers(layers);
    expect(config.chat.model).toBe("gpt-4.1");
    expect(config.images.model).toBe("dall-e-3");
    expect(config.embeddings.dimensions).toBe(512);
    expect(config.maxRetries).toBe(0);
    expect(llmSettingSources(layers)).toMatchObject({
      provider: "file",
      apiKey: "file",
      model: "database",
      "images.model": "env",
      "embeddings.dimensions": "file",
      maxRetries: "env",
    });
  });

  it("never carries a lower layer's key to another vendor", () => {
    const layers = [
      {
        source: "file" as const,
        input: { provider: "openai" as const, apiKey: "sk-openai-file-key", model: "gpt-4.1" },
      },
      { source: "database" as const, input: { provider: "anthropic" as const } },
    ];
    expect(() => resolveLlmConfigLayers(layers)).toThrow(
      "apiKey is required when provider is anthropic",
    );
    expect(llmSettingSources(layers)).toEqual({ provider: "database" });
  });

  it("reports a bad env value under its variable's name", () => {
    expect(() => llmConfigInputFromEnv({ ANNA_LLM_PROVIDER: "gemini" })).toThrow(
      "ANNA_LLM_PROVIDER must be one of openai, anthropic, openai-compatible, offline",
    );
  });
});
