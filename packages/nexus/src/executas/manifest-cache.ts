// The describe result of each frozen version, in the database (migration 0013): written once
// after the first describe, read by every later prepare on this server or another one. A
// version never changes, so neither does its manifest: a second server describing concurrently
// writes the same one.
import { type DescribedManifest, readDescribeResult } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

export interface ManifestCache {
  /** undefined when never described (or when the stored row no longer reads as a manifest). */
  get(executaVersionId: number): Promise<DescribedManifest | undefined>;
  put(executaVersionId: number, manifest: DescribedManifest, now: number): Promise<void>;
}

export function sqlManifestCache(db: Kysely<Database>): ManifestCache {
  return {
    async get(executaVersionId) {
      const row = await db
        .selectFrom("executa_manifests")
        .select("manifest")
        .where("executa_version_id", "=", executaVersionId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      try {
        // Read back through the describe parser: a row written by an older server whose
        // manifest rules were looser is described again rather than trusted.
        return readDescribeResult(JSON.parse(row.manifest), `cached manifest ${executaVersionId}`)
          .manifest;
      } catch {
        return undefined;
      }
    },
    async put(executaVersionId, manifest, now) {
      await db
        .insertInto("executa_manifests")
        .values({
          executa_version_id: executaVersionId,
          manifest: JSON.stringify(manifest),
          described_at: now,
        })
        // An upsert: a row that no longer read as a manifest is replaced by the fresh describe.
        .onConflict((oc) =>
          oc
            .column("executa_version_id")
            .doUpdateSet({ manifest: JSON.stringify(manifest), described_at: now }),
        )
        .execute();
    },
  };
}
