import { z } from "zod";
import {
  type AppIssue,
  type AppValidation,
  appIssue,
  hasErrors,
  issuePointer,
} from "../app/issues.js";
import { isDocumentObject, notAnObject } from "../app/parse-document.js";
import { protoKeyIssues } from "../app/proto-keys.js";
import { didYouMean } from "../app/suggest.js";
import { fromZodIssues } from "../app/zod-issues.js";
import {
  DEFAULT_SKILL_EXECUTION_MODE,
  normalizeSkillMetadata,
  SKILL_METADATA_KEYS,
  type SkillExecutionMode,
  type SkillMetadata,
  SkillMetadataSchema,
  type SkillRequires,
} from "./metadata.js";
import {
  type InstallRecipe,
  recipeTargetField,
  SKILL_OS_VALUES,
  type UninstallRecipe,
} from "./recipes.js";
import { quote } from "../app/text.js";

/**
 * `SKILL.md` frontmatter (L3881–L3965, S2–S10), over the object a YAML parser produced — YAML
 * itself belongs to `@anna-ai/skills`. Real skills carry non-kebab names, extra keys and
 * metadata mappings with unknown keys; those are warnings (real-world-plugins.md).
 */

/** Lowercase kebab-case (S3); others load, with a warning. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const SkillFrontmatterSchema = z.looseObject({
  /** Defaults to the folder name (L3895, inventory X1). */
  name: z.string().min(1).nullish(),
  /** What the model matches the user's request against; a skill without one never loads. */
  description: z
    .string()
    .trim()
    .min(1, { error: "must not be empty: the model picks skills by their description" }),
  /** A one-line JSON string (documented) or a mapping (what YAML makes of it). */
  metadata: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  /** Informational (L3899). */
  version: z.union([z.string(), z.number()]).nullish(),
  author: z.string().nullish(),
  /** The Reference's name for the display label (L10005); read as an alias (inventory X3). */
  title: z.string().nullish(),
});
export type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;

export const SKILL_FRONTMATTER_KEYS = Object.freeze(Object.keys(SkillFrontmatterSchema.shape));

/** The frontmatter as the loader uses it: name resolved, metadata unwrapped, defaults applied. */
export interface NormalizedSkillFrontmatter {
  readonly name: string;
  /** `metadata.skill_key` or `name`: the identifier of the skill's agent tool. */
  readonly skillKey: string;
  readonly description: string;
  readonly title?: string;
  readonly version?: string;
  readonly author?: string;
  readonly executionMode: SkillExecutionMode;
  readonly always: boolean;
  readonly os?: readonly string[];
  readonly requires?: SkillRequires;
  readonly install: readonly InstallRecipe[];
  readonly uninstall: readonly UninstallRecipe[];
  /** The unwrapped metadata as parsed (unknown keys kept). */
  readonly metadata: SkillMetadata;
}

export interface SkillFrontmatterOptions {
  /** The skill's folder name: the default `name`. */
  readonly dirName?: string;
}

