// `anna-nexus start --config <file>` (and ANNA_CONFIG) in the real process: the file's model
// settings are used with their key read from the named variable, the environment overrides the
// file, and a file with an unknown key refuses to start naming the key and what was meant.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { startNexus } from "../helpers/process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-config-"));
  dirs.push(d);
  return d;
};

function configFile(content: unknown): string {
  const file = join(tempDir(), "nexus.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const FILE_SETTINGS = {
  llm: {
    provider: "openai-compatible",
    baseUrl: "http://127.0.0.1:9/v1",
    apiKey: { env: "LOCAL_MODEL_KEY" },
    model: "model-from-file",
    images: { model: "images-from-file" },
  },
};

async function gatewayLine(args: string[], env: NodeJS.ProcessEnv) {
  const p = startNexus(["start", "--port", "0", "--data", tempDir(), ...args], env);
  onTestFinished(async () => {
    p.signal("SIGKILL");
    await p.exited().catch(() => {});
  });
  const line = await p.waitFor(/\{[^\n]*"msg":"llm gateway ready"[^\n]*\}/);
  return JSON.parse(line[0]) as Record<string, unknown>;
}

describe("anna-nexus start with a config file", () => {
  it("uses the file's models, the env overriding them", async () => {
    const file = configFile(FILE_SETTINGS);
    const fromFile = await gatewayLine(["--config", file], { LOCAL_MODEL_KEY: "sk-local-123456" });
    expect(fromFile).toMatchObject({
      chat: "openai-compatible/model-from-file",
      images: "openai-compatible/images-from-file",
      config_file: file,
    });
    expect(JSON.stringify(fromFile)).not.toContain("sk-local-123456");

    const overridden = await gatewayLine([], {
      ANNA_CONFIG: file,
      LOCAL_MODEL_KEY: "sk-local-123456",
      ANNA_LLM_MODEL: "model-from-env",
    });
    expect(overridden).toMatchObject({
      chat: "openai-compatible/model-from-env",
      images: "openai-compatible/images-from-file",
    });
  });

  it("refuses to start with an unknown key, or a secret variable that is not set", async () => {
    const typo = configFile({ llm: { ...FILE_SETTINGS.llm, modle: "x" } });
    const bad = startNexus(["start", "--port", "0", "--data", tempDir(), "--config", typo], {
      LOCAL_MODEL_KEY: "sk-local-123456",
    });
    expect(await bad.exited()).toBe(2);
    expect(bad.stderr()).toContain(`config file ${typo}: llm has unknown settings modle`);
    expect(bad.stderr()).toContain('Did you mean "model"?');

    const file = configFile(FILE_SETTINGS);
    const unset = startNexus(["start", "--port", "0", "--data", tempDir(), "--config", file], {
      LOCAL_MODEL_KEY: "",
    });
    expect(await unset.exited()).toBe(2);
    expect(unset.stderr()).toContain(
      "llm.apiKey reads the environment variable LOCAL_MODEL_KEY, which is not set",
    );
  });
});
