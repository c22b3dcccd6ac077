// The LLM gateway of `anna-nexus start`, from the environment and the config file: the provider
// and models (`ANNA_LLM_*` and the per-purpose `ANNA_SAMPLING_*`, `ANNA_EMBEDDINGS_*`,
// `ANNA_IMAGES_*`, over the file's `llm`; offline when none is set) and the quota per user
// (`ANNA_LLM_QUOTA_TOKENS`, `ANNA_LLM_QUOTA_IMAGES`, `ANNA_LLM_QUOTA_WINDOW_HOURS`). The admin
// settings in the database sit between the two once it is open (copilot/model-settings.ts).
import {
  type ConfigFile,
  type LlmConfig,
  type LlmConfigInput,
  LlmConfigError,
  llmConfigInputFromEnv,
  resolveLlmConfigLayers,
} from "@anna-ai/agent";
import type { NexusConfig } from "../core/config.js";
import { DEFAULT_CONFIG } from "../core/config.js";
import { usageError } from "./exit.js";

export const LLM_QUOTA_ENV = {
  tokens: "ANNA_LLM_QUOTA_TOKENS",
  images: "ANNA_LLM_QUOTA_IMAGES",
  windowHours: "ANNA_LLM_QUOTA_WINDOW_HOURS",
} as const;

function positiveInt(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
    throw usageError(`${name} must be a whole number above 0 (got '${raw}')`, "start");
  }
  return Number(raw);
}

export function llmFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  file?: ConfigFile,
): {
  llm: LlmConfig;
  /** The env's own settings, layered over the database's at start. */
  envInput: LlmConfigInput;
  quota: NexusConfig["llmQuota"];
} {
  let llm: LlmConfig;
  let envInput: LlmConfigInput;
  try {
    envInput = llmConfigInputFromEnv(env);
    llm = resolveLlmConfigLayers([
      ...(file ? [{ source: "file" as const, input: file.llm }] : []),
      { source: "env", input: envInput },
    ]);
  } catch (err) {
    if (err instanceof LlmConfigError) {
      const where = file ? ` (the environment over ${file.path})` : "";
      throw usageError(`${err.message}${where}`, "start");
    }
    throw err;
  }
  const hours = positiveInt(env, LLM_QUOTA_ENV.windowHours);
  return {
    llm,
    envInput,
    quota: {
      tokensPerUser: positiveInt(env, LLM_QUOTA_ENV.tokens),
      imagesPerUser: positiveInt(env, LLM_QUOTA_ENV.images),
      windowMs: hours === undefined ? DEFAULT_CONFIG.llmQuota.windowMs : hours * 3_600_000,
    },
  };
}

/** What start logs about the gateway: providers and models, never a key or a URL's secrets. */
export function llmSummary(llm: LlmConfig): Record<string, string> {
  const name = (e: { provider: string; model: string | undefined }) =>
    `${e.provider}/${e.model ?? "(none)"}`;
  return {
    chat: name(llm.chat),
    sampling: name(llm.sampling),
    embeddings: name(llm.embeddings),
    images: name(llm.images),
  };
}
