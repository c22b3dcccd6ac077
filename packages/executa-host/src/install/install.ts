// The client-side install pipeline (R78–R80): `binary` (download, verify, extract) and `local`
// (an archive or folder on this machine) both end in the same staged, checked folder that is
// committed as `tools/{tool_id}/v{version}/` — or, under EXECUTA_INSTALL_V2=0, as one file at
// `bin/{name}`. Whatever fails, the temp file and staging folder go and `current` is untouched.
import { execFile } from "node:child_process";
import { copyFile, chmod, mkdir, mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { platformKey } from "../launch/platform-key.js";
import { checkExecutableName, readArchiveManifest } from "./archive-manifest.js";
import { type ArchiveFormat, inferArchiveFormat, resolveBinaryAsset } from "./binary-asset.js";
import { collectOldVersions, commitVersion, rand } from "./commit.js";
import { copyDir } from "./copy-dir.js";
import { downloadTo } from "./download.js";
import { applyPermissions, resolveEntrypoint } from "./entrypoint.js";
import { extractTarGz } from "./extract-tar.js";
import { extractZip } from "./extract-zip.js";
import { InstallError } from "./install-error.js";
import type { InstallRecord } from "./install-record.js";
import {
  executaHome,
  INSTALL_FILE,
  keepVersions,
  legacyInstall,
  sanitizeSegment,
  sanitizeToolId,
  toolPaths,
  versionDirName,
} from "./layout.js";
import type { ExtractLimits } from "./safe-member.js";
import { withToolLock } from "./tool-lock.js";

/** The `install_plugin` params (R80), plus where a `local` archive or folder is. */
export interface InstallRequest {
  distribution_type: string;
  package_name?: string | undefined;
  version?: string | undefined;
  executable_name?: string | undefined;
  binary_urls?: unknown;
  tool_id?: string | undefined;
  name?: string | undefined;
  /** `local`: an archive (.tar.gz, .tgz, .zip, or a raw executable) or a folder. */
  local_path?: string | undefined;
}

export interface InstallLimits extends ExtractLimits {
  /** Cap on a download that declares no size (one that declares a size gets exactly that). */
  maxDownloadBytes: number;
  downloadTimeoutMs: number;
  idleTimeoutMs: number;
  /** Waiting for another install of the same tool. */
  lockTimeoutMs: number;
}

export const DEFAULT_INSTALL_LIMITS: InstallLimits = {
  maxDownloadBytes: 2 * 1024 ** 3,
  // The 5 GB extract limit of the local-archive section.
  maxBytes: 5 * 1024 ** 3,
  maxEntries: 100_000,
  downloadTimeoutMs: 15 * 60_000,
  idleTimeoutMs: 60_000,
  lockTimeoutMs: 5 * 60_000,
};

export type InstallPhase = "resolve" | "download" | "extract" | "commit" | "done";

export interface InstallProgress {
  tool_id: string;
  phase: InstallPhase;
  bytes_downloaded?: number;
  bytes_total?: number | null;
}

export interface InstallOptions {
  /** The install root; default ANNA_EXECUTA_HOME or ~/.anna/executa. */
  home?: string | undefined;
  /** Reads ANNA_EXECUTA_HOME, EXECUTA_KEEP_VERSIONS, EXECUTA_INSTALL_V2; default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Platform key to resolve `binary_urls` for; default this machine's. */
  platform?: string | undefined;
  limits?: Partial<InstallLimits> | undefined;
  onProgress?: ((p: InstallProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
  now?: (() => Date) | undefined;
  /** Where the `bin/{name}` shims go; default `{home}/bin`. */
  binDir?: string | undefined;
  /** Take over a `bin/{name}` that starts another tool (default: refuse). */
  force?: boolean | undefined;
}

export interface InstallResult {
  tool_id: string;
  name: string;
  version: string;
  layout: "v2" | "legacy";
  /** The version folder (v2) or the installed file (legacy). */
  dir: string;
  /** Absolute path of the entry through `current` (v2) or the file at bin/{name} (legacy). */
  entrypoint: string;
  shim: string;
  record: InstallRecord;
  /** Version folders removed by GC. */
  removed_versions: string[];
  warnings: string[];
}

const INSTALLABLE = new Set(["binary", "local"]);
const PACKAGE_MANAGERS: Readonly<Record<string, string>> = {
  uv: "uv tool install <package_name>",
  pipx: "pipx install <package_name>",
  npm: "npm install -g <package_name>",
  homebrew: "brew install <package_name>",
};

function checkRequest(r: InstallRequest): void {
  if (!INSTALLABLE.has(r.distribution_type)) {
    const how = PACKAGE_MANAGERS[r.distribution_type];
    throw new InstallError(
      "INVALID_REQUEST",
      how === undefined
        ? `distribution_type ${JSON.stringify(r.distribution_type)} is not one of binary, local, uv, pipx, npm, homebrew`
        : `distribution_type ${r.distribution_type} installs through its package manager (\`${how.replace("<package_name>", r.package_name ?? "<package_name>")}\`); this pipeline installs binary and local executas`,
    );
  }
  if (r.distribution_type === "local") {
    if (r.executable_name === undefined || r.executable_name === "")
      throw new InstallError(
        "INVALID_REQUEST",
        "a local install needs executable_name (the bin/{name} shim), e.g. --executable-name my-tool",
      );
    if (r.local_path === undefined || r.local_path === "")
      throw new InstallError(
        "INVALID_REQUEST",
        "a local install needs local_path: the archive or folder to install",
      );
  }
  if (r.executable_name !== undefined) checkExecutableName(r.executable_name, "executable_name");
}

/** The tool_id a request installs under: the minted one, else a slug of what names it (R80). */
export function requestToolId(r: InstallRequest): string {
  if (r.tool_id !== undefined && r.tool_id !== "") return sanitizeToolId(r.tool_id);
  const fromUrl = (): string | undefined => {
    if (r.binary_urls === null || typeof r.binary_urls !== "object") return undefined;
    const first = Object.values(r.binary_urls as Record<string, unknown>)[0];
    const url = typeof first === "string" ? first : (first as { url?: unknown } | undefined)?.url;
    if (typeof url !== "string") return undefined;
    const base = path.posix.basename(new URL(url, "http://x/").pathname);
    return base.replace(/\.(tar\.gz|tgz|zip|exe)$/i, "");
  };
  const raw = r.package_name ?? r.executable_name ?? r.name ?? fromUrl();
  if (raw === undefined || raw === "")
    throw new InstallError("INVALID_REQUEST", "name the executa: give tool_id (or package_name)");
  return sanitizeToolId(raw);
}

function unquarantine(dir: string): Promise<void> {
  // Unsigned binaries on macOS: a failure (no xattr, no attribute) changes nothing.
  return new Promise((resolve) =>
    execFile("xattr", ["-dr", "com.apple.quarantine", dir], () => resolve()),
  );
}

/** Installs one executa; see the file comment for what is guaranteed on failure. */
export async function installExecuta(
  request: InstallRequest,
  options: InstallOptions = {},
): Promise<InstallResult> {
  checkRequest(request);
  const env = options.env ?? process.env;
  const limits = { ...DEFAULT_INSTALL_LIMITS, ...options.limits };
  const home = options.home ?? executaHome(env);
  const platform = options.platform ?? platformKey();
  const toolId = requestToolId(request);
  const keep = keepVersions(env);
  const legacy = legacyInstall(env);
  const progress = (p: Omit<InstallProgress, "tool_id">) =>
    options.onProgress?.({ tool_id: toolId, ...p });
  const local = request.distribution_type === "local";
  const paths = toolPaths(home, toolId, options.binDir);
  progress({ phase: "resolve" });

  const resolved = local ? undefined : resolveBinaryAsset(request.binary_urls, platform);
  const source = local ? path.resolve(request.local_path!) : undefined;
  const label = resolved?.asset.url ?? source!;
  let sourceIsDir = false;
  if (source !== undefined) {
    const st = await stat(source).catch(() => undefined);
    if (st === undefined)
      throw new InstallError("INVALID_REQUEST", `${source}: no such archive or folder`);
    sourceIsDir = st.isDirectory();
  }
  const format: ArchiveFormat | "dir" = sourceIsDir
    ? "dir"
    : (resolved?.format ?? inferArchiveFormat(source!));

  const tmp = await mkdtemp(path.join(tmpdir(), `executa-${toolId}-`));
  await mkdir(paths.toolDir, { recursive: true });
  const staging = path.join(paths.toolDir, `.staging-${rand()}`);
  try {
    let archive = source;
    let downloaded: { size: number; sha256: string } | undefined;
    if (resolved !== undefined) {
      archive = path.join(tmp, "download");
      downloaded = await downloadTo(resolved.asset.url, archive, {
        expectedSize: resolved.asset.size,
        sha256: resolved.asset.sha256,
        maxBytes: limits.maxDownloadBytes,
        timeoutMs: limits.downloadTimeoutMs,
        idleTimeoutMs: limits.idleTimeoutMs,
        signal: options.signal,
        fetch: options.fetch,
        onProgress: (p) =>
          progress({
            phase: "download",
            bytes_downloaded: p.bytesDownloaded,
            bytes_total: p.bytesTotal,
          }),
      });
    }
    return await withToolLock(paths.toolDir, limits.lockTimeoutMs, async () => {
      progress({ phase: "extract" });
      await mkdir(staging, { mode: 0o755 });
      const rawName = request.executable_name ?? sanitizeSegment(request.name ?? "", toolId);
      if (format === "tar.gz") await extractTarGz(archive!, staging, limits, label);
      else if (format === "zip") await extractZip(archive!, staging, limits, label);
      else if (format === "dir") await copyDir(archive!, staging, limits, label);
      else {
        await mkdir(path.join(staging, "bin"));
        await copyFile(archive!, path.join(staging, "bin", rawName));
      }
      const manifest = await readArchiveManifest(staging);
      const name = request.executable_name ?? manifest?.name ?? rawName;
      const version = request.version || manifest?.version || (local ? "dev" : "unknown");
      const entry = await resolveEntrypoint(staging, {
        assetEntrypoint: resolved?.asset.entrypoint,
        manifest,
        platform,
        name,
        label,
      });
      await applyPermissions(staging, entry.relative, manifest, label);
      if (process.platform === "darwin") await unquarantine(staging);

      const record: InstallRecord = {
        schema: 1,
        tool_id: request.tool_id ?? toolId,
        name,
        version,
        distribution_type: local ? "local" : "binary",
        layout: legacy ? "legacy" : "v2",
        entrypoint: legacy ? `bin/${name}` : entry.relative,
        url: resolved?.asset.url ?? null,
        sha256: downloaded?.sha256 ?? null,
        size: downloaded?.size ?? null,
        format,
        platform,
        binary_urls: request.binary_urls ?? null,
        source_path: source ?? null,
        installed_at: (options.now?.() ?? new Date()).toISOString(),
      };
      progress({ phase: "commit" });
      const result = legacy
        ? await commitLegacy(paths, staging, entry.relative, name, record)
        : await commitV2(
            paths,
            staging,
            entry.relative,
            name,
            record,
            keep,
            options.force === true,
          );
      progress({ phase: "done" });
      return { ...result, warnings: [...entry.warnings, ...result.warnings] };
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

async function commitV2(
  paths: ReturnType<typeof toolPaths>,
  staging: string,
  entry: string,
  name: string,
  record: InstallRecord,
  keep: number,
  force: boolean,
): Promise<InstallResult> {
  await writeFile(path.join(staging, INSTALL_FILE), JSON.stringify(record, null, 2) + "\n");
  const versionDir = path.join(paths.toolDir, versionDirName(record.version));
  const windows = process.platform === "win32";
  const committed = await commitVersion({
    paths,
    staging,
    versionDir,
    name,
    entrypoint: entry,
    windows,
    force,
  });
  const removed = await collectOldVersions(paths, keep);
  return {
    tool_id: record.tool_id,
    name,
    version: record.version,
    layout: "v2",
    dir: versionDir,
    entrypoint: path.join(paths.current, ...entry.split("/")),
    shim: path.join(paths.bin, windows ? `${name}.cmd` : name),
    record,
    removed_versions: removed,
    warnings: [
      ...committed.warnings,
      ...(committed.backedUp ? [`an older bin/${name} was moved to ${committed.backedUp}`] : []),
    ],
  };
}

/** EXECUTA_INSTALL_V2=0: the entry alone at bin/{name}, its record at tools/{tool_id}/INSTALL.json. */
async function commitLegacy(
  paths: ReturnType<typeof toolPaths>,
  staging: string,
  entry: string,
  name: string,
  record: InstallRecord,
): Promise<InstallResult> {
  await mkdir(paths.bin, { recursive: true });
  const file = path.join(paths.bin, name);
  const tmp = path.join(paths.bin, `.${name}-${rand()}`);
  await copyFile(path.join(staging, entry), tmp);
  await chmod(tmp, 0o755);
  await rename(tmp, file);
  await writeFile(path.join(paths.toolDir, INSTALL_FILE), JSON.stringify(record, null, 2) + "\n");
  return {
    tool_id: record.tool_id,
    name,
    version: record.version,
    layout: "legacy",
    dir: file,
    entrypoint: file,
    shim: file,
    record,
    removed_versions: [],
    warnings: [],
  };
}
