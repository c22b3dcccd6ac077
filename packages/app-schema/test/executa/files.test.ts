import { describe, expect, it } from "vitest";
import {
  FilesDeleteParamsSchema,
  FilesDownloadUrlParamsSchema,
  FilesDownloadUrlResultSchema,
  FilesListParamsSchema,
  FilesListResultSchema,
  FilesUploadBeginParamsSchema,
  FilesUploadBeginResultSchema,
  FilesUploadCompleteParamsSchema,
} from "../../src/executa/files.js";

describe("files/*", () => {
  it("accepts upload_begin as plugins send it", () => {
    expect(
      FilesUploadBeginParamsSchema.safeParse({
        path: "reports/2024.pdf",
        scope: "user",
        size_bytes: 1234,
        content_type: "application/pdf",
        metadata: { executa_invoke_id: "inv", source: "x" },
      }).success,
    ).toBe(true);
  });

  it("rejects a missing or over-long path", () => {
    expect(FilesUploadBeginParamsSchema.safeParse({ content_type: "text/plain" }).success).toBe(
      false,
    );
    expect(FilesDeleteParamsSchema.safeParse({ path: "p".repeat(1025) }).success).toBe(false);
  });

  it("requires put_url and headers in the upload_begin result", () => {
    const result = {
      upload_id: "u",
      put_url: "https://r2/x",
      headers: { "Content-Type": "text/plain" },
      expires_at: "2026-01-01T00:00:00Z",
    };
    expect(FilesUploadBeginResultSchema.safeParse(result).success).toBe(true);
    expect(FilesUploadBeginResultSchema.safeParse({ ...result, put_url: undefined }).success).toBe(
      false,
    );
  });

  it("accepts upload_complete with optional etag and size", () => {
    expect(
      FilesUploadCompleteParamsSchema.safeParse({ path: "a.txt", etag: '"abc"' }).success,
    ).toBe(true);
  });

  it("accepts both download TTL spellings and returns url beside get_url", () => {
    expect(FilesDownloadUrlParamsSchema.safeParse({ path: "a", expires_in: 60 }).success).toBe(
      true,
    );
    expect(FilesDownloadUrlParamsSchema.safeParse({ path: "a", ttl_seconds: 60 }).success).toBe(
      true,
    );
    expect(FilesDownloadUrlResultSchema.safeParse({ get_url: "u", expires_at: "t" }).success).toBe(
      false,
    );
    expect(
      FilesDownloadUrlResultSchema.safeParse({ get_url: "u", url: "u", expires_at: "t" }).success,
    ).toBe(true);
  });

  it("leaves out-of-range list limits to the service (-32027, not -32028)", () => {
    expect(FilesListParamsSchema.safeParse({ prefix: "a/", limit: 0 }).success).toBe(true);
    expect(
      FilesListResultSchema.safeParse({
        items: [{ path: "a", size_bytes: 1, content_type: "text/plain", updated_at: "t" }],
        next_cursor: null,
      }).success,
    ).toBe(true);
  });
});
