// The answer of GET/PUT /api/v1/super-admin/settings/models: what each purpose runs on now, the
// admin's own layer (what the form edits) with its keys as set/unset only, where each setting
// comes from, what the environment pins, and the recent changes.
import type { LlmConfig, LlmConfigInput, ModelEndpoint } from "@anna-ai/agent";
import type { ModelSettings } from "../copilot/model-settings.js";

const SECTIONS = ["sampling", "embeddings", "images"] as const;
type Loose = Record<string, unknown>;

function endpointView(e: ModelEndpoint) {
  return {
    provider: e.provider,
    model: e.model ?? null,
    base_url: e.baseUrl ?? null,
    api_key: e.apiKey === undefined ? "unset" : "set",
    structured_output: e.structuredOutput,
  };
}

/** The admin's layer without key values; `keys` says which of its keys are stored. */
function withoutKeys(input: LlmConfigInput): { settings: Loose; keys: Record<string, string> } {
  const settings: Loose = { ...(input as Loose) };
  const keys: Record<string, string> = {};
  keys["apiKey"] = settings["apiKey"] === undefined ? "unset" : "set";
  delete settings["apiKey"];
  for (const section of SECTIONS) {
    const s = settings[section] as Loose | undefined;
    keys[`${section}.apiKey`] = s?.["apiKey"] === undefined ? "unset" : "set";
    if (s !== undefined) {
      const { apiKey: _key, ...rest } = s;
      settings[section] = rest;
    }
  }
  return { settings, keys };
}

export async function modelSettingsView(models: ModelSettings, config: LlmConfig) {
  const state = models.state(config);
  const { settings, keys } = withoutKeys(state.database);
  return {
    version: state.version,
    updated_at: state.updatedAt,
    file: state.filePath ?? null,
    precedence: "env > database > file",
    effective: {
      chat: endpointView(config.chat),
      sampling: endpointView(config.sampling),
      embeddings: { ...endpointView(config.embeddings), dimensions: config.embeddings.dimensions },
      images: endpointView(config.images),
      max_retries: config.maxRetries,
      timeout_ms: config.timeoutMs,
    },
    settings,
    keys,
    sources: state.sources,
    pinned: state.pinned,
    audit: (await models.audit()).map((a) => ({
      changed_by: a.changedBy,
      changed_at: a.changedAt,
      changes: a.changes,
    })),
  };
}
