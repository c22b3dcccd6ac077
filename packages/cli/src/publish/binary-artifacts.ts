// The local archives of `distribution.binary_artifacts` (real-world-cli.md §B, spec L2520–2535):
// each path has its `{version}`, `{platform}` and `{tool_id}` expanded, is read once to hash it,
// and must be a file of 1 byte to 1 GiB. The format is the declared one (`tgz` sent as `tar.gz`)
// or the suffix's. Platforms come sorted with localeCompare, the order the upload runs in.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { artifactFormat, MAX_BINARY_ARTIFACT_BYTES } from "@anna-ai/app-schema";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";
import type { ExecutaProject } from "./executa-project.js";

export interface LocalArtifact {
  platform: string;
  /** Absolute path of the archive. */
  file: string;
  filename: string;
  sha256: string;
  byteSize: number;
  format: "tar.gz" | "zip";
  entrypoint: string | undefined;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function resolveArtifacts(
  p: ExecutaProject,
  toolId: string,
): Promise<LocalArtifact[]> {
  const declared = p.binaryArtifacts ?? {};
  const out: LocalArtifact[] = [];
  for (const platform of Object.keys(declared).sort((a, b) => a.localeCompare(b))) {
    const a = declared[platform]!;
    const rel = a.path
      .replaceAll("{version}", p.version)
      .replaceAll("{platform}", platform)
      .replaceAll("{tool_id}", toolId);
    const file = path.resolve(p.dir, rel);
    const where = `distribution.binary_artifacts.${platform}`;
    const format = artifactFormat(rel, a.format);
    if (format === undefined) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `${where}: ${rel} is not an archive (.tar.gz, .tgz or .zip); pack the executable into one`,
      );
    }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `${where}: ${rel} does not exist; build it first (the path is relative to ${p.dir})`,
      );
    }
    if (info.size < 1 || info.size > MAX_BINARY_ARTIFACT_BYTES) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `${where}: ${rel} is ${info.size} bytes; an artifact must be 1 byte to 1 GiB`,
      );
    }
    out.push({
      platform,
      file,
      filename: path.basename(file),
      sha256: await sha256Of(file),
      byteSize: info.size,
      format,
      entrypoint: typeof a.entrypoint === "string" ? a.entrypoint : undefined,
    });
  }
  return out;
}
