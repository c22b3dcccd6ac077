// Reads the app project `anna-app dev` serves: manifest.json (validated like the upload path),
// app.json (optional; slug and bundled executas) and the bundled executas' tool_ids for the
// generated anna-tool-ids.js (A8). Problems are launch errors, not runtime surprises.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import {
  bundledExecutasOf,
  validateAppListing,
  type AppListing,
  type AppManifest,
} from "@anna-ai/app-schema";
import { describeJsonError, parseJsonText } from "../cli/json-text.js";
import { listingWarnings, relaxAllowLists } from "./allow-list-relax.js";

export class DevLaunchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DevLaunchError";
  }
}

export interface DevApp {
  manifestPath: string;
  /** The folder holding manifest.json; `executas/` and `fixtures/` live here. */
  projectDir: string;
  manifest: AppManifest;
  listing: AppListing | undefined;
  slug: string;
  /** Display name: app.json `name`, else the slug. */
  name: string;
  bundleDir: string;
  /**
   * What production would refuse but the harness runs without (allow-list values of the manifest,
   * app.json errors): shown in the banner and the developer panel.
   */
  warnings: string[];
}

export interface LoadDevAppOptions {
  manifestPath: string;
  bundleDir?: string;
  slug?: string;
}

export async function loadDevApp(options: LoadDevAppOptions): Promise<DevApp> {
  const manifestPath = path.resolve(options.manifestPath);
  const projectDir = path.dirname(manifestPath);
  const raw = await readJson(manifestPath, "manifest");
  if (raw === undefined) throw new DevLaunchError(`no manifest at ${manifestPath} (--manifest)`);
  const checked = relaxAllowLists(raw);
  if (!checked.ok) {
    throw new DevLaunchError(
      `${manifestPath} is not a valid manifest: ${checked.issue?.message ?? "unknown problem"} (run anna-app validate)`,
    );
  }
  const warnings = [...checked.warnings];
  const listingPath = path.join(projectDir, "app.json");
  const rawListing = await readJson(listingPath, "app.json");
  let listing: AppListing | undefined;
  if (rawListing !== undefined) {
    const parsed = validateAppListing(rawListing);
    // A listing with problems still names its slug and executas; validate reports the rest.
    listing = (parsed.value ?? rawListing) as AppListing;
    warnings.push(...listingWarnings(parsed.issues));
  }
  const slug = options.slug ?? stringField(listing, "slug") ?? path.basename(projectDir);
  const bundleDir = path.resolve(options.bundleDir ?? path.join(projectDir, "bundle"));
  // Every window would 404 and live reload would watch nothing: say so before serving.
  if (!(await isDirectory(bundleDir))) {
    throw new DevLaunchError(
      options.bundleDir === undefined
        ? `no bundle folder at ${bundleDir}; pass --bundle <dir> (the folder with ${String(checked.manifest.ui?.bundle?.entry ?? "index.html")})`
        : `--bundle ${options.bundleDir}: no such folder`,
    );
  }
  return {
    manifestPath,
    projectDir,
    manifest: checked.manifest,
    listing,
    slug,
    name: stringField(listing, "name") ?? slug,
    bundleDir,
    warnings,
  };
}

/** `bundled_executas` handle → the executa folder (absolute), from app.json. */
export function bundledExecutaDirs(app: DevApp): Map<string, string> {
  const out = new Map<string, string>();
  if (app.listing === undefined) return out;
  for (const [handle, entry] of bundledExecutasOf(app.listing)) {
    const rel = (entry as { path?: unknown }).path;
    out.set(
      handle,
      path.resolve(app.projectDir, typeof rel === "string" ? rel : `executas/${handle}`),
    );
  }
  return out;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" && field !== "" ? field : undefined;
}

async function readJson(file: string, label: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DevLaunchError(`cannot read ${label} ${file}`, { cause: error });
  }
  try {
    return parseJsonText(text);
  } catch (error) {
    throw new DevLaunchError(`${file} is not JSON: ${describeJsonError(error)}`, { cause: error });
  }
}
