// End to end: real example plugins under ExecutaHost + ReverseRpcRouter with the memory storage
// and files services. The plugins' own code does storage/get → set(if_match) and
// files/upload_begin → HTTP PUT → upload_complete → download_url, and the test fetches the URL.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { needs } from "../../../../../tests/support/toolchains.js";
import { ExecutaHost } from "../../../src/host/executa-host.js";
import { ReverseRpcRouter } from "../../../src/router/reverse-rpc-router.js";
import { createAllowAllGrantPolicy } from "../../../src/services/grants.js";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { createMemoryFilesService } from "../../../src/services/offline/files-memory.js";
import { createMemoryStorageService } from "../../../src/services/offline/storage-memory.js";
import { exampleSpecs, storageCtx } from "./helpers.js";

const python = needs("python3");
const USER = "user-1";

const env: NodeJS.ProcessEnv = {
  ...process.env,
  PYTHONDONTWRITEBYTECODE: "1",
  // The plugin PUTs to 127.0.0.1: never through a proxy from the environment.
  NO_PROXY: "127.0.0.1,localhost",
  no_proxy: "127.0.0.1,localhost",
};

describe("memory storage and files under ExecutaHost", () => {
  const blobServer = new LoopbackBlobServer();
  beforeAll(() => blobServer.start());
  afterAll(() => blobServer.close());
  const spec = exampleSpecs(["py-studio", "ts-kitchen-sink"], env);

  function newHost() {
    const storage = createMemoryStorageService();
    const files = createMemoryFilesService({ blobServer, storage });
    const router = new ReverseRpcRouter({
      services: { storage, files },
      grants: createAllowAllGrantPolicy(),
    });
    const host = new ExecutaHost({ env, router });
    onTestFinished(() => host.close());
    return { host, storage, files };
  }

  it.skipIf(python.skip)(
    `py-studio keeps notes with etags and saves a file through a real PUT${python.reason}`,
    async () => {
      const { host, storage, files } = newHost();
      const plugin = host.register(spec("py-studio"), { userId: USER });
      const ctx = storageCtx({ userId: USER, toolId: plugin.toolId });

      const first = await host.invoke(USER, plugin.toolId, "note_add", {
        notebook: "groceries",
        text: "milk",
      });
      const second = await host.invoke(USER, plugin.toolId, "note_add", {
        notebook: "groceries",
        text: "eggs",
      });
      expect(first).toMatchObject({ ok: true, data: { count: 1, attempts: 1 } });
      expect(second).toMatchObject({ ok: true, data: { count: 2, attempts: 1 } });
      const stored = await storage.list({ scope: "tool" }, ctx);
      expect(stored.items).toHaveLength(1);
      const key = stored.items[0]?.key ?? "";
      expect(await storage.get({ key, scope: "tool" }, ctx)).toMatchObject({
        value: [{ text: "milk" }, { text: "eggs" }],
        generation: 2,
      });
      expect(await host.invoke(USER, plugin.toolId, "note_list", {})).toMatchObject({
        ok: true,
        data: { notebooks: ["groceries"], next_cursor: null },
      });

      const text = "héllo from py-studio";
      const saved = await host.invoke(USER, plugin.toolId, "save_file", {
        path: "reports/hello.txt",
        text,
      });
      expect(saved).toMatchObject({
        ok: true,
        data: { path: "reports/hello.txt", scope: "user", size_bytes: Buffer.byteLength(text) },
      });
      const url = (saved as { data: { download_url: string } }).data.download_url;
      const got = await fetch(url);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe("text/plain");
      expect(await got.text()).toBe(text);
      expect((await files.list({ scope: "user" }, ctx)).items.map((i) => i.path)).toEqual([
        "reports/hello.txt",
      ]);

      expect(
        await host.invoke(USER, plugin.toolId, "note_delete", { notebook: "groceries" }),
      ).toMatchObject({ ok: true, data: { deleted: true } });
      expect(
        await host.invoke(USER, plugin.toolId, "note_delete", { notebook: "groceries" }),
      ).toMatchObject({ ok: false, kind: "rpc_error", error: { code: -32022 } });
    },
  );

  it("ts-kitchen-sink's SDK files.put and storage round-trip work against the loopback server", async () => {
    const { host } = newHost();
    const plugin = host.register(spec("ts-kitchen-sink"), { userId: USER });
    const remembered = await host.invoke(USER, plugin.toolId, "remember", {
      key: "colour",
      value: "teal",
    });
    expect(remembered).toMatchObject({
      ok: true,
      data: { read: "teal", keys: ["kv/colour"], deleted: true },
    });
    const saved = await host.invoke(USER, plugin.toolId, "save_file", {
      path: "notes/today.txt",
      content: "kitchen sink",
    });
    expect(saved).toMatchObject({
      ok: true,
      data: { stored: { path: "notes/today.txt", size_bytes: 12 }, files: ["notes/today.txt"] },
    });
    const url = (saved as { data: { url: string } }).data.url;
    expect(await (await fetch(url)).text()).toBe("kitchen sink");
  });
});
