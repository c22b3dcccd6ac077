// The configuration as layers: a config file, the admin settings in the database and the
// environment each give a partial configuration object, merged setting by setting (later layers
// win), then resolved once. Each purpose's section (`sampling`, `embeddings`, `images`) merges
// field by field too, so the env can pin one key of a section the admin filled in.
import type { LlmConfig, LlmConfigInput } from "./llm-config.js";
import { parseLlmConfig } from "./llm-config.js";

/** Where a setting came from, lowest precedence first. */
export const LLM_CONFIG_SOURCES = ["file", "database", "env"] as const;
export type LlmConfigSource = (typeof LLM_CONFIG_SOURCES)[number];

export interface LlmConfigLayer {
  source: LlmConfigSource;
  input: LlmConfigInput;
}

const SECTIONS = new Set(["sampling", "embeddings", "images"]);

type Loose = Record<string, unknown>;

/** The layers merged in the order given; `undefined` values never override. */
export function mergeLlmConfigInputs(layers: readonly LlmConfigLayer[]): LlmConfigInput {
  const out: Loose = {};
  for (const { input } of layers) {
    for (const [key, value] of Object.entries(input as Loose)) {
      if (value === undefined) continue;
      if (SECTIONS.has(key) && typeof value === "object" && value !== null) {
        const section = { ...((out[key] as Loose | undefined) ?? {}) };
        for (const [field, v] of Object.entries(value as Loose)) {
          if (v !== undefined) section[field] = v;
        }
        out[key] = section;
      } else {
        out[key] = value;
      }
    }
  }
  return out as LlmConfigInput;
}

/** Each set setting's dotted path (`provider`, `images.model`) and the layer that won it. */
export function llmSettingSources(
  layers: readonly LlmConfigLayer[],
): Record<string, LlmConfigSource> {
  const sources: Record<string, LlmConfigSource> = {};
  for (const { source, input } of layers) {
    for (const [key, value] of Object.entries(input as Loose)) {
      if (value === undefined) continue;
      if (SECTIONS.has(key) && typeof value === "object" && value !== null) {
        for (const [field, v] of Object.entries(value as Loose)) {
          if (v !== undefined) sources[`${key}.${field}`] = source;
        }
      } else {
        sources[key] = source;
      }
    }
  }
  return sources;
}

/** The merged layers resolved; problems name settings by their dotted path. */
export function resolveLlmConfigLayers(layers: readonly LlmConfigLayer[]): LlmConfig {
  return parseLlmConfig(mergeLlmConfigInputs(layers));
}
