// createOfflineHostServices: the one offline assembly behind `executa dev` and `anna-app dev`,
// driven through its own router the way a plugin reaches it.
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it, onTestFinished } from "vitest";
import { createAllowAllGrantPolicy } from "../../src/services/grants.js";
import { createOfflineHostServices } from "../../src/services/offline-services.js";
import type { OfflineHostServicesOptions } from "../../src/services/offline-services.js";
import { MockFixture } from "../../src/services/offline/mock-fixture.js";
import { NEVER, ctx, invokeStart, sessionInfo } from "../router/helpers.js";
import { expectRpcError } from "./offline/helpers.js";

async function assembled(options: Omit<OfflineHostServicesOptions, "grants"> = {}) {
  const offline = createOfflineHostServices({ grants: createAllowAllGrantPolicy(), ...options });
  onTestFinished(() => offline.close());
  const session = offline.router.attach(sessionInfo());
  await session.beginInvoke(invokeStart("inv-1"));
  const call = (method: string, params: Record<string, unknown>) =>
    session.handleRequest(method, { ...params, ...ctx("inv-1") }, NEVER);
  return { offline, call };
}

describe("createOfflineHostServices", () => {
  it("serves memory storage and files sharing one store, and starts the blob server only for files", async () => {
    const { offline, call } = await assembled();
    await call("storage/set", { key: "k", value: { n: 1 } });
    expect(await call("storage/get", { key: "k", scope: "tool" })).toMatchObject({
      value: { n: 1 },
      exists: true,
    });
    expect(offline.blobServer.started).toBe(false);
    const begun = (await call("files/upload_begin", {
      path: "a.txt",
      size_bytes: 3,
      content_type: "text/plain",
    })) as { put_url: string };
    expect(offline.blobServer.started).toBe(true);
    const put = await fetch(begun.put_url, {
      method: "PUT",
      headers: { "Content-Type": "text/plain" },
      body: "abc",
    });
    expect(put.status).toBe(200);
    expect(await call("files/upload_complete", { path: "a.txt" })).toMatchObject({
      size_bytes: 3,
    });
    const url = (await call("files/download_url", { path: "a.txt" })) as { get_url: string };
    expect(await (await fetch(url.get_url)).text()).toBe("abc");
  });

  it("shares the storage limits between KV and files: the quota counts both", async () => {
    const { call } = await assembled({ storage: { mode: "memory", limits: { quotaBytes: 10 } } });
    await call("storage/set", { key: "k", value: "12345678" }); // 10 bytes
    await expectRpcError(
      call("files/upload_begin", { path: "b.txt", size_bytes: 1, content_type: "text/plain" }),
      STORAGE_ERRORS.QUOTA_EXCEEDED.code,
      STORAGE_ERRORS.QUOTA_EXCEEDED.errorCode,
    );
  });

  it("answers storage off with -32021 naming the reason", async () => {
    const { call } = await assembled({ storage: { mode: "off", reason: "off (--storage off)" } });
    await expectRpcError(
      call("storage/get", { key: "k" }),
      STORAGE_ERRORS.NOT_GRANTED.code,
      STORAGE_ERRORS.NOT_GRANTED.errorCode,
      /storage\/get is off \(--storage off\)/,
    );
  });

  it("answers storage mock from the fixture's lines", async () => {
    const fixture = MockFixture.parse(
      '{"ns":"storage","method":"get","match":{"key":"k"},"result":{"value":42,"exists":true,"etag":"e"}}\n',
      "inline.jsonl",
    );
    const { call } = await assembled({ storage: { mode: "mock", fixture } });
    expect(await call("storage/get", { key: "k" })).toEqual({ value: 42, exists: true, etag: "e" });
  });

  it("serves mock images as data: URLs when asked, without starting the blob server", async () => {
    const { offline, call } = await assembled({ image: { mode: "mock", dataUrls: true } });
    const result = (await call("image/generate", { prompt: "a cat", n: 1 })) as {
      images: { url: string }[];
    };
    expect(result.images[0]?.url.startsWith("data:image/png;base64,")).toBe(true);
    expect(offline.blobServer.started).toBe(false);
  });

  it("leaves web and upload out when set to false, and keeps them by default", async () => {
    const without = createOfflineHostServices({
      grants: createAllowAllGrantPolicy(),
      web: false,
      upload: false,
    });
    onTestFinished(() => without.close());
    expect(Object.keys(without.services).sort()).toEqual(
      ["agent", "credentials", "embeddings", "files", "image", "sampling", "storage"].sort(),
    );
    const full = createOfflineHostServices({ grants: createAllowAllGrantPolicy() });
    onTestFinished(() => full.close());
    expect(full.services.web).toBeDefined();
    expect(full.services.upload).toBeDefined();
  });
});
