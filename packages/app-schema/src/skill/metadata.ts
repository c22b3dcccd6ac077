import { z } from "zod";
import { ToolParameterSchema, JsonSchemaParametersSchema } from "../executa/manifest.js";
import { InstallRecipeSchema, SKILL_OS_VALUES, UninstallRecipeSchema } from "./recipes.js";

/** The structured skill metadata, after unwrapping (L3913–L3965, S5–S10). */

export const SKILL_EXECUTION_MODES = Object.freeze([
  "prompt",
  "bash",
  "python",
  "api",
  "hybrid",
] as const);
export type SkillExecutionMode = (typeof SKILL_EXECUTION_MODES)[number];
export const DEFAULT_SKILL_EXECUTION_MODE: SkillExecutionMode = "prompt";

/** Namespaces the loader unwraps, in this order (L3903). */
export const SKILL_METADATA_NAMESPACES = Object.freeze(["matrix", "openclaw", "nexus"] as const);

export const SkillRequiresSchema = z.looseObject({
  /** All must be on PATH. */
  bins: z.array(z.string()).nullish(),
  /** At least one must be on PATH. */
  any_bins: z.array(z.string()).nullish(),
  env: z.array(z.string()).nullish(),
  config: z.array(z.string()).nullish(),
  python_packages: z.array(z.string()).nullish(),
});
export type SkillRequires = z.infer<typeof SkillRequiresSchema>;

export const SkillMetadataSchema = z.looseObject({
  /** Load into every conversation; reserved for foundational tooling. */
  always: z.boolean().nullish(),
  /** Overrides the identifier (defaults to `name`). */
  skill_key: z.string().min(1).nullish(),
  primary_env: z.string().nullish(),
  emoji: z.string().nullish(),
  homepage: z.string().nullish(),
  category_name: z.string().nullish(),
  os: z.array(z.enum(SKILL_OS_VALUES)).nullish(),
  /** A hint shown above the body; the loader never executes anything (S7, S13). */
  execution_mode: z.enum(SKILL_EXECUTION_MODES).nullish(),
  /** Declared like Executa tool parameters: a list, or a JSON-Schema object. */
  parameters: z.union([z.array(ToolParameterSchema), JsonSchemaParametersSchema]).nullish(),
  requires: SkillRequiresSchema.nullish(),
  install: z.array(InstallRecipeSchema).nullish(),
  uninstall: z.array(UninstallRecipeSchema).nullish(),
});
export type SkillMetadata = z.infer<typeof SkillMetadataSchema>;

export const SKILL_METADATA_KEYS = Object.freeze(Object.keys(SkillMetadataSchema.shape));

export type SkillMetadataSource = "json-string" | "mapping" | "absent";

export interface UnwrappedSkillMetadata {
  /** The structured object, or `undefined` when there is none or it is not an object. */
  readonly value: Record<string, unknown> | undefined;
  /** Which wrapper was removed (`matrix`, …), if any. */
  readonly namespace?: (typeof SKILL_METADATA_NAMESPACES)[number];
  readonly source: SkillMetadataSource;
  /** Set when a JSON string does not parse, or the value is not an object. */
  readonly problem?: string;
  /** Keys beside the namespace that was unwrapped; the loader never reads them. */
  readonly ignoredKeys?: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `metadata` as the loader reads it: a one-line JSON string (the documented form) or a mapping
 * (what a YAML parser makes of `{"matrix": …}`), then the first of `matrix`, `openclaw`,
 * `nexus` present is the structured metadata, else the object itself (L3903).
 */
export function normalizeSkillMetadata(raw: unknown): UnwrappedSkillMetadata {
  if (raw === undefined || raw === null) return { value: undefined, source: "absent" };
  let object: unknown = raw;
  let source: SkillMetadataSource = "mapping";
  if (typeof raw === "string") {
    source = "json-string";
    try {
      object = JSON.parse(raw) as unknown;
    } catch (error) {
      return {
        value: undefined,
        source,
        problem: `metadata is not valid JSON (${error instanceof Error ? error.message : String(error)}); write it as one line of JSON, e.g. {"matrix": {"execution_mode": "prompt"}}`,
      };
    }
  }
  if (!isRecord(object)) {
    return {
      value: undefined,
      source,
      problem: 'metadata must be a JSON object, e.g. {"matrix": {"execution_mode": "prompt"}}',
    };
  }
  for (const namespace of SKILL_METADATA_NAMESPACES) {
    if (!Object.hasOwn(object, namespace)) continue;
    const inner = object[namespace];
    if (!isRecord(inner)) {
      return {
        value: undefined,
        namespace,
        source,
        problem: `metadata.${namespace} must be an object of skill fields (execution_mode, requires, install, …)`,
      };
    }
    const ignoredKeys = Object.keys(object).filter((key) => key !== namespace);
    return ignoredKeys.length > 0
      ? { value: inner, namespace, source, ignoredKeys }
      : { value: inner, namespace, source };
  }
  return { value: object, source };
}
