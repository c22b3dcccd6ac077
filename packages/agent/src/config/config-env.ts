// The environment form of the LLM configuration. Every variable maps onto one field of the
// configuration object, so the env, a config file and the admin settings are one schema; messages
// name the variable the operator set. Empty variables count as unset.
import type { LlmConfig, LlmConfigInput, LlmConfigIssue, SettingNames } from "./llm-config.js";
import { LlmConfigError, parseLlmConfig, parseLlmConfigInput } from "./llm-config.js";

type FieldKind = "string" | "boolean" | "integer";

/** Env prefix of each section: the base endpoint and the per-purpose overrides. */
const SECTIONS = {
  "": "ANNA_LLM_",
  sampling: "ANNA_SAMPLING_",
  embeddings: "ANNA_EMBEDDINGS_",
  images: "ANNA_IMAGES_",
} as const;

const ENDPOINT_FIELDS: Readonly<Record<string, readonly [string, FieldKind]>> = {
  provider: ["PROVIDER", "string"],
  baseUrl: ["BASE_URL", "string"],
  apiKey: ["API_KEY", "string"],
  model: ["MODEL", "string"],
  openaiApi: ["OPENAI_API", "string"],
  structuredOutput: ["STRUCTURED_OUTPUT", "boolean"],
};

const SECTION_FIELDS: Readonly<
  Record<string, Readonly<Record<string, readonly [string, FieldKind]>>>
> = {
  "": {
    ...ENDPOINT_FIELDS,
    maxRetries: ["MAX_RETRIES", "integer"],
    timeoutMs: ["TIMEOUT_MS", "integer"],
    offlineFixture: ["OFFLINE_FIXTURE", "string"],
  },
  sampling: ENDPOINT_FIELDS,
  embeddings: { ...ENDPOINT_FIELDS, dimensions: ["DIMENSIONS", "integer"] },
  images: ENDPOINT_FIELDS,
};

/** Every variable the gateway reads, for docs and `--help`. */
export const LLM_ENV_VARS: readonly string[] = Object.entries(SECTION_FIELDS).flatMap(
  ([section, fields]) =>
    Object.values(fields).map(
      ([suffix]) => `${SECTIONS[section as keyof typeof SECTIONS]}${suffix}`,
    ),
);

/** The env var behind a path of the configuration object. */
export const envSettingName: SettingNames = (path) => {
  const [first, second] = path.map(String);
  const inSection = first !== undefined && first in SECTIONS && first !== "";
  const section = inSection ? first : "";
  const field = inSection ? second : first;
  const suffix = field === undefined ? undefined : SECTION_FIELDS[section]?.[field]?.[0];
  if (suffix === undefined) return path.join(".") || "environment";
  return `${SECTIONS[section as keyof typeof SECTIONS]}${suffix}`;
};

/** Builds the configuration object from the environment, then parses it like any other. */
export function llmConfigFromEnv(env: Readonly<Record<string, string | undefined>>): LlmConfig {
  return parseLlmConfig(llmConfigInputFromEnv(env), envSettingName);
}

/**
 * The settings the environment sets, as a configuration object (not yet resolved), so it can be
 * layered over a config file and the admin settings. Throws `LlmConfigError` naming the variable
 * when a value has the wrong type.
 */
export function llmConfigInputFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): LlmConfigInput {
  const input: Record<string, unknown> = {};
  const issues: LlmConfigIssue[] = [];
  for (const [section, fields] of Object.entries(SECTION_FIELDS)) {
    const target: Record<string, unknown> = {};
    for (const [field, [suffix, kind]] of Object.entries(fields)) {
      const name = `${SECTIONS[section as keyof typeof SECTIONS]}${suffix}`;
      const raw = env[name]?.trim();
      if (raw === undefined || raw === "") continue;
      const value = convert(raw, kind);
      if (value === undefined) {
        issues.push({
          setting: name,
          message: kind === "boolean" ? "must be true or false" : "must be an integer",
        });
        continue;
      }
      target[field] = value;
    }
    if (section === "") Object.assign(input, target);
    else if (Object.keys(target).length > 0) input[section] = target;
  }
  if (issues.length > 0) throw new LlmConfigError(issues);
  // Checked here so an unknown provider is reported under its variable's name.
  parseLlmConfigInput(input, envSettingName);
  return input as LlmConfigInput;
}

function convert(raw: string, kind: FieldKind): string | number | boolean | undefined {
  if (kind === "string") return raw;
  if (kind === "boolean") {
    if (/^(true|1|yes|on)$/i.test(raw)) return true;
    if (/^(false|0|no|off)$/i.test(raw)) return false;
    return undefined;
  }
  return /^-?\d+$/.test(raw) ? Number(raw) : undefined;
}
