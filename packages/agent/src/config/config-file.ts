// The config file of `anna-nexus start --config <file>` (or ANNA_CONFIG): JSON, like every other
// file the platform reads, with the model settings under `llm` in the same shape as the admin
// settings and the env (`ANNA_LLM_PROVIDER` is `llm.provider`, `ANNA_IMAGES_MODEL` is
// `llm.images.model`). A secret need not be written in the file: `{"env": "NAME"}` reads it from
// the server's environment at start, so the file can be committed.
import { readFile, stat } from "node:fs/promises";
import { didYouMean } from "@anna-ai/app-schema";
import type { LlmConfigInput, LlmConfigIssue } from "./llm-config.js";
import { LlmConfigError, parseLlmConfigInput } from "./llm-config.js";

/** A config file is a few hundred bytes; anything this big is the wrong file. */
export const CONFIG_FILE_MAX_BYTES = 256 * 1024;
/** The top-level keys of the file. `$schema` lets an editor validate it. */
export const CONFIG_FILE_KEYS = ["$schema", "llm"] as const;

export class ConfigFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConfigFileError";
  }
}

export interface ConfigFile {
  path: string;
  llm: LlmConfigInput;
}

/** Reads, resolves `{"env": …}` references against `env`, and checks the file. */
export async function readConfigFile(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ConfigFile> {
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ConfigFileError(`config file ${path} is not a regular file`);
    if (info.size > CONFIG_FILE_MAX_BYTES) {
      throw new ConfigFileError(
        `config file ${path} is ${info.size} bytes; a config file is at most ${CONFIG_FILE_MAX_BYTES}`,
      );
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof ConfigFileError) throw error;
    throw new ConfigFileError(
      `cannot read config file ${path}: ${(error as Error).message}; pass an existing JSON file to --config or ANNA_CONFIG`,
      { cause: error },
    );
  }
  return parseConfigFile(text, path, env);
}

/** The file's text checked; every problem names its key path in the file and what is allowed. */
export function parseConfigFile(
  text: string,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): ConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(
      `config file ${path} is not valid JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new ConfigFileError(`config file ${path} must be a JSON object like {"llm": {…}}`);
  }
  const top = json as Record<string, unknown>;
  const unknown = Object.keys(top).filter(
    (k) => !(CONFIG_FILE_KEYS as readonly string[]).includes(k),
  );
  if (unknown.length > 0) {
    const hints = unknown.map((k) => didYouMean(k, CONFIG_FILE_KEYS)).join("");
    throw new ConfigFileError(
      `config file ${path}: unknown key ${unknown.join(", ")}; the file has ${CONFIG_FILE_KEYS.join(", ")}.${hints}`,
    );
  }
  const issues: LlmConfigIssue[] = [];
  const llm = resolveEnvRefs(top["llm"] ?? {}, ["llm"], env, issues);
  if (issues.length > 0) throw fileError(path, new LlmConfigError(issues));
  try {
    parseLlmConfigInput(llm, (p) => ["llm", ...p].join("."));
  } catch (error) {
    if (error instanceof LlmConfigError) throw fileError(path, error);
    throw error;
  }
  return { path, llm: llm as LlmConfigInput };
}

function fileError(path: string, error: LlmConfigError): ConfigFileError {
  return new ConfigFileError(
    `config file ${path}: ${error.issues.map((i) => `${i.setting} ${i.message}`).join("; ")}`,
    { cause: error },
  );
}

/** `{"env": "NAME"}` anywhere a value goes becomes the variable's value. */
function resolveEnvRefs(
  value: unknown,
  path: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  issues: LlmConfigIssue[],
): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]?.[0] === "env") {
    const name = entries[0][1];
    const setting = path.join(".");
    if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      issues.push({ setting, message: 'takes {"env": "VARIABLE_NAME"} with a variable name' });
      return undefined;
    }
    const got = env[name]?.trim();
    if (got === undefined || got === "") {
      issues.push({ setting, message: `reads the environment variable ${name}, which is not set` });
      return undefined;
    }
    return got;
  }
  return Object.fromEntries(
    entries.map(([k, v]) => [k, resolveEnvRefs(v, [...path, k], env, issues)]),
  );
}
