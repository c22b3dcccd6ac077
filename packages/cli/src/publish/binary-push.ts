// The binary_artifacts step that `executa publish`, `apps publish` (through it) and `apps cut`
// share (real-world-cli.md §B, A-table rows for `apps cut` and `executa publish`): B1 → B3 →
// B4 × N → B5 for a tool's declared archives, or, in a dry run, the same requests as a plan.
import type { NexusClient } from "../account/nexus-client.js";
import { resolveArtifacts } from "./binary-artifacts.js";
import { DEV, type UploadProgress, type UploadResult, uploadBinaries } from "./binary-upload.js";
import type { ExecutaProject } from "./executa-project.js";
import type { PlannedRequest } from "./request-plan.js";

export interface BinaryPushOptions {
  client: NexusClient;
  host: string;
  project: ExecutaProject;
  /** undefined in a dry run of an executa the server has not minted yet. */
  toolId: string | undefined;
  dryRun: boolean;
  plan: PlannedRequest[];
  onProgress?: (p: UploadProgress) => void;
}

/** Uploads (or plans) the project's binary_artifacts; null when it declares none. */
export async function pushBinaries(o: BinaryPushOptions): Promise<UploadResult | null> {
  const p = o.project;
  if (p.type !== "tool" || p.binaryArtifacts === undefined) return null;
  const toolId = o.toolId ?? "{tool_id}";
  const base = `${DEV}/executas/${toolId}/binaries`;
  if (o.dryRun) {
    // The archives are read (so a missing one shows now) once the tool_id is known.
    const local = o.toolId !== undefined ? await resolveArtifacts(p, toolId) : undefined;
    o.plan.push(
      { method: "POST", path: `${DEV}/upload-session/mint`, body: { tool_id: toolId } },
      {
        method: "POST",
        path: `${base}/init`,
        body: {
          executa_version: p.version,
          assets: local
            ? Object.fromEntries(
                local.map((a) => [
                  a.platform,
                  {
                    filename: a.filename,
                    sha256: a.sha256,
                    byte_size: a.byteSize,
                    format: a.format,
                  },
                ]),
              )
            : Object.keys(p.binaryArtifacts).sort(),
        },
      },
      { method: "POST", path: `${base}/{upload_id}/part?platform={platform}&index={i}` },
      { method: "POST", path: `${base}/{upload_id}/finalize`, body: {} },
    );
    return null;
  }
  return uploadBinaries({
    host: o.host,
    toolId,
    version: p.version,
    artifacts: await resolveArtifacts(p, toolId),
    dryRun: false,
    auth: { kind: "pat", client: o.client },
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });
}
