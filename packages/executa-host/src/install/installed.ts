// What the runtime reads back: the install records under the root, and a LaunchSpec for an
// installed executa that ExecutaHost can start (EXECUTA_HOME = `tools/{tool_id}/current`, so a
// swap of `current` is picked up at the next start and a running process keeps its files).
import { readdir } from "node:fs/promises";
import * as path from "node:path";
import { detectContext, type DetectOptions } from "../launch/detect-context.js";
import { specForType } from "../launch/detect.js";
import type { LaunchSpec } from "../launch/types.js";
import { InstallError } from "./install-error.js";
import { type InstallRecord, readInstallRecord } from "./install-record.js";
import { executaHome, toolPaths } from "./layout.js";

export interface InstalledExecuta {
  record: InstallRecord;
  /** `tools/{tool_id}/current` (v2) or `tools/{tool_id}` (legacy). */
  dir: string;
  /** Absolute path of the entry to start. */
  entrypoint: string;
}

export async function findInstalled(
  toolId: string,
  home: string = executaHome(),
): Promise<InstalledExecuta | undefined> {
  const paths = toolPaths(home, toolId);
  const v2 = await readInstallRecord(paths.current);
  if (v2 !== undefined)
    return {
      record: v2,
      dir: paths.current,
      entrypoint: path.join(paths.current, ...v2.entrypoint.split("/")),
    };
  const legacy = await readInstallRecord(paths.toolDir);
  if (legacy !== undefined && legacy.layout === "legacy")
    return {
      record: legacy,
      dir: paths.toolDir,
      entrypoint: path.join(home, ...legacy.entrypoint.split("/")),
    };
  return undefined;
}

/** Every installed executa under `home`, by tool_id. */
export async function listInstalled(home: string = executaHome()): Promise<InstalledExecuta[]> {
  const names = await readdir(path.join(home, "tools")).catch(() => [] as string[]);
  const out: InstalledExecuta[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue;
    const found = await findInstalled(name, home).catch(() => undefined);
    if (found !== undefined) out.push(found);
  }
  return out;
}

/** The LaunchSpec of an installed executa, for `ExecutaHost.register`. */
export async function installedLaunchSpec(
  toolId: string,
  options: DetectOptions & { home?: string } = {},
): Promise<LaunchSpec> {
  const home = options.home ?? executaHome(options.env);
  const found = await findInstalled(toolId, home);
  if (found === undefined) {
    throw new InstallError(
      "NOT_INSTALLED",
      `no executa is installed as ${toolId} under ${home}; install it with \`anna-app executa install ${toolId}\``,
    );
  }
  return specForType(
    found.dir,
    found.record.tool_id,
    "binary",
    [found.entrypoint],
    "INSTALL.json",
    detectContext(options),
  );
}

/**
 * The LaunchSpec of one installed version folder (`tools/{tool_id}/v{version}`), not `current`:
 * a server that runs several versions of a tool for different users pins each process to its
 * own version's files.
 */
export async function versionLaunchSpec(
  versionDir: string,
  options: DetectOptions = {},
): Promise<LaunchSpec> {
  const record = await readInstallRecord(versionDir);
  if (record === undefined) {
    throw new InstallError(
      "NOT_INSTALLED",
      `${versionDir} holds no INSTALL.json; it is not an installed executa version (install it again)`,
    );
  }
  return specForType(
    versionDir,
    record.tool_id,
    "binary",
    [path.join(versionDir, ...record.entrypoint.split("/"))],
    "INSTALL.json",
    detectContext(options),
  );
}
