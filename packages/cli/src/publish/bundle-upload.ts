// Sending a UI bundle (real-world-cli.md §3.1): init with the file map, one multipart POST per
// file to the same-origin `…/bundle/file` (field `relative_path`, field `file` as a Blob named
// `blob`), 4 at a time, then finalize. Files the server says it already has (`skip_upload`)
// are not sent. Every path must come back in init's `files[]`; a missing one is exit 6.
import { readFile } from "node:fs/promises";
import { EXIT_SERVER, ExitError } from "../cli/exit-error.js";
import { type LocalBundle, bundleInitBody } from "./app-bundle.js";
import type { Progress } from "./progress.js";
import type { RequestPlan } from "./request-plan.js";

export const UPLOAD_CONCURRENCY = 4;

export interface UploadedBundle {
  file_count: number;
  uploaded: number;
  skipped: number;
  /** The finalize answer (A12 `status`, A19 `bundle_status`, counts, sha256_manifest). */
  finalize: Record<string, unknown> | null;
}

interface InitAnswer {
  files?: { relative_path?: string; proxy_upload_url?: string; skip_upload?: boolean }[];
}

/** `base` is `/api/v1/developer/apps/{id}/versions/{vid}` or `/api/v1/developer/apps/{id}/working`. */
export async function uploadBundle(
  plan: RequestPlan,
  base: string,
  bundle: LocalBundle,
  manifest: Record<string, unknown>,
  progress: Progress,
): Promise<UploadedBundle> {
  const init = await plan.send<InitAnswer>(
    { method: "POST", path: `${base}/bundle/init`, body: bundleInitBody(bundle, manifest) },
    "starting the bundle upload",
  );
  const entries = new Map((init?.body?.files ?? []).map((f) => [f.relative_path, f]));
  const toSend = bundle.files.filter((f) => {
    if (plan.dryRun) return true;
    const e = entries.get(f.relativePath);
    if (e === undefined || (!e.skip_upload && typeof e.proxy_upload_url !== "string")) {
      throw new ExitError(
        EXIT_SERVER,
        `the server did not return an upload URL for ${f.relativePath} (bundle/init); nothing was finalized, try again`,
      );
    }
    return !e.skip_upload;
  });
  if (plan.dryRun) {
    plan.note({
      method: "POST",
      path: `${base}/bundle/file`,
      note: `multipart, ${toSend.length} files, ${bundle.totalBytes} bytes, ${UPLOAD_CONCURRENCY} at a time`,
    });
  } else {
    const queue = [...toSend];
    let failed = false;
    const worker = async () => {
      // One failure stops the other workers from starting more files.
      for (let f = queue.shift(); f !== undefined; f = failed ? undefined : queue.shift()) {
        const bytes = f.content ?? (await readFile(f.absolutePath));
        const form = new FormData();
        form.set("relative_path", f.relativePath);
        form.set("file", new Blob([new Uint8Array(bytes)], { type: f.contentType }), "blob");
        try {
          await plan.client.post(`${base}/bundle/file`, {
            form,
            what: `uploading bundle file ${f.relativePath}`,
          });
        } catch (error) {
          failed = true;
          throw error;
        }
        progress.advance(f.byteSize);
      }
    };
    plan.steps.push({
      method: "POST",
      path: `${base}/bundle/file`,
      note: `multipart, ${toSend.length} files`,
    });
    try {
      await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, queue.length) }, worker));
    } finally {
      progress.done();
    }
  }
  const fin = await plan.send<Record<string, unknown>>(
    { method: "POST", path: `${base}/bundle/finalize`, body: { skip_remote_check: false } },
    "finalizing the bundle",
  );
  return {
    file_count: bundle.files.length,
    uploaded: toSend.length,
    skipped: bundle.files.length - toSend.length,
    finalize: fin?.body ?? null,
  };
}
