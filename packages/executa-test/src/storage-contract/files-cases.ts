// The `files/*` semantics every object store must share (R46–R50, T24): bytes move over real
// HTTP to the presigned URLs, the object's etag is the SHA-256 of what landed, pending objects are
// invisible, and objects count against the same per-user quota as KV rows.
import { createHash } from "node:crypto";
import type { FilesService, ServiceContext, StorageGrant } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import type { TestContext } from "vitest";
import { E, caller, expectStorageError, freshStore } from "./contract-context.js";
import type { MakeStorage } from "./subject.js";

const ME = caller();

/** The files service of the store, or skips the case when the implementation has none. */
async function freshFiles(make: MakeStorage, t: TestContext, limits = {}) {
  const subject = await freshStore(make, limits);
  if (subject.files === undefined) t.skip("this implementation has no files service");
  return { ...subject, files: subject.files as FilesService };
}

/** upload_begin → PUT the bytes → upload_complete. */
async function putObject(
  files: FilesService,
  path: string,
  body: string,
  ctx: ServiceContext<StorageGrant> = ME,
) {
  const started = await files.uploadBegin(
    { path, scope: "tool", content_type: "text/plain", size_bytes: Buffer.byteLength(body) },
    ctx,
  );
  const res = await fetch(started.put_url, {
    method: "PUT",
    headers: { "Content-Type": "text/plain", ...started.headers },
    body,
  });
  expect(res.status, `PUT ${started.put_url}`).toBeLessThan(300);
  return files.uploadComplete({ path, scope: "tool" }, ctx);
}

export function describeFilesContract(make: MakeStorage): void {
  describe("files: objects", () => {
    it("uploads over HTTP, completes with etag = sha256(bytes)[:32], and serves the bytes back", async (t) => {
      const { files } = await freshFiles(make, t);
      const body = "hello, contract";
      const done = await putObject(files, "docs/hello.txt", body);
      expect(done).toMatchObject({
        path: "docs/hello.txt",
        etag: createHash("sha256").update(body).digest("hex").slice(0, 32),
        size_bytes: Buffer.byteLength(body),
      });
      const { get_url } = await files.downloadUrl({ path: "docs/hello.txt", scope: "tool" }, ME);
      const res = await fetch(get_url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(body);
      const { items } = await files.list({ scope: "tool", prefix: "docs/" }, ME);
      expect(items.map((i) => [i.path, i.size_bytes])).toEqual([["docs/hello.txt", body.length]]);
    });

    it("hides an object whose bytes were never completed from list", async (t) => {
      const { files } = await freshFiles(make, t);
      await files.uploadBegin({ path: "half.txt", scope: "tool", content_type: "text/plain" }, ME);
      expect((await files.list({ scope: "tool" }, ME)).items).toEqual([]);
    });

    it("refuses bad paths: an absolute one is INVALID_PATH, a missing one INVALID_REQUEST", async (t) => {
      const { files } = await freshFiles(make, t);
      await expectStorageError(
        files.uploadBegin({ path: "/etc/x", scope: "tool", content_type: "text/plain" }, ME),
        E.INVALID_PATH,
      );
      await expectStorageError(
        files.delete({ scope: "tool" } as unknown as Parameters<FilesService["delete"]>[0], ME),
        E.INVALID_REQUEST,
      );
    });

    it("deletes an object (NOT_FOUND after), and keeps another user's objects out of reach", async (t) => {
      const { files } = await freshFiles(make, t);
      await putObject(files, "mine.txt", "mine");
      const other = caller({ userId: "user-2" });
      expect((await files.list({ scope: "tool" }, other)).items).toEqual([]);
      await expectStorageError(
        files.delete({ path: "mine.txt", scope: "tool" }, other),
        E.NOT_FOUND,
      );
      expect(await files.delete({ path: "mine.txt", scope: "tool" }, ME)).toEqual({
        deleted: true,
      });
      await expectStorageError(files.delete({ path: "mine.txt", scope: "tool" }, ME), E.NOT_FOUND);
    });

    it("shares the user's quota with KV rows; deleting an object frees its bytes", async (t) => {
      const { files, storage } = await freshFiles(make, t, { quotaBytes: 100 });
      await putObject(files, "big.bin", "x".repeat(60));
      await expectStorageError(
        storage.set({ key: "k", value: "x".repeat(48), scope: "tool" }, ME), // 50 bytes
        E.QUOTA_EXCEEDED,
      );
      await expectStorageError(
        files.uploadBegin(
          { path: "more.bin", scope: "tool", content_type: "text/plain", size_bytes: 50 },
          ME,
        ),
        E.QUOTA_EXCEEDED,
      );
      await files.delete({ path: "big.bin", scope: "tool" }, ME);
      await storage.set({ key: "k", value: "x".repeat(48), scope: "tool" }, ME);
    });
  });
}
