// What a generated package.json puts for one of this repository's packages (`@anna-ai/cli`,
// `@anna-ai/executa-sdk`). They are not on the npm registry under these names yet, so a version
// range would make `npm install` ask the registry for someone else's package. In order:
// - this CLI runs from a checkout: a `file:` path to the package folder, linked offline;
// - this CLI was installed from the tarballs `npm run pack` writes: the CLI's package.json names
//   that folder (`annaPacksDir`), and the dependency is a `file:` path to the package's tarball;
// - otherwise the published range.
import { access, readFile } from "node:fs/promises";
import path from "node:path";

export const CLI_PACKAGE_NAME = "@anna-ai/cli";
export const SDK_PACKAGE_NAME = "@anna-ai/executa-sdk";
export type LocalPackageName = typeof CLI_PACKAGE_NAME | typeof SDK_PACKAGE_NAME;
/** The range generated projects use once the packages are published (same major as this CLI). */
export const PUBLISHED_RANGE = "^0.1.0";

/** The package's folder in a checkout, relative to the CLI package root. */
const CHECKOUT_DIR: Readonly<Record<LocalPackageName, string>> = {
  [CLI_PACKAGE_NAME]: ".",
  [SDK_PACKAGE_NAME]: "../executa-sdk",
};

interface PackageJson {
  name?: unknown;
  version?: unknown;
  annaPacksDir?: unknown;
}

async function readPackageJson(dir: string): Promise<PackageJson | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as PackageJson;
  } catch {
    return undefined;
  }
}

/** The file name `npm pack` gives a package: `@anna-ai/cli@0.1.0` → `anna-ai-cli-0.1.0.tgz`. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

/** The package folder beside the CLI package, when this CLI runs from a checkout. */
async function findCheckoutPackage(
  name: LocalPackageName,
  cliRoot: string,
): Promise<string | undefined> {
  // A checkout has the workspace's other packages beside the CLI; an installed CLI does not.
  if (
    (await readPackageJson(path.resolve(cliRoot, "..", "executa-sdk")))?.name !== SDK_PACKAGE_NAME
  )
    return undefined;
  const dir = path.resolve(cliRoot, CHECKOUT_DIR[name]);
  return (await readPackageJson(dir))?.name === name ? dir : undefined;
}

/** The package's tarball in the folder `npm run pack` wrote, when this CLI came from there. */
async function findPackedTarball(
  name: LocalPackageName,
  cliRoot: string,
): Promise<string | undefined> {
  const cli = await readPackageJson(cliRoot);
  if (typeof cli?.annaPacksDir !== "string" || typeof cli.version !== "string") return undefined;
  const tarball = path.join(cli.annaPacksDir, tarballName(name, cli.version));
  return access(tarball).then(
    () => tarball,
    () => undefined,
  );
}

/**
 * `file:<path>`: relative when the project is generated inside the same checkout (they move
 * together), absolute otherwise (the project may live anywhere). npm wants forward slashes on
 * every platform.
 */
export function fileDependency(location: string, targetDir: string, repoRoot: string): string {
  const fromRoot = path.relative(repoRoot, targetDir);
  const inside = !fromRoot.startsWith("..") && !path.isAbsolute(fromRoot);
  const written = inside ? path.relative(targetDir, location) : location;
  return `file:${written.split(path.sep).join("/")}`;
}

export async function packageDependency(
  name: LocalPackageName,
  cliRoot: string,
  targetDir: string,
): Promise<string> {
  const checkout = await findCheckoutPackage(name, cliRoot);
  if (checkout !== undefined) {
    return fileDependency(checkout, targetDir, path.resolve(cliRoot, "..", ".."));
  }
  const tarball = await findPackedTarball(name, cliRoot);
  return tarball === undefined ? PUBLISHED_RANGE : `file:${tarball.split(path.sep).join("/")}`;
}
