// What the ts template's package.json puts for `@anna-ai/executa-sdk`. Run from a checkout of
// this repository, the SDK sits beside the CLI package and is not on npm yet: a `file:` path makes
// `npm install` link it, offline. From an npm install of the CLI, the published version range.
import { readFile } from "node:fs/promises";
import path from "node:path";

export const SDK_PACKAGE_NAME = "@anna-ai/executa-sdk";
/** The range generated projects use once the SDK is published (same major as this CLI). */
export const PUBLISHED_SDK_RANGE = "^0.1.0";

/** The SDK package folder beside the CLI package, when this CLI runs from a checkout. */
export async function findLocalSdk(cliRoot: string): Promise<string | undefined> {
  const dir = path.resolve(cliRoot, "..", "executa-sdk");
  try {
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as {
      name?: unknown;
    };
    return pkg.name === SDK_PACKAGE_NAME ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `file:<path>` to the local SDK: relative when the project is generated inside the same
 * checkout (they move together), absolute otherwise (the project may live anywhere). npm wants
 * forward slashes on every platform.
 */
export function fileDependency(sdkDir: string, targetDir: string): string {
  const repoRoot = path.resolve(sdkDir, "..", "..");
  const fromRoot = path.relative(repoRoot, targetDir);
  const inside = !fromRoot.startsWith("..") && !path.isAbsolute(fromRoot);
  const location = inside ? path.relative(targetDir, sdkDir) : sdkDir;
  return `file:${location.split(path.sep).join("/")}`;
}

export async function sdkDependency(cliRoot: string, targetDir: string): Promise<string> {
  const local = await findLocalSdk(cliRoot);
  return local === undefined ? PUBLISHED_SDK_RANGE : fileDependency(local, targetDir);
}
