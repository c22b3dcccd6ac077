import type { IssueSink } from "./issues.js";
import {
  EXECUTION_MODES,
  type ExecutionMode,
  INSTALL_KINDS,
  type RecipeKind,
  REQUIRES_KEYS,
  type SkillFrontmatter,
  type SkillMetadata,
  type SkillOs,
  SKILL_OSES,
  type SkillRecipe,
  type SkillRequires,
  UNINSTALL_KINDS,
} from "./types.js";

/**
 * Every frontmatter rule (S2–S10, S22, X1–X6) lives here, so this file is the one to switch to
 * `@anna-ai/app-schema`'s `SkillFrontmatterSchema` / `normalizeSkillMetadata` when they land.
 * Policy: what the spec says is required or enumerated is an error; what real skills do that
 * the platform accepts (non-kebab names, unknown keys, YAML-mapping metadata) is a warning.
 */

type Path = (string | number)[];

/** S3 (the inventory's regex). */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** S5: the first of these present wins. */
export const METADATA_NAMESPACES = ["matrix", "openclaw", "nexus"] as const;
/** S2: named by the spec; `title` is the Reference page's label (X3). */
const KNOWN_TOP_LEVEL = new Set(["name", "description", "metadata", "version", "author", "title"]);
const KNOWN_METADATA = new Set([
  "always",
  "skill_key",
  "primary_env",
  "emoji",
  "homepage",
  "category_name",
  "os",
  "execution_mode",
  "parameters",
  "requires",
  "install",
  "uninstall",
  "dependencies",
]);
const KNOWN_RECIPE = new Set([
  "id",
  "kind",
  "formula",
  "package",
  "command",
  "bins",
  "os",
  "label",
]);
/** Names other documents and plugins use for the same modes (R88 says "prompt-only/shell"). */
const EXECUTION_MODE_ALIASES: Readonly<Record<string, ExecutionMode>> = {
  "prompt-only": "prompt",
  prompt_only: "prompt",
  shell: "bash",
  sh: "bash",
  http: "api",
};
const OS_ALIASES: Readonly<Record<string, SkillOs>> = {
  darwin: "macos",
  mac: "macos",
  osx: "macos",
  win32: "windows",
  win: "windows",
};
/** Which field carries the package for each kind, per the spec's examples (X6). */
const RECIPE_TARGET: Readonly<Record<RecipeKind, "formula" | "package" | "command">> = {
  brew: "formula",
  pip: "package",
  apt: "package",
  npm: "package",
  go: "package",
  uv: "package",
  download: "command",
  shell: "command",
};

export interface CheckedFrontmatter {
  frontmatter: SkillFrontmatter;
  metadata: SkillMetadata;
}

export interface CheckOptions {
  /** The skill folder's name: the `name` when the frontmatter has none (X1). */
  fallbackName?: string;
}

export function checkFrontmatter(
  data: Record<string, unknown>,
  sink: IssueSink,
  options: CheckOptions = {},
): CheckedFrontmatter | undefined {
  const errorsBefore = sink.errors.length;

  for (const key of Object.keys(data)) {
    if (!KNOWN_TOP_LEVEL.has(key)) {
      sink.warn(
        "unknown_key",
        `unknown top-level key "${key}" is ignored (known: name, description, metadata, version, author)`,
        [key],
      );
    }
  }

  const name = checkName(data, sink, options.fallbackName);
  const description = checkDescription(data, sink);
  const metadata = checkMetadata(data["metadata"], sink);

  const frontmatter: SkillFrontmatter = {
    name: name ?? "",
    description: description ?? "",
    raw: data,
  };
  for (const key of ["version", "author", "title"] as const) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "string" || typeof value === "number") frontmatter[key] = String(value);
    else sink.warn("informational_type", `"${key}" should be a string; it is ignored`, [key]);
  }
  if (sink.errors.length > errorsBefore || name === undefined || description === undefined) {
    return undefined;
  }
  return { frontmatter, metadata };
}

