// The memory services behind the real router, without processes: what a plugin's wire params
// turn into (scope defaults, correlation fields, the router's own checks) reaches the services
// intact, and the services' catalogued errors come back unchanged.
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it, onTestFinished } from "vitest";
import { ReverseRpcRouter } from "../../../src/router/reverse-rpc-router.js";
import { createStaticGrantPolicy } from "../../../src/services/grants.js";
import type { GrantByFamily } from "../../../src/services/grants.js";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { createMemoryFilesService } from "../../../src/services/offline/files-memory.js";
import { createMemoryStorageService } from "../../../src/services/offline/storage-memory.js";
import { NEVER, ctx, invokeStart, sessionInfo } from "../../router/helpers.js";
import { expectRpcError } from "./helpers.js";

const E = STORAGE_ERRORS;

async function routed(grants: Partial<GrantByFamily> = { storage: {}, files: {} }) {
  const blobServer = new LoopbackBlobServer();
  onTestFinished(() => blobServer.close());
  await blobServer.start();
  const storage = createMemoryStorageService();
  const files = createMemoryFilesService({ blobServer, storage });
  const router = new ReverseRpcRouter({
    services: { storage, files },
    grants: createStaticGrantPolicy(grants),
  });
  const session = router.attach(sessionInfo());
  await session.beginInvoke(invokeStart("inv-1"));
  const call = (method: string, params: Record<string, unknown>) =>
    session.handleRequest(method, { ...params, ...ctx("inv-1") }, NEVER);
  return { call, storage, files };
}

describe("memory storage behind ReverseRpcRouter", () => {
  it("stores under the tool scope when the plugin omits scope, and reads it back", async () => {
    const { call } = await routed();
    const written = (await call("storage/set", { key: "k", value: { n: 1 } })) as {
      etag: string;
    };
    expect(await call("storage/get", { key: "k", scope: "tool" })).toMatchObject({
      value: { n: 1 },
      exists: true,
      etag: written.etag,
    });
    expect(await call("storage/get", { key: "k", scope: "user" })).toMatchObject({
      exists: false,
    });
  });

  it("passes if_match conflicts and value caps through with their codes", async () => {
    const { call } = await routed();
    await call("storage/set", { key: "k", value: 1, scope: "tool" });
    await expectRpcError(
      call("storage/set", { key: "k", value: 2, scope: "tool", if_match: "stale" }),
      -32023,
      E.PRECONDITION_FAILED.errorCode,
    );
    await expectRpcError(
      call("storage/set", { key: "big", value: "x".repeat(300_000), scope: "tool" }),
      -32025,
      E.VALUE_TOO_LARGE.errorCode,
    );
  });

  it("refuses scope app for a plugin invoke with -32021 before the service runs", async () => {
    const { call } = await routed();
    await expectRpcError(
      call("storage/get", { key: "k", scope: "app" }),
      -32021,
      E.NOT_GRANTED.errorCode,
      /allowed=\['tool', 'user'\]/,
    );
  });

  it("runs files begin → PUT → complete → download_url through the router", async () => {
    const { call } = await routed();
    const begun = (await call("files/upload_begin", {
      path: "a/b.txt",
      size_bytes: 3,
      content_type: "text/plain",
    })) as { put_url: string; headers: Record<string, string> };
    const res = await fetch(begun.put_url, { method: "PUT", headers: begun.headers, body: "abc" });
    expect(res.status).toBe(200);
    await expect(
      call("files/upload_complete", { path: "a/b.txt", etag: res.headers.get("etag") }),
    ).resolves.toMatchObject({ path: "a/b.txt", size_bytes: 3 });
    const link = (await call("files/download_url", { path: "a/b.txt" })) as { url: string };
    expect(await (await fetch(link.url)).text()).toBe("abc");
    await expectRpcError(call("files/list", { limit: 0 }), -32027, E.INVALID_PATH.errorCode);
  });

  it("without a storage grant, nothing reaches the services (-32021)", async () => {
    const { call, storage } = await routed({});
    await expectRpcError(
      call("storage/set", { key: "k", value: 1 }),
      -32021,
      E.NOT_GRANTED.errorCode,
    );
    expect(storage.quota.usage("user-1").usedBytes).toBe(0);
  });
});
