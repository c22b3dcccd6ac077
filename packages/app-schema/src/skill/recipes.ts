import { z } from "zod";

/** `install` / `uninstall` recipes in skill metadata (L3944–L3965, S9–S10). */

export const INSTALL_RECIPE_KINDS = Object.freeze([
  "brew",
  "pip",
  "apt",
  "npm",
  "go",
  "uv",
  "download",
] as const);
/** Uninstall also accepts `shell` (L3960). */
export const UNINSTALL_RECIPE_KINDS = Object.freeze([...INSTALL_RECIPE_KINDS, "shell"] as const);
export type InstallRecipeKind = (typeof INSTALL_RECIPE_KINDS)[number];
export type UninstallRecipeKind = (typeof UNINSTALL_RECIPE_KINDS)[number];

export const SKILL_OS_VALUES = Object.freeze(["macos", "linux", "windows"] as const);
export type SkillOs = (typeof SKILL_OS_VALUES)[number];

const recipeFields = {
  /** Stable within the list. */
  id: z.string().nullish(),
  /** `brew` uses it. */
  formula: z.string().nullish(),
  /** apt/pip/npm/go/uv; may hold several space-separated packages (`"matplotlib seaborn"`). */
  package: z.string().nullish(),
  /** A raw shell command: `shell`/`download`, and any uninstall recipe (L3909, inventory X6). */
  command: z.string().nullish(),
  /** Executables the recipe provides (used to verify success). */
  bins: z.array(z.string()).nullish(),
  os: z.array(z.string()).nullish(),
  label: z.string().nullish(),
};

export const InstallRecipeSchema = z.looseObject({
  ...recipeFields,
  kind: z.enum(INSTALL_RECIPE_KINDS),
});
export type InstallRecipe = z.infer<typeof InstallRecipeSchema>;

export const UninstallRecipeSchema = z.looseObject({
  ...recipeFields,
  kind: z.enum(UNINSTALL_RECIPE_KINDS),
});
export type UninstallRecipe = z.infer<typeof UninstallRecipeSchema>;

export const RECIPE_KEYS = Object.freeze([
  "id",
  "kind",
  ...Object.keys(recipeFields).filter((k) => k !== "id"),
]);

/** Which field a kind needs to do anything (the spec's examples: brew→formula, apt/pip→package). */
export function recipeTargetField(kind: string): "formula" | "package" | "command" {
  if (kind === "brew") return "formula";
  if (kind === "download" || kind === "shell") return "command";
  return "package";
}
