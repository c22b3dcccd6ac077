import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { isAvailableOn } from "./host-os.js";
import type { RecipeKind, SkillOs, SkillRecipe, SkillRequires } from "./types.js";

/**
 * Onboarding checks (S21, S11). They only LOOK: PATH lookups and environment reads. Nothing is
 * installed, spawned or imported — `python_packages` cannot be checked without running Python,
 * so they are reported as unchecked rather than guessed.
 */
export interface RequirementsCheck {
  /** Every checkable requirement is met (python packages and unanswerable config are not counted). */
  satisfied: boolean;
  missing: {
    bins: string[];
    /** All of `any_bins` when none of them is present, else empty. */
    any_bins: string[];
    env: string[];
    config: string[];
  };
  /** Declared but not checkable by looking: shown to the user as "make sure you have …". */
  unchecked: { python_packages: string[]; config: string[] };
}

export interface LookOptions {
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Default `env.PATH` (`Path` on Windows). */
  path?: string;
  /** Default `process.platform`; on Windows `PATHEXT` extensions are tried. */
  platform?: NodeJS.Platform;
  /** Answers whether a config key is set; without it, `config` is unchecked. */
  hasConfig?: (key: string) => boolean;
}

export async function checkRequirements(
  requires: SkillRequires,
  options: LookOptions = {},
): Promise<RequirementsCheck> {
  const env = options.env ?? process.env;
  const lookup = binLookup(options);
  const missingBins: string[] = [];
  for (const bin of requires.bins) if (!(await lookup(bin))) missingBins.push(bin);
  let anyFound = requires.any_bins.length === 0;
  for (const bin of requires.any_bins) {
    if (await lookup(bin)) {
      anyFound = true;
      break;
    }
  }
  const missingEnv = requires.env.filter((name) => (env[name] ?? "") === "");
  const missingConfig: string[] = [];
  const uncheckedConfig: string[] = [];
  for (const key of requires.config) {
    if (options.hasConfig === undefined) uncheckedConfig.push(key);
    else if (!options.hasConfig(key)) missingConfig.push(key);
  }
  const missing = {
    bins: missingBins,
    any_bins: anyFound ? [] : [...requires.any_bins],
    env: missingEnv,
    config: missingConfig,
  };
  return {
    satisfied:
      missing.bins.length + missing.any_bins.length + missing.env.length + missing.config.length ===
      0,
    missing,
    unchecked: { python_packages: [...requires.python_packages], config: uncheckedConfig },
  };
}

/** Resolves an executable name on PATH without running it; `undefined` when absent. */
export async function findOnPath(
  bin: string,
  options: LookOptions = {},
): Promise<string | undefined> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const pathValue = options.path ?? env["PATH"] ?? env["Path"] ?? "";
  const exts =
    platform === "win32"
      ? ["", ...(env["PATHEXT"] ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "")]
      : [""];
  // A name with a separator is a path, not something to look up.
  if (bin === "" || bin.includes("/") || (platform === "win32" && bin.includes("\\")))
    return undefined;
  const sep = platform === "win32" ? ";" : delimiter;
  for (const dir of pathValue.split(sep)) {
    if (dir === "") continue;
    for (const ext of exts) {
      const candidate = join(dir, bin + ext);
      if (await isExecutableFile(candidate, platform)) return candidate;
    }
  }
  return undefined;
}

function binLookup(options: LookOptions): (bin: string) => Promise<boolean> {
  const cache = new Map<string, Promise<boolean>>();
  return (bin) => {
    let hit = cache.get(bin);
    if (hit === undefined) {
      hit = findOnPath(bin, options).then((p) => p !== undefined);
      cache.set(bin, hit);
    }
    return hit;
  };
}

async function isExecutableFile(path: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    if (platform === "win32") return true;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable each recipe kind needs (S11: "an available installer"). */
export const RECIPE_INSTALLERS: Readonly<Record<RecipeKind, readonly string[]>> = {
  brew: ["brew"],
  pip: ["pip3", "pip", "uv"],
  apt: ["apt-get", "apt"],
  npm: ["npm"],
  go: ["go"],
  uv: ["uv"],
  download: ["curl", "wget"],
  shell: ["sh", "bash"],
};

export interface RecipeSelectOptions extends LookOptions {
  os: SkillOs | undefined;
}

/** S11: the first recipe whose `os` fits the host and whose installer is on PATH. */
export async function selectRecipe(
  recipes: readonly SkillRecipe[],
  options: RecipeSelectOptions,
): Promise<SkillRecipe | undefined> {
  const lookup = binLookup(options);
  for (const recipe of recipes) {
    if (!isAvailableOn(recipe.os, options.os)) continue;
    for (const installer of RECIPE_INSTALLERS[recipe.kind]) {
      if (await lookup(installer)) return recipe;
    }
  }
  return undefined;
}
