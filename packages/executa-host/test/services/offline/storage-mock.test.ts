import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import { createDisabledServices } from "../../../src/services/disabled-services.js";
import { createMockFilesService } from "../../../src/services/offline/files-mock.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import {
  MOCK_NO_MATCH_REASON,
  createMockStorageService,
} from "../../../src/services/offline/storage-mock.js";
import { expectRpcError, storageCtx } from "./helpers.js";

const FIXTURE = [
  "# storage answers for the notes tool",
  '{"ns":"storage","method":"get","match":{"key":"notes/a"},"result":{"value":["hi"],"exists":true,"etag":"e1"}}',
  '{"ns":"storage","method":"get","result":{"value":null,"exists":false,"etag":null}}',
  '{"ns":"storage","method":"set","match":{"if_match":"stale"},"error":{"code":-32023,"message":"precondition_failed"}}',
  '{"ns":"storage","method":"set","result":{"etag":"e2","generation":2,"size_bytes":6}}',
  '{"ns":"storage","method":"delete","error":{"code":-32022,"message":"gone","data":{"errorCode":"CUSTOM","key":"x"}}}',
  '{"ns":"storage","method":"list","events":[{"x":1}]}',
  '{"ns":"files","method":"upload_begin","match":{"path":"a.txt"},"result":{"upload_id":"u1","put_url":"http://example.invalid/put","headers":{"Content-Type":"text/plain"},"expires_at":"2026-01-01T00:05:00.000Z"}}',
  '{"ns":"files","method":"download_url","result":{"get_url":"http://example.invalid/get","url":"http://example.invalid/get","expires_at":"2026-01-01T00:05:00.000Z"}}',
].join("\n");

describe("createMockStorageService", () => {
  const fixture = MockFixture.parse(FIXTURE, "storage.jsonl");
  const storage = createMockStorageService(fixture);
  const ctx = storageCtx();

  it("answers with the first line whose match holds", async () => {
    expect(await storage.get({ key: "notes/a", scope: "tool" }, ctx)).toEqual({
      value: ["hi"],
      exists: true,
      etag: "e1",
    });
    expect(await storage.get({ key: "notes/b", scope: "tool" }, ctx)).toEqual({
      value: null,
      exists: false,
      etag: null,
    });
    expect(await storage.set({ key: "k", value: 1, scope: "tool" }, ctx)).toEqual({
      etag: "e2",
      generation: 2,
      size_bytes: 6,
    });
  });

  it("returns a fresh copy on every call", async () => {
    const first = await storage.get({ key: "notes/a", scope: "tool" }, ctx);
    (first.value as string[]).push("mutated");
    expect((await storage.get({ key: "notes/a", scope: "tool" }, ctx)).value).toEqual(["hi"]);
  });

  it("turns an error line into the wire error, filling data.errorCode from the catalog", async () => {
    await expectRpcError(
      storage.set({ key: "k", value: 1, scope: "tool", if_match: "stale" }, ctx),
      -32023,
      STORAGE_ERRORS.PRECONDITION_FAILED.errorCode,
      "precondition_failed",
    );
    const error = await expectRpcError(
      storage.delete({ key: "x", scope: "tool" }, ctx),
      -32022,
      "CUSTOM",
      "gone",
    );
    expect(error.data).toMatchObject({ key: "x" });
  });

  it("fails a call no line answers with -32029 naming the file and a line to add", async () => {
    const bare = createMockStorageService(MockFixture.parse("", "empty.jsonl"));
    const error = await expectRpcError(
      bare.get({ key: "notes/z", scope: "tool" }, ctx),
      -32029,
      STORAGE_ERRORS.UPSTREAM_ERROR.errorCode,
      /no line in empty\.jsonl answers storage\/get; add one such as \{"ns":"storage","method":"get","match":\{"key":"notes\/z"\}/,
    );
    expect(error.data).toMatchObject({ reason: MOCK_NO_MATCH_REASON, method: "storage/get" });
  });

  it("refuses an events-only line for storage with a pointer to the line", async () => {
    await expectRpcError(
      storage.list({ scope: "tool" }, ctx),
      -32029,
      STORAGE_ERRORS.UPSTREAM_ERROR.errorCode,
      /storage\.jsonl:7/,
    );
  });
});

describe("createMockFilesService", () => {
  const files = createMockFilesService(MockFixture.parse(FIXTURE, "storage.jsonl"));
  const ctx = storageCtx();

  it("answers files/* lines by ns 'files'", async () => {
    await expect(
      files.uploadBegin({ path: "a.txt", scope: "tool", content_type: "text/plain" }, ctx),
    ).resolves.toMatchObject({ upload_id: "u1" });
    await expect(files.downloadUrl({ path: "any", scope: "tool" }, ctx)).resolves.toMatchObject({
      url: "http://example.invalid/get",
    });
    await expectRpcError(
      files.uploadBegin({ path: "b.txt", scope: "tool" }, ctx),
      -32029,
      STORAGE_ERRORS.UPSTREAM_ERROR.errorCode,
      /files\/upload_begin.*"match":\{"path":"b\.txt"\}/,
    );
  });
});

describe("--storage off (createDisabledServices)", () => {
  it("answers every storage/* and files/* call with -32021 storage_not_granted", async () => {
    const services = createDisabledServices("off (--storage off)");
    const ctx = storageCtx();
    const calls: Promise<unknown>[] = [
      services.storage.get({ key: "k", scope: "tool" }, ctx),
      services.storage.set({ key: "k", value: 1, scope: "tool" }, ctx),
      services.storage.delete({ key: "k", scope: "tool" }, ctx),
      services.storage.list({ scope: "tool" }, ctx),
      services.files.uploadBegin({ path: "a", scope: "tool" }, ctx),
      services.files.uploadComplete({ path: "a", scope: "tool" }, ctx),
      services.files.downloadUrl({ path: "a", scope: "tool" }, ctx),
      services.files.list({ scope: "tool" }, ctx),
      services.files.delete({ path: "a", scope: "tool" }, ctx),
    ];
    for (const call of calls) {
      await expectRpcError(
        call,
        -32021,
        STORAGE_ERRORS.NOT_GRANTED.errorCode,
        /off \(--storage off\)/,
      );
    }
    expect(STORAGE_ERRORS.NOT_GRANTED.alias).toBe("storage_not_granted");
  });
});
