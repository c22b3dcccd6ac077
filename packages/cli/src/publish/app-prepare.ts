// What `apps publish` and `apps push` do on disk before talking about the app itself
// (real-world-cli.md §9.1 steps 1–3 and 5, §9.2 steps 1–3 and 5): load and validate the
// project, bump, give each bundled executa its tool_id, write the lock and the tool-id map,
// substitute `bundled:` refs, read the bundle and compute the content hash. In a dry run the
// executa publishes only plan and nothing is written; the hash is still exact, because the
// generated tool-id map is hashed from memory.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { NexusClient } from "../account/nexus-client.js";
import type { CliIo } from "../cli/io.js";
import { collectBundle, type LocalBundle } from "./app-bundle.js";
import { bundleHash, manifestHash } from "./app-content-hash.js";
import { type AppProject, loadAppProject, writeBumpedAppVersion } from "./app-project.js";
import { requireValidApp } from "./app-validate.js";
import {
  type BundledResult,
  resolveBundledExecutas,
  substituteBundledRefs,
  toolIdsScript,
} from "./bundled-executas.js";
import type { Bump } from "./executa-project.js";
import { writeLock } from "./executas-lock.js";
import type { JsonObject } from "./json-file.js";

export const TOOL_IDS_FILE = "anna-tool-ids.js";

export interface PrepareOptions {
  client: NexusClient;
  host: string;
  dir: string;
  mode: "publish" | "push";
  bump: Bump | undefined;
  dryRun: boolean;
  noWrite: boolean;
  noBundle: boolean;
  bundleDir: string | undefined;
  overrides: ReadonlyMap<string, string>;
  skipExecutaPublish: boolean;
  noBundledExecutas: boolean;
  profile: string | undefined;
  io: CliIo;
  quiet: boolean;
}

export interface PreparedApp {
  project: AppProject;
  executas: BundledResult;
  /** manifest.json after `bundled:` substitution: the payload. */
  manifest: JsonObject;
  bundle: LocalBundle | undefined;
  contentHash: string;
  warnings: string[];
}

export async function prepareApp(o: PrepareOptions): Promise<PreparedApp> {
  const project = await loadAppProject(o.dir, { bump: o.bump });
  const warnings: string[] = [];
  const bundleDir = path.resolve(o.dir, o.bundleDir ?? "bundle");
  const useBundle = !o.noBundle && project.bundleEntry !== undefined;
  const bundleExists = existsSync(bundleDir);
  await requireValidApp(
    o.dir,
    project.manifestFile,
    useBundle && bundleExists ? bundleDir : undefined,
  );
  if (!o.dryRun && !o.noWrite && project.bumpedFrom !== undefined) {
    await writeBumpedAppVersion(project);
  }
  const executas = await resolveBundledExecutas({
    client: o.client,
    host: o.host,
    project,
    mode: o.mode,
    dryRun: o.dryRun,
    noWrite: o.noWrite,
    overrides: o.overrides,
    skipPublish: o.skipExecutaPublish,
    none: o.noBundledExecutas,
    profile: o.profile,
  });
  if (!o.dryRun && !o.noWrite && Object.keys(executas.lock).length > 0) {
    await writeLock(o.dir, o.host, executas.lock);
  }
  const manifest = substituteBundledRefs(project.manifest, executas.ids, project.manifestFile);
  // The tool-id map always goes to <project>/bundle (as the published CLI does); it is part of
  // the upload only when that is the bundle folder.
  const overlay = new Map<string, Buffer>();
  const ids = executas.ids;
  if (Object.keys(ids).length > 0 && project.bundleEntry !== undefined) {
    const script = Buffer.from(toolIdsScript(ids));
    const defaultDir = path.join(o.dir, "bundle");
    if (!o.dryRun && existsSync(defaultDir))
      await writeFile(path.join(defaultDir, TOOL_IDS_FILE), script);
    if (bundleDir === defaultDir) overlay.set(TOOL_IDS_FILE, script);
  }
  let bundle: LocalBundle | undefined;
  if (useBundle) {
    if (bundleExists) bundle = await collectBundle(bundleDir, project.bundleEntry, overlay);
    else
      warnings.push(
        `no bundle folder at ${bundleDir}; publishing without a UI bundle (pass --bundle-dir <dir>)`,
      );
  }
  const contentHash = bundle
    ? bundleHash(project.version, manifest, bundle)
    : manifestHash(project.version, manifest);
  return { project, executas, manifest, bundle, contentHash, warnings };
}

/** The bundled executas as the results report them. */
export function executaSummary(prepared: PreparedApp) {
  return Object.entries(prepared.executas.lock).map(([handle, e]) => ({
    handle,
    tool_id: e.tool_id,
    source: e.source,
  }));
}
