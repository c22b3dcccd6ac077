// The bundle against its declared file map: finalize verified each file when it arrived, and
// this check re-reads the record at review time, so a row or an object that changed since (a
// bug, a store restored from backup, a hand edit) is seen before the version goes public. Every
// declared file must be there with its sha256, size and type; nothing undeclared may be; the
// entry must be one of them; and each object in the blob store must still hash to its row.
import { bundleEntryFile } from "@anna-ai/app-schema";
import type { PreReviewCheck, ReviewFinding } from "../pre-review.js";
import { manifestOf } from "./bundle-text.js";

const CHECK = "file-map";

interface Declared {
  sha256?: unknown;
  byte_size?: unknown;
  content_type?: unknown;
}

function error(message: string, path?: string): ReviewFinding {
  return { check: CHECK, severity: "error", message, ...(path === undefined ? {} : { path }) };
}

export const fileMapCheck: PreReviewCheck = {
  id: CHECK,
  async run(input) {
    if (input.bundle === null) {
      const hasUi = typeof manifestOf(input).ui === "object" && manifestOf(input).ui !== null;
      return hasUi
        ? [
            error(
              `version ${input.version.version} declares a ui but has no finalized bundle: upload it (bundle/init, the files, bundle/finalize) before review`,
            ),
          ]
        : [];
    }
    const { row, files } = input.bundle;
    const findings: ReviewFinding[] = [];
    let declared: Record<string, Declared>;
    try {
      declared = JSON.parse(row.file_map) as Record<string, Declared>;
    } catch (err) {
      return [error(`the bundle's file map is not JSON (${(err as Error).message})`)];
    }
    const received = new Map(files.map((f) => [f.relative_path, f]));
    for (const [path, want] of Object.entries(declared)) {
      const got = received.get(path);
      if (got === undefined) {
        findings.push(error(`${path} is in the file map but was never received`, path));
        continue;
      }
      const differs = [
        want.sha256 !== got.sha256 ? "sha256" : undefined,
        Number(want.byte_size) !== Number(got.byte_size) ? "size" : undefined,
        want.content_type !== undefined && want.content_type !== got.content_type
          ? "content type"
          : undefined,
      ].filter((d) => d !== undefined);
      if (differs.length > 0) {
        findings.push(
          error(`${path} differs from the file map in its ${differs.join(", ")}`, path),
        );
      }
    }
    for (const path of received.keys()) {
      if (!(path in declared))
        findings.push(error(`${path} is in the bundle but not in its file map`, path));
    }
    const entry = bundleEntryFile(row.entry_path);
    if (!received.has(entry))
      findings.push(error(`the entry ${entry} is not in the bundle`, entry));
    const total = files.reduce((n, f) => n + Number(f.byte_size), 0);
    if (files.length !== row.file_count || total !== Number(row.total_size_bytes)) {
      findings.push(
        error(
          `the bundle record says ${row.file_count} files and ${row.total_size_bytes} bytes; its files are ${files.length} and ${total} bytes`,
        ),
      );
    }
    if (input.blobs !== undefined) {
      for (const f of files) {
        const head = await input.blobs.head(f.blob_key);
        if (head === undefined) {
          findings.push(
            error(`${f.relative_path} is missing from the blob store`, f.relative_path),
          );
        } else if (
          head.sizeBytes !== Number(f.byte_size) ||
          (await input.blobs.sha256(f.blob_key)) !== f.sha256
        ) {
          findings.push(
            error(
              `${f.relative_path} in the blob store no longer matches its sha256 or size`,
              f.relative_path,
            ),
          );
        }
      }
    }
    return findings;
  },
};
