// An app folder as `apps push|publish` read it (real-world-cli.md §9.1): the payload is always
// `manifest.json`; the metadata (`slug`, `name`, `version`, `changelog`, `bundled_executas` and
// the listing keys) is read from `app.json` first, key by key, then from `manifest.json`.
// `--bump` rewrites the version in the file that holds it. Before any request the project
// goes through the same validator as `anna-app validate`; an error there is exit 4.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { APP_SLUG_PATTERN, isAppVersion } from "@anna-ai/app-schema";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";
import { type Bump, bumpVersion } from "./executa-project.js";
import { type JsonObject, readJsonObject, writeJsonAtomic } from "./json-file.js";

export interface BundledExecutaDir {
  handle: string;
  /** Project-relative, as app.json gives it. */
  path: string;
}

export interface AppProject {
  dir: string;
  manifestFile: string;
  /** manifest.json as written (bundled: refs not yet substituted). */
  manifest: JsonObject;
  appJsonFile: string;
  /** app.json, or undefined when the folder has none. */
  appJson: JsonObject | undefined;
  slug: string;
  name: string;
  version: string;
  bumpedFrom: string | undefined;
  /** The file `version` came from (and `--bump` rewrites). */
  versionFile: string;
  changelog: string | undefined;
  bundled: BundledExecutaDir[];
  /** `ui.bundle.entry`, when the manifest has a UI bundle. */
  bundleEntry: string | undefined;
}

const invalid = (file: string, why: string) =>
  new ExitError(EXIT_INVALID_PROJECT, `${file}: ${why}`);

export async function loadAppProject(
  dir: string,
  opts: { bump?: Bump | undefined; manifest?: string | undefined } = {},
): Promise<AppProject> {
  const manifestFile = path.resolve(dir, opts.manifest ?? "manifest.json");
  let text: string;
  try {
    text = await readFile(manifestFile, "utf8");
  } catch {
    throw invalid(manifestFile, "not found; run this in an app folder (or pass --cwd <dir>)");
  }
  let manifest: JsonObject;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error();
    manifest = parsed as JsonObject;
  } catch {
    throw invalid(manifestFile, "is not a JSON object; `anna-app validate` shows where");
  }
  const appJsonFile = path.join(dir, "app.json");
  const appJson = await readJsonObject(appJsonFile);
  const pick = (key: string): { value: string; file: string } | undefined => {
    for (const [doc, file] of [
      [appJson, appJsonFile],
      [manifest, manifestFile],
    ] as const) {
      const v = doc?.[key];
      if (typeof v === "string") return { value: v, file };
    }
    return undefined;
  };
  const metaFile = appJson ? appJsonFile : manifestFile;
  const slug = pick("slug")?.value;
  if (slug === undefined) throw invalid(metaFile, 'add "slug" (e.g. "focus-flow") to publish it');
  if (!APP_SLUG_PATTERN.test(slug)) {
    throw invalid(
      metaFile,
      `"slug" ${JSON.stringify(slug)} must be 3–80 of a-z, 0-9 and '-', starting and ending with a letter or digit`,
    );
  }
  const version = pick("version");
  if (version === undefined) {
    throw invalid(metaFile, 'add "version" (e.g. "0.1.0") to publish it');
  }
  if (!isAppVersion(version.value)) {
    throw invalid(
      version.file,
      `"version" ${JSON.stringify(version.value)} is not X.Y.Z[-prerelease] (e.g. "1.2.0")`,
    );
  }
  const next = opts.bump ? bumpVersion(version.value, opts.bump) : version.value;
  const ui = manifest.ui as { bundle?: { entry?: unknown } } | undefined;
  const entry = ui?.bundle?.entry;
  return {
    dir,
    manifestFile,
    manifest,
    appJsonFile,
    appJson,
    slug,
    name: pick("name")?.value ?? slug,
    version: next,
    bumpedFrom: opts.bump ? version.value : undefined,
    versionFile: version.file,
    changelog: pick("changelog")?.value,
    bundled: bundledDirs(metaFile, appJson?.bundled_executas ?? manifest.bundled_executas),
    bundleEntry: typeof entry === "string" && entry !== "" ? entry : undefined,
  };
}

/** `--bump` without `--no-write`: the new version into the file that held it. */
export async function writeBumpedAppVersion(p: AppProject): Promise<void> {
  const doc = p.versionFile === p.manifestFile ? p.manifest : p.appJson;
  await writeJsonAtomic(p.versionFile, { ...doc, version: p.version });
}

function bundledDirs(file: string, value: unknown): BundledExecutaDir[] {
  if (value === undefined || value === null) return [];
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : typeof value === "object"
      ? Object.entries(value)
      : [];
  if (entries.length === 0 && typeof value !== "object") {
    throw invalid(file, '"bundled_executas" must map a handle to {"path": "executas/<handle>"}');
  }
  return entries.map(([handle, v]) => {
    const p = (v as { path?: unknown } | null)?.path;
    if (typeof p !== "string" || p === "") {
      throw invalid(
        file,
        `bundled_executas.${handle} needs "path" (e.g. {"path": "executas/${handle}"})`,
      );
    }
    if (path.isAbsolute(p) || p.split(/[\\/]/).includes("..")) {
      throw invalid(
        file,
        `bundled_executas.${handle}.path ${JSON.stringify(p)} must stay inside the project`,
      );
    }
    return { handle, path: p };
  });
}