function checkName(
  data: Record<string, unknown>,
  sink: IssueSink,
  fallback: string | undefined,
): string | undefined {
  const raw = data["name"];
  let name: string;
  if (raw === undefined || raw === null || raw === "") {
    if (fallback === undefined || fallback === "") {
      sink.error(
        "name_missing",
        'frontmatter has no "name" and there is no folder name to fall back on; add `name: my-skill`',
        ["name"],
      );
      return undefined;
    }
    sink.warn(
      "name_missing",
      `frontmatter has no "name"; the folder name "${fallback}" is used (add \`name: ${fallback}\` to make it explicit)`,
      [],
    );
    name = fallback;
  } else if (typeof raw === "string") {
    name = raw.trim();
  } else if (typeof raw === "number" || typeof raw === "boolean") {
    sink.warn("name_type", `"name" should be a string; read as "${String(raw)}" (quote it)`, [
      "name",
    ]);
    name = String(raw);
  } else {
    sink.error("name_type", `"name" must be a string, got ${describe(raw)}`, ["name"]);
    return undefined;
  }
  if (!SKILL_NAME_PATTERN.test(name)) {
    sink.warn(
      "name_not_kebab",
      `name "${name}" is not lowercase kebab-case (like "${toKebab(name)}"); it still loads, but tools and links may rename it`,
      ["name"],
    );
  }
  return name;
}

function checkDescription(data: Record<string, unknown>, sink: IssueSink): string | undefined {
  const raw = data["description"];
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    sink.error(
      "description_missing",
      'frontmatter needs a "description": the LLM reads it to decide when to load the skill (write it like a question a user would type)',
      ["description"],
    );
    return undefined;
  }
  if (typeof raw !== "string") {
    sink.error("description_type", `"description" must be a string, got ${describe(raw)}`, [
      "description",
    ]);
    return undefined;
  }
  return raw.trim();
}

function defaultMetadata(): SkillMetadata {
  return {
    always: false,
    execution_mode: "prompt",
    requires: { bins: [], any_bins: [], env: [], config: [], python_packages: [] },
    install: [],
    uninstall: [],
  };
}

/** S5 + X5: a JSON string or an already-parsed mapping, then the namespace unwrap. */
export function unwrapMetadata(
  raw: unknown,
  sink: IssueSink,
):
  | { value: Record<string, unknown>; namespace?: SkillMetadata["namespace"]; path: Path }
  | undefined {
  if (raw === undefined || raw === null) return undefined;
  let parsed: unknown = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return undefined;
    try {
      parsed = JSON.parse(raw);
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : "parse error";
      sink.error(
        "metadata_json",
        `"metadata" is not valid JSON (${detail}); write it as one line of JSON: metadata: {"matrix":{...}}`,
        ["metadata"],
      );
      return undefined;
    }
  }
  if (!isRecord(parsed)) {
    sink.error("metadata_type", `"metadata" must be a JSON object, got ${describe(parsed)}`, [
      "metadata",
    ]);
    return undefined;
  }
  const present = METADATA_NAMESPACES.filter((ns) => Object.hasOwn(parsed, ns));
  const namespace = present[0];
  if (namespace === undefined) return { value: parsed, path: ["metadata"] };
  if (present.length > 1) {
    sink.warn(
      "metadata_namespaces",
      `"metadata" has ${present.map((p) => `"${p}"`).join(" and ")}; only "${namespace}" is used`,
      ["metadata"],
    );
  }
  const inner = parsed[namespace];
  if (!isRecord(inner)) {
    sink.error(
      "metadata_type",
      `"metadata.${namespace}" must be an object, got ${describe(inner)}`,
      ["metadata", namespace],
    );
    return undefined;
  }
  return { value: inner, namespace, path: ["metadata", namespace] };
}

