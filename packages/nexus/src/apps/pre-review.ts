// The automated pre-review checks that run when an app is submitted for review: each looks at the
// candidate version (its manifest, its UI bundle's files) and reports findings, which are stored
// on the review and shown to the reviewer and the author. A check never blocks on its own; an
// `error` finding is what the reviewer is asked to look at first.
import type { Kysely, Selectable } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import type {
  AppBundleFilesTable,
  AppBundlesTable,
  AppsTable,
  AppVersionsTable,
} from "../db/schema-apps.js";
import type { Database } from "../db/schema.js";

export interface ReviewFinding {
  /** The check's id (`manifest`, `bundle-csp`, `secrets`, `asset-size`, …). */
  check: string;
  severity: "error" | "warning" | "info";
  message: string;
  /** The bundle file or manifest pointer the finding is about. */
  path?: string;
}

export interface PreReviewInput {
  db: Kysely<Database>;
  blobs: BlobStore | undefined;
  app: Selectable<AppsTable>;
  version: Selectable<AppVersionsTable>;
  /** The version's finalized UI bundle and its files, when it has one. */
  bundle: { row: Selectable<AppBundlesTable>; files: Selectable<AppBundleFilesTable>[] } | null;
}

export interface PreReviewCheck {
  id: string;
  run(input: PreReviewInput): Promise<ReviewFinding[]>;
}

/** Runs every check; one that throws becomes an `error` finding naming it, never a failed submit. */
export async function runPreReviewChecks(
  checks: readonly PreReviewCheck[],
  input: PreReviewInput,
): Promise<ReviewFinding[]> {
  const findings: ReviewFinding[] = [];
  for (const check of checks) {
    try {
      findings.push(...(await check.run(input)));
    } catch (err) {
      findings.push({
        check: check.id,
        severity: "error",
        message: `the ${check.id} check could not run: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }
  return findings;
}
