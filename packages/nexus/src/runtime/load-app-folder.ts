// Reading a local app folder as one app version, with the schema checks `anna-app validate`
// starts from (app-schema's `validateAppManifest` and `validateAppListing`): manifest.json, the
// listing in app.json (slug, name) and the version (the flag, else package.json's). The
// folder's bundle is not copied: the server serves the runtime, not yet the app's assets.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  errorsOf,
  formatAppIssue,
  isAppVersion,
  validateAppListing,
  validateAppManifest,
} from "@anna-ai/app-schema";
import type { AppVersionInput } from "./app-catalog-writes.js";

export class AppFolderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppFolderError";
  }
}

async function readJson(dir: string, file: string, required: boolean): Promise<unknown> {
  const path = join(dir, file);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      if (!required) return undefined;
      throw new AppFolderError(
        `${dir} has no ${file}: name an app project folder (\`anna-app init\` creates one)`,
        { cause: err },
      );
    }
    throw new AppFolderError(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
  } catch (err) {
    throw new AppFolderError(`${path} is not JSON: ${(err as Error).message}`, { cause: err });
  }
}

function refuse(file: string, issues: Parameters<typeof errorsOf>[0]): never {
  const errors = errorsOf(issues).map((i) => `  ${formatAppIssue(i)}`);
  throw new AppFolderError(
    `${file} has ${errors.length} error(s); \`anna-app validate\` shows them in full:\n${errors.join("\n")}`,
  );
}

export async function readAppFolder(
  dir: string,
  options: { version?: string } = {},
): Promise<AppVersionInput> {
  const manifest = validateAppManifest(await readJson(dir, "manifest.json", true));
  if (!manifest.ok || manifest.value === undefined) refuse("manifest.json", manifest.issues);
  const listing = validateAppListing(await readJson(dir, "app.json", true));
  if (!listing.ok || listing.value === undefined) refuse("app.json", listing.issues);
  const pkg = (await readJson(dir, "package.json", false)) as { version?: unknown } | undefined;
  const version = options.version ?? (typeof pkg?.version === "string" ? pkg.version : undefined);
  if (version === undefined) {
    throw new AppFolderError(
      `${dir} names no version: pass --version <x.y.z> or give its package.json a "version"`,
    );
  }
  if (!isAppVersion(version)) {
    throw new AppFolderError(
      `version must look like 1.2.3 (semver), got ${JSON.stringify(version)}`,
    );
  }
  return {
    slug: listing.value.slug,
    version,
    name: listing.value.name,
    manifest: manifest.value,
  };
}
