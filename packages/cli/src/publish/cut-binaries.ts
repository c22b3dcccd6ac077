// `apps cut` uploads the binary_artifacts of the app's bundled executas before A16 freezes them
// (real-world-cli.md, the `apps cut` row: 0.1.47 runs B1 → B3 → B4 → B5 for each bundled
// executa that declares them), so the frozen version pins their URLs and sha256 as `apps
// publish` does. The tool_id comes from the executa folder's `.anna/executa.json` for this host,
// else from `.anna/executas.lock.json`; with neither the executa was never pushed: exit 4.
import { existsSync } from "node:fs";
import path from "node:path";
import type { NexusClient } from "../account/nexus-client.js";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";
import { loadAppProject } from "./app-project.js";
import type { UploadProgress, UploadResult } from "./binary-upload.js";
import { pushBinaries } from "./binary-push.js";
import { loadExecutaProject } from "./executa-project.js";
import { readLock } from "./executas-lock.js";
import { readIdentity } from "./identity-cache.js";
import type { PlannedRequest } from "./request-plan.js";

export interface CutBinaries {
  handle: string;
  tool_id: string;
  binaries: UploadResult | null;
}

export async function uploadCutBinaries(o: {
  client: NexusClient;
  host: string;
  dir: string;
  dryRun: boolean;
  plan: PlannedRequest[];
  onProgress?: (p: UploadProgress) => void;
}): Promise<CutBinaries[]> {
  // `apps cut --slug x` from outside the project folder has no executa folders to read.
  if (!existsSync(path.join(o.dir, "manifest.json"))) return [];
  const app = await loadAppProject(o.dir);
  const locked = await readLock(o.dir, o.host);
  const out: CutBinaries[] = [];
  for (const b of app.bundled) {
    const dir = path.resolve(app.dir, b.path);
    const executa = await loadExecutaProject(dir);
    if (executa.type !== "tool" || executa.binaryArtifacts === undefined) continue;
    const toolId =
      (await readIdentity(dir, o.host, executa.slug))?.tool_id ?? locked[b.handle]?.tool_id;
    if (toolId === undefined) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `bundled executa "${b.handle}" (${b.path}) declares binary_artifacts but has no tool_id on ${o.host}; run \`anna-app apps push\` first (it registers the executa), then cut again`,
      );
    }
    const binaries = await pushBinaries({
      client: o.client,
      host: o.host,
      project: executa,
      toolId,
      dryRun: o.dryRun,
      plan: o.plan,
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    });
    out.push({ handle: b.handle, tool_id: toolId, binaries });
  }
  return out;
}
