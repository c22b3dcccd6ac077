import {
  DEFAULT_SKILL_EXECUTION_MODE,
  INSTALL_RECIPE_KINDS,
  type NormalizedSkillFrontmatter,
  normalizeSkillMetadata,
  RECIPE_KEYS,
  recipeTargetField,
  SKILL_EXECUTION_MODES,
  SKILL_FRONTMATTER_KEYS,
  SKILL_METADATA_KEYS,
  SKILL_NAME_PATTERN,
  SKILL_OS_VALUES,
  type SkillMetadata,
  UNINSTALL_RECIPE_KINDS,
} from "@anna-ai/app-schema";

/**
 * `validateSkillFrontmatter`'s result for the common clean frontmatter, without zod: cold, the
 * zod schemas cost ~30 µs a skill, about a third of a 1,000-skill index. It answers only when
 * the full validator would report no issue at all — every key known, every value of the plain
 * type the schema accepts, the name kebab-case, every recipe with a known `os` and its target —
 * and returns `undefined` for anything else, which then takes the full validator. A property
 * test holds it to `validateSkillFrontmatter`.
 */
export function validateCleanFrontmatter(
  raw: Record<string, unknown>,
  dirName: string | undefined,
): NormalizedSkillFrontmatter | undefined {
  if (!isPlainObject(raw)) return undefined;
  for (const key in raw) if (!SKILL_FRONTMATTER_KEYS.includes(key)) return undefined;
  const { name: rawName, description, metadata: rawMetadata, version, author, title } = raw;
  if (!(rawName == null || (typeof rawName === "string" && rawName !== ""))) return undefined;
  if (typeof description !== "string") return undefined;
  const trimmed = description.trim();
  if (trimmed === "") return undefined;
  if (!(rawMetadata == null || typeof rawMetadata === "string" || isPlainObject(rawMetadata))) {
    return undefined;
  }
  // Numbers are valid versions, but zod's number rules (finite) are not worth copying here.
  if (!isOptionalString(version) || !isOptionalString(author) || !isOptionalString(title)) {
    return undefined;
  }
  const name = rawName ?? dirName;
  if (name === undefined || !SKILL_NAME_PATTERN.test(name)) return undefined;

  const unwrapped = normalizeSkillMetadata(rawMetadata);
  if (unwrapped.problem !== undefined || unwrapped.ignoredKeys !== undefined) return undefined;
  const m = unwrapped.value ?? {};
  if (!isPlainObject(m) || !isCleanMetadata(m)) return undefined;
  const metadata = m as SkillMetadata;
  return {
    name,
    skillKey: metadata.skill_key ?? name,
    description: trimmed,
    ...(title ? { title } : {}),
    ...(version != null ? { version } : {}),
    ...(author ? { author } : {}),
    executionMode: metadata.execution_mode ?? DEFAULT_SKILL_EXECUTION_MODE,
    always: metadata.always ?? false,
    ...(metadata.os ? { os: metadata.os } : {}),
    ...(metadata.requires ? { requires: metadata.requires } : {}),
    install: metadata.install ?? [],
    uninstall: metadata.uninstall ?? [],
    metadata,
  };
}

const REQUIRES_KEYS: readonly string[] = ["bins", "any_bins", "env", "config", "python_packages"];
const OPTIONAL_STRING_METADATA: readonly string[] = [
  "primary_env",
  "emoji",
  "homepage",
  "category_name",
];
const RECIPE_STRING_KEYS: readonly string[] = ["id", "formula", "package", "command", "label"];

function isCleanMetadata(m: Record<string, unknown>): boolean {
  for (const key in m) {
    if (!SKILL_METADATA_KEYS.includes(key)) return false;
    const value = m[key];
    if (value == null) continue;
    switch (key) {
      case "always":
        if (typeof value !== "boolean") return false;
        break;
      case "skill_key":
        if (typeof value !== "string" || value === "") return false;
        break;
      case "os":
        if (!isKnownOsList(value)) return false;
        break;
      case "execution_mode":
        if (!(SKILL_EXECUTION_MODES as readonly unknown[]).includes(value)) return false;
        break;
      case "requires":
        if (!isCleanRequires(value)) return false;
        break;
      case "install":
        if (!isCleanRecipeList(value, INSTALL_RECIPE_KINDS, false)) return false;
        break;
      case "uninstall":
        if (!isCleanRecipeList(value, UNINSTALL_RECIPE_KINDS, true)) return false;
        break;
      default:
        // `parameters` has schemas of its own: left to the full validator.
        if (!OPTIONAL_STRING_METADATA.includes(key) || typeof value !== "string") return false;
    }
  }
  return true;
}

function isCleanRequires(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (!REQUIRES_KEYS.includes(key)) return false;
    const list = value[key];
    if (list != null && !isStringList(list)) return false;
  }
  return true;
}

function isCleanRecipeList(value: unknown, kinds: readonly string[], uninstall: boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (const recipe of value) {
    if (!isPlainObject(recipe)) return false;
    for (const key in recipe) {
      if (!RECIPE_KEYS.includes(key)) return false;
      const field = recipe[key];
      if (key === "kind" || field == null) continue;
      if (RECIPE_STRING_KEYS.includes(key) ? typeof field !== "string" : !isStringList(field)) {
        return false;
      }
    }
    const kind = recipe["kind"];
    if (typeof kind !== "string" || !kinds.includes(kind)) return false;
    if (recipe["os"] != null && !isKnownOsList(recipe["os"])) return false;
    const target = recipe[recipeTargetField(kind)];
    const command = recipe["command"];
    const hasTarget =
      (typeof target === "string" && target !== "") ||
      (uninstall && typeof command === "string" && command !== "");
    if (!hasTarget) return false;
  }
  return true;
}

// Indexed loops, not `every`: `every` skips the holes of a sparse array, which zod rejects.
function isKnownOsList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    if (!(SKILL_OS_VALUES as readonly unknown[]).includes(value[i])) return false;
  }
  return true;
}

function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== "string") return false;
  return true;
}

function isOptionalString(value: unknown): value is string | null | undefined {
  return value == null || typeof value === "string";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
