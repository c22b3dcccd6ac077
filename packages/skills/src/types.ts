import {
  INSTALL_RECIPE_KINDS,
  SKILL_EXECUTION_MODES,
  SKILL_OS_VALUES,
  UNINSTALL_RECIPE_KINDS,
  type SkillExecutionMode,
  type SkillOs as SchemaSkillOs,
  type UninstallRecipeKind,
} from "@anna-ai/app-schema";

/** `execution_mode` values (S7). A hint shown to the LLM, never an interpreter choice. */
export const EXECUTION_MODES = SKILL_EXECUTION_MODES;
export type ExecutionMode = SkillExecutionMode;

/** `os` values (S6, S20). */
export const SKILL_OSES = SKILL_OS_VALUES;
export type SkillOs = SchemaSkillOs;

/** Install recipe kinds (S9); uninstall recipes also accept `shell` (S10). */
export const INSTALL_KINDS = INSTALL_RECIPE_KINDS;
export const UNINSTALL_KINDS = UNINSTALL_RECIPE_KINDS;
export type RecipeKind = UninstallRecipeKind;
/** `requires` (S8): every list is present, empty when not declared. */
export interface SkillRequires {
  /** Executables that must all be on PATH. */
  bins: string[];
  /** Satisfied when any one of them is on PATH. */
  any_bins: string[];
  env: string[];
  config: string[];
  python_packages: string[];
}

export const REQUIRES_KEYS = ["bins", "any_bins", "env", "config", "python_packages"] as const;

/** One `install` / `uninstall` recipe (S9, S10). Data only: nothing here is ever run. */
export interface SkillRecipe {
  id?: string;
  kind: RecipeKind;
  formula?: string;
  /** May name several space-separated packages (`"matplotlib seaborn"`). */
  package?: string;
  /** A raw shell command, for `shell` / `download` and for uninstall recipes of any kind (X6). */
  command?: string;
  bins?: string[];
  /** As written: values outside `SKILL_OSES` simply match no host. */
  os?: string[];
  label?: string;
}

/** The structured metadata after unwrapping `matrix` → `openclaw` → `nexus` (S5, S6). */
export interface SkillMetadata {
  always: boolean;
  skill_key?: string;
  primary_env?: string;
  emoji?: string;
  homepage?: string;
  category_name?: string;
  /** Absent: available everywhere. */
  os?: SkillOs[];
  /** `prompt` when not declared. */
  execution_mode: ExecutionMode;
  /** Declared like Executa tool parameters (S22): a list, or a JSON-Schema object. */
  parameters?: unknown[] | Record<string, unknown>;
  requires: SkillRequires;
  install: SkillRecipe[];
  uninstall: SkillRecipe[];
  /** Reference-page shape (X3): free-form dependency notes, surfaced with the body. */
  dependencies?: string[];
  /** Which wrapper the metadata came from, if any. */
  namespace?: "matrix" | "openclaw" | "nexus";
}

/** The frontmatter as read, plus what the loader derives from it. */
export interface SkillFrontmatter {
  /** Declared name, or the directory name when omitted (X1). */
  name: string;
  description: string;
  /** Informational only (S2). */
  version?: string;
  author?: string;
  /** Display label from the Reference page's shape (X3). */
  title?: string;
  /** Every top-level key as parsed, unknown ones included (they are warned about, not dropped). */
  raw: Record<string, unknown>;
}
