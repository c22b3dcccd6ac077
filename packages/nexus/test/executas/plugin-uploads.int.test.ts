// A plugin's `host/uploadFile` on the server: the copilot host upload into the blob store, the
// quota checked before and the stored file counted after, as the upload endpoints do; a file the
// quota refuses never lands. SQLite and PostgreSQL.
import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import { hostUploads } from "../../src/copilot/host-upload.js";
import { manualClock } from "../../src/core/clock.js";
import { quotaCountedUploads } from "../../src/executas/plugin-services.js";
import { tempBlobStore } from "../helpers/app-bundles.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { ctxFor } from "../helpers/storage.js";

useDialectCleanup();

const QUOTA_BYTES = 10;
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe.each(DIALECTS)("plugin uploads on $name", (d) => {
  it.skipIf(d.skip)(
    "stores inline uploads under the user's quota and refuses one over it before storing it",
    async () => {
      const db = await d.open();
      const clock = manualClock();
      const blobs = await tempBlobStore();
      const uploads = quotaCountedUploads(
        hostUploads(db.db, blobs, () => clock.now(), {
          maxFileBytes: 1024,
          quotaBytes: QUOTA_BYTES,
        }),
      );
      const ctx = { ...ctxFor("7", "tool-up"), grant: {} };
      const first = await uploads.inline(
        {
          mode: "inline",
          filename: "a.txt",
          mime_type: "text/plain",
          content_b64: b64("12345678"),
          purpose: "user_artifact",
        },
        ctx,
      );
      expect(first).toMatchObject({ size_bytes: 8, mime_type: "text/plain" });
      expect(await blobs.head(first.r2_key)).toMatchObject({ sizeBytes: 8 });
      const usage = () =>
        db.db
          .selectFrom("storage_usage")
          .select("bytes_used")
          .where("user_id", "=", "7")
          .executeTakeFirstOrThrow();
      expect(Number((await usage()).bytes_used)).toBe(8);

      // 8 + 8 > 10: refused before anything is stored.
      const refused = await uploads
        .inline(
          {
            mode: "inline",
            filename: "b.txt",
            mime_type: "text/plain",
            content_b64: b64("abcdefgh"),
            purpose: "user_artifact",
          },
          ctx,
        )
        .then(
          () => undefined,
          (e: unknown) => e as { errorCode?: string; message: string },
        );
      expect(refused?.errorCode).toBe(UPLOAD_ERRORS.QUOTA_EXCEEDED.errorCode);
      expect(refused?.message).toMatch(/would pass your 10-byte storage quota \(8 used\)/);
      expect(Number((await usage()).bytes_used)).toBe(8);
    },
  );
});