function metadataIssues(
  metadata: unknown,
  out: AppIssue[],
): { metadata: SkillMetadata; ok: boolean } {
  const unwrapped = normalizeSkillMetadata(metadata);
  if (unwrapped.problem !== undefined) {
    out.push(
      appIssue(
        "error",
        "skill.metadata_invalid",
        [
          "metadata",
          ...(unwrapped.source === "mapping" && unwrapped.namespace ? [unwrapped.namespace] : []),
        ],
        unwrapped.problem,
      ),
    );
    return { metadata: {}, ok: false };
  }
  if (unwrapped.value === undefined) return { metadata: {}, ok: true };
  // Inside a JSON string there is no pointer to give; point at /metadata and name the field.
  const inString = unwrapped.source === "json-string";
  const prefix: (string | number)[] = inString
    ? ["metadata"]
    : ["metadata", ...(unwrapped.namespace ? [unwrapped.namespace] : [])];
  const innerLabel = (path: readonly (string | number)[]): string =>
    `${unwrapped.namespace ?? ""}${issuePointer(path)}`.replace(/^\//, "");
  const parsed = SkillMetadataSchema.safeParse(unwrapped.value, { reportInput: true });
  if (!parsed.success) {
    for (const issue of fromZodIssues(parsed.error.issues)) {
      out.push(
        inString
          ? appIssue(
              issue.severity,
              issue.code,
              prefix,
              `${innerLabel(issue.path)}: ${issue.message}`,
            )
          : appIssue(issue.severity, issue.code, [...prefix, ...issue.path], issue.message),
      );
    }
    return { metadata: {}, ok: false };
  }
  const warn = (path: (string | number)[], code: string, message: string): void => {
    out.push(
      inString
        ? appIssue("warning", code, prefix, `${innerLabel(path)}: ${message}`)
        : appIssue("warning", code, [...prefix, ...path], message),
    );
  };
  for (const key of unwrapped.ignoredKeys ?? []) {
    const message = `${quote(key)} sits beside "${unwrapped.namespace ?? ""}" and is ignored: only the first of matrix, openclaw, nexus is read`;
    out.push(
      inString
        ? appIssue("warning", "skill.metadata_ignored_key", ["metadata"], message)
        : appIssue("warning", "skill.metadata_ignored_key", ["metadata", key], message),
    );
  }
  for (const key of Object.keys(unwrapped.value)) {
    if (SKILL_METADATA_KEYS.includes(key)) continue;
    warn(
      [key],
      "skill.metadata_unknown_field",
      `unknown metadata field ${quote(key)} is ignored.${didYouMean(key, SKILL_METADATA_KEYS)}`,
    );
  }
  for (const list of ["install", "uninstall"] as const) {
    (parsed.data[list] ?? []).forEach((recipe, index) => {
      (recipe.os ?? []).forEach((os, at) => {
        if ((SKILL_OS_VALUES as readonly string[]).includes(os)) return;
        warn(
          [list, index, "os", at],
          "skill.recipe_os",
          `os ${quote(os)} never matches a host; use ${SKILL_OS_VALUES.join(", ")}.${osHint(os)}`,
        );
      });
      const field = recipeTargetField(recipe.kind);
      const given = recipe[field];
      // Uninstall recipes may run a custom command of any kind (L3909).
      if (typeof given === "string" && given !== "") return;
      if (list === "uninstall" && typeof recipe.command === "string" && recipe.command !== "")
        return;
      warn(
        [list, index],
        "skill.recipe_target",
        `a recipe of kind ${quote(recipe.kind)} needs "${field}" to say what to ${list}`,
      );
    });
  }
  return { metadata: parsed.data, ok: true };
}

/** Validates the parsed YAML frontmatter of a `SKILL.md`. */
export function validateSkillFrontmatter(
  raw: unknown,
  options: SkillFrontmatterOptions = {},
): AppValidation<NormalizedSkillFrontmatter> {
  if (!isDocumentObject(raw)) {
    return notAnObject(
      "skill.frontmatter_type",
      "the frontmatter must be a YAML mapping between --- lines, with at least name and description",
    );
  }
  const parsed = SkillFrontmatterSchema.safeParse(raw, { reportInput: true });
  const issues: AppIssue[] = parsed.success ? [] : fromZodIssues(parsed.error.issues);
  issues.push(...protoKeyIssues(raw));
  const record = raw as Record<string, unknown>;
  const metadata = metadataIssues(parsed.success ? parsed.data.metadata : undefined, issues);
  if (!parsed.success || !metadata.ok || hasErrors(issues)) return { ok: false, issues };
  const front = parsed.data;
  const name = front.name ?? options.dirName;
  if (name === undefined) {
    issues.push(
      appIssue(
        "error",
        "skill.name_missing",
        ["name"],
        "no name, and no folder name to default to; add name: my-skill",
      ),
    );
    return { ok: false, issues };
  }
  if (!SKILL_NAME_PATTERN.test(name)) {
    issues.push(
      appIssue(
        "warning",
        "skill.name_not_kebab",
        front.name ? ["name"] : [],
        `skill name ${quote(name)} is not lowercase kebab-case (e.g. "${toKebab(name)}")`,
      ),
    );
  }
  for (const key of Object.keys(record)) {
    if (SKILL_FRONTMATTER_KEYS.includes(key)) continue;
    issues.push(
      appIssue(
        "warning",
        "skill.unknown_field",
        [key],
        `unknown frontmatter field ${quote(key)} is ignored; the loader reads name, description and metadata.${didYouMean(key, SKILL_FRONTMATTER_KEYS)}`,
      ),
    );
  }
  const m = metadata.metadata;
  const value: NormalizedSkillFrontmatter = {
    name,
    skillKey: m.skill_key ?? name,
    description: front.description,
    ...(front.title ? { title: front.title } : {}),
    ...(front.version !== undefined && front.version !== null
      ? { version: String(front.version) }
      : {}),
    ...(front.author ? { author: front.author } : {}),
    executionMode: m.execution_mode ?? DEFAULT_SKILL_EXECUTION_MODE,
    always: m.always ?? false,
    ...(m.os ? { os: m.os } : {}),
    ...(m.requires ? { requires: m.requires } : {}),
    install: m.install ?? [],
    uninstall: m.uninstall ?? [],
    metadata: m,
  };
  const ok = !hasErrors(issues);
  return ok ? { ok, value, issues } : { ok, issues };
}

function toKebab(name: string): string {
  return (
    name
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "my-skill"
  );
}

/** The names other tools use for the three OSes (`process.platform`, `uname`). */
const OS_ALIASES: Readonly<Record<string, string>> = {
  darwin: "macos",
  mac: "macos",
  osx: "macos",
  win32: "windows",
  win: "windows",
};

function osHint(os: string): string {
  const alias = OS_ALIASES[os.toLowerCase()];
  return alias === undefined ? didYouMean(os, SKILL_OS_VALUES) : ` Did you mean "${alias}"?`;
}