function checkMetadata(raw: unknown, sink: IssueSink): SkillMetadata {
  const out = defaultMetadata();
  const unwrapped = unwrapMetadata(raw, sink);
  if (unwrapped === undefined) return out;
  const { value: meta, path } = unwrapped;
  if (unwrapped.namespace !== undefined) out.namespace = unwrapped.namespace;

  for (const key of Object.keys(meta)) {
    if (!KNOWN_METADATA.has(key)) {
      sink.warn("unknown_metadata_key", `unknown metadata key "${key}" is ignored`, [...path, key]);
    }
  }

  const always = meta["always"];
  if (always !== undefined && always !== null) {
    if (typeof always === "boolean") out.always = always;
    else if (always === "true" || always === "false") {
      sink.warn("metadata_type", `"always" should be a boolean, not the string "${always}"`, [
        ...path,
        "always",
      ]);
      out.always = always === "true";
    } else {
      sink.error("metadata_type", `"always" must be true or false, got ${describe(always)}`, [
        ...path,
        "always",
      ]);
    }
  }

  const skillKey = meta["skill_key"];
  if (skillKey !== undefined && skillKey !== null) {
    if (typeof skillKey === "string" && skillKey.trim() !== "") out.skill_key = skillKey.trim();
    else
      sink.error(
        "metadata_type",
        `"skill_key" must be a non-empty string, got ${describe(skillKey)}`,
        [...path, "skill_key"],
      );
  }

  for (const key of ["primary_env", "emoji", "homepage", "category_name"] as const) {
    const value = meta[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "string") out[key] = value;
    else
      sink.warn(
        "metadata_type",
        `"${key}" should be a string, got ${describe(value)}; it is ignored`,
        [...path, key],
      );
  }

  const os = checkOsList(meta["os"], sink, [...path, "os"]);
  if (os !== undefined) out.os = os;

  const mode = meta["execution_mode"];
  if (mode !== undefined && mode !== null) {
    const modePath = [...path, "execution_mode"];
    const lower = typeof mode === "string" ? mode.trim().toLowerCase() : undefined;
    if (lower !== undefined && (EXECUTION_MODES as readonly string[]).includes(lower)) {
      out.execution_mode = lower as ExecutionMode;
      if (lower !== mode) {
        sink.warn(
          "execution_mode_alias",
          `execution_mode "${String(mode)}" read as "${lower}"`,
          modePath,
        );
      }
    } else if (lower !== undefined && EXECUTION_MODE_ALIASES[lower] !== undefined) {
      out.execution_mode = EXECUTION_MODE_ALIASES[lower];
      sink.warn(
        "execution_mode_alias",
        `execution_mode "${String(mode)}" read as "${out.execution_mode}" (use one of ${EXECUTION_MODES.join(", ")})`,
        modePath,
      );
    } else {
      sink.error(
        "execution_mode_invalid",
        `execution_mode ${describe(mode)} is not one of ${EXECUTION_MODES.join(", ")}`,
        modePath,
      );
    }
  }

  const parameters = meta["parameters"];
  if (parameters !== undefined && parameters !== null) {
    const pPath = [...path, "parameters"];
    if (Array.isArray(parameters)) {
      parameters.forEach((p, i) => {
        if (!isRecord(p) || typeof p["name"] !== "string" || p["name"] === "") {
          sink.error(
            "parameter_invalid",
            `parameters[${i}] must be an object with a "name" (like Executa tool parameters)`,
            [...pPath, i],
          );
        }
      });
      out.parameters = parameters;
    } else if (isRecord(parameters)) {
      out.parameters = parameters;
    } else {
      sink.error(
        "metadata_type",
        `"parameters" must be a list or a JSON-Schema object, got ${describe(parameters)}`,
        pPath,
      );
    }
  }

  const requires = meta["requires"];
  if (requires !== undefined && requires !== null) {
    out.requires = checkRequires(requires, sink, [...path, "requires"]);
  }
  out.install = checkRecipes(meta["install"], "install", sink, [...path, "install"]);
  out.uninstall = checkRecipes(meta["uninstall"], "uninstall", sink, [...path, "uninstall"]);

  const deps = meta["dependencies"];
  if (deps !== undefined && deps !== null) {
    const list = stringList(deps, sink, [...path, "dependencies"], "dependencies");
    if (list !== undefined) out.dependencies = list;
  }
  return out;
}

function checkRequires(raw: unknown, sink: IssueSink, path: Path): SkillRequires {
  const out: SkillRequires = { bins: [], any_bins: [], env: [], config: [], python_packages: [] };
  if (!isRecord(raw)) {
    sink.error(
      "requires_type",
      `"requires" must be an object like {"bins":["jq"]}, got ${describe(raw)}`,
      path,
    );
    return out;
  }
  for (const key of Object.keys(raw)) {
    if (!(REQUIRES_KEYS as readonly string[]).includes(key)) {
      sink.warn(
        "unknown_requires_key",
        `unknown "requires" key "${key}" is ignored (known: ${REQUIRES_KEYS.join(", ")})`,
        [...path, key],
      );
    }
  }
  for (const key of REQUIRES_KEYS) {
    const value = raw[key];
    if (value === undefined || value === null) continue;
    out[key] = stringList(value, sink, [...path, key], `requires.${key}`) ?? [];
  }
  return out;
}

