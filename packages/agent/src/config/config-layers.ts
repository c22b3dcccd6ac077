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

/** The fields that belong to one provider's endpoint. */
const ENDPOINT_FIELDS = ["baseUrl", "apiKey", "model", "openaiApi", "structuredOutput"] as const;

/**
 * The layers merged in the order given; `undefined` values never override. A layer that names
 * another provider for a section than the layers below drops their endpoint fields (URL, key,
 * model) for it: a key written for one vendor is never sent to another.
 */
export function mergeLlmConfigInputs(layers: readonly LlmConfigLayer[]): LlmConfigInput {
  return merge(layers).merged as LlmConfigInput;
}

/** Each set setting's dotted path (`provider`, `images.model`) and the layer that won it. */
export function llmSettingSources(
  layers: readonly LlmConfigLayer[],
): Record<string, LlmConfigSource> {
  return merge(layers).sources;
}

function merge(layers: readonly LlmConfigLayer[]) {
  const merged: Loose = {};
  const sources: Record<string, LlmConfigSource> = {};
  for (const { source, input } of layers) {
    const top = input as Loose;
    switchProvider(merged, top["provider"], "", sources);
    for (const [key, value] of Object.entries(top)) {
      if (value === undefined) continue;
      if (SECTIONS.has(key) && typeof value === "object" && value !== null) {
        const section = { ...((merged[key] as Loose | undefined) ?? {}) };
        switchProvider(section, (value as Loose)["provider"], `${key}.`, sources);
        for (const [field, v] of Object.entries(value as Loose)) {
          if (v === undefined) continue;
          section[field] = v;
          sources[`${key}.${field}`] = source;
        }
        merged[key] = section;
      } else {
        merged[key] = value;
        sources[key] = source;
      }
    }
  }
  return { merged, sources };
}

function switchProvider(
  target: Loose,
  provider: unknown,
  prefix: string,
  sources: Record<string, LlmConfigSource>,
): void {
  const was = target["provider"];
  if (provider === undefined || was === undefined || was === provider) return;
  for (const field of ENDPOINT_FIELDS) {
    delete target[field];
    delete sources[`${prefix}${field}`];
  }
}

/** The merged layers resolved; problems name settings by their dotted path. */
export function resolveLlmConfigLayers(layers: readonly LlmConfigLayer[]): LlmConfig {
  return parseLlmConfig(mergeLlmConfigInputs(layers));
}
