import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it, onTestFinished } from "vitest";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import { createOfflineStorage } from "../../../src/services/offline/storage-offline.js";
import { expectRpcError, storageCtx } from "./helpers.js";

describe("createOfflineStorage", () => {
  it("memory: KV and files share one quota, and files move bytes over the loopback server", async () => {
    const offline = await createOfflineStorage({ mode: "memory", limits: { quotaBytes: 10 } });
    onTestFinished(() => offline.close());
    const ctx = storageCtx();
    expect(offline.summary).toMatch(/^memory \(files on http:\/\/127\.0\.0\.1:\d+\)$/);
    await offline.storage.set({ key: "k", value: "123456", scope: "tool" }, ctx); // 8 bytes
    const begun = await offline.files.uploadBegin(
      { path: "f.txt", scope: "tool", size_bytes: 2, content_type: "text/plain" },
      ctx,
    );
    expect(
      (await fetch(begun.put_url, { method: "PUT", headers: begun.headers, body: "ab" })).status,
    ).toBe(200);
    await offline.files.uploadComplete({ path: "f.txt", scope: "tool" }, ctx);
    await expectRpcError(
      offline.storage.set({ key: "k2", value: 1, scope: "tool" }, ctx),
      -32024,
      STORAGE_ERRORS.QUOTA_EXCEEDED.errorCode,
    );
  });

  it("memory: close() stops the blob server", async () => {
    const offline = await createOfflineStorage({ mode: "memory" });
    const origin = offline.blobServer?.origin ?? "";
    await offline.close();
    await expect(fetch(`${origin}/blob/x`)).rejects.toThrow();
  });

  it("mock: needs a fixture and answers from it", async () => {
    await expect(createOfflineStorage({ mode: "mock" })).rejects.toThrow(/--mock-storage/);
    const fixture = MockFixture.parse(
      '{"ns":"storage","method":"get","result":{"value":1,"exists":true,"etag":"e"}}',
      "s.jsonl",
    );
    const offline = await createOfflineStorage({ mode: "mock", fixture });
    expect(offline.summary).toBe("mock (s.jsonl)");
    expect(await offline.storage.get({ key: "k", scope: "tool" }, storageCtx())).toMatchObject({
      value: 1,
    });
  });

  it("off: every call is -32021", async () => {
    const offline = await createOfflineStorage({ mode: "off" });
    await expectRpcError(
      offline.files.list({ scope: "tool" }, storageCtx()),
      -32021,
      STORAGE_ERRORS.NOT_GRANTED.errorCode,
    );
  });
});