function checkRecipes(
  raw: unknown,
  side: "install" | "uninstall",
  sink: IssueSink,
  path: Path,
): SkillRecipe[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    sink.error("recipes_type", `"${side}" must be a list of recipes, got ${describe(raw)}`, path);
    return [];
  }
  const kinds: readonly string[] = side === "install" ? INSTALL_KINDS : UNINSTALL_KINDS;
  const out: SkillRecipe[] = [];
  const ids = new Set<string>();
  raw.forEach((item, i) => {
    const at = [...path, i];
    if (!isRecord(item)) {
      sink.error("recipe_type", `${side}[${i}] must be an object, got ${describe(item)}`, at);
      return;
    }
    for (const key of Object.keys(item)) {
      if (!KNOWN_RECIPE.has(key)) {
        sink.warn("unknown_recipe_key", `unknown key "${key}" in ${side}[${i}] is ignored`, [
          ...at,
          key,
        ]);
      }
    }
    const kind = item["kind"];
    if (typeof kind !== "string" || !kinds.includes(kind)) {
      const hint =
        side === "install" && kind === "shell"
          ? ' ("shell" is only allowed in uninstall recipes)'
          : "";
      sink.error(
        "recipe_kind",
        `${side}[${i}].kind ${describe(kind)} is not one of ${kinds.join(", ")}${hint}`,
        [...at, "kind"],
      );
      return;
    }
    const recipe: SkillRecipe = { kind: kind as RecipeKind };
    for (const key of ["id", "formula", "package", "command", "label"] as const) {
      const value = item[key];
      if (value === undefined || value === null) continue;
      if (typeof value === "string") recipe[key] = value;
      else
        sink.warn("recipe_field_type", `${side}[${i}].${key} should be a string; it is ignored`, [
          ...at,
          key,
        ]);
    }
    if (recipe.id !== undefined) {
      if (ids.has(recipe.id)) {
        sink.warn("recipe_duplicate_id", `${side}[${i}].id "${recipe.id}" is used twice`, [
          ...at,
          "id",
        ]);
      }
      ids.add(recipe.id);
    }
    const bins = item["bins"];
    if (bins !== undefined && bins !== null) {
      const list = stringList(bins, sink, [...at, "bins"], `${side}[${i}].bins`);
      if (list !== undefined) recipe.bins = list;
    }
    const os = checkOsList(item["os"], sink, [...at, "os"]);
    if (os !== undefined) recipe.os = os;
    const target = RECIPE_TARGET[recipe.kind];
    const hasTarget =
      recipe[target] !== undefined ||
      recipe.command !== undefined ||
      (recipe.kind === "brew" && recipe.package !== undefined);
    if (!hasTarget) {
      sink.warn(
        "recipe_target_missing",
        `${side}[${i}] (kind "${recipe.kind}") names nothing to ${side}: add "${target}"`,
        at,
      );
    }
    out.push(recipe);
  });
  return out;
}

function checkOsList(raw: unknown, sink: IssueSink, path: Path): SkillOs[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = stringList(raw, sink, path, "os");
  if (list === undefined) return undefined;
  const out: SkillOs[] = [];
  for (const entry of list) {
    const lower = entry.trim().toLowerCase();
    if ((SKILL_OSES as readonly string[]).includes(lower)) out.push(lower as SkillOs);
    else if (OS_ALIASES[lower] !== undefined) {
      sink.warn(
        "os_alias",
        `os "${entry}" read as "${OS_ALIASES[lower]}" (use ${SKILL_OSES.join(", ")})`,
        path,
      );
      out.push(OS_ALIASES[lower]);
    } else {
      sink.warn(
        "os_unknown",
        `os "${entry}" is not one of ${SKILL_OSES.join(", ")}; it matches no host`,
        path,
      );
    }
  }
  // An `os` list whose every entry was unknown still restricts: it matches nothing.
  return out;
}

/** A list of strings; a single string is accepted as a one-item list with a warning. */
function stringList(
  raw: unknown,
  sink: IssueSink,
  path: Path,
  label: string,
): string[] | undefined {
  if (typeof raw === "string") {
    sink.warn("expected_list", `"${label}" should be a list; read "${raw}" as ["${raw}"]`, path);
    return [raw];
  }
  if (!Array.isArray(raw)) {
    sink.error("list_type", `"${label}" must be a list of strings, got ${describe(raw)}`, path);
    return undefined;
  }
  const out: string[] = [];
  raw.forEach((item, i) => {
    if (typeof item === "string") out.push(item);
    else
      sink.error("list_item_type", `"${label}[${i}]" must be a string, got ${describe(item)}`, [
        ...path,
        i,
      ]);
  });
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `"${value.length > 40 ? value.slice(0, 40) + "…" : value}"`;
  return `${typeof value} ${String(value)}`;
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
