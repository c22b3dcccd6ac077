// The storage contract suite (the semantics every APS store shares) against the memory store of
// `executa dev`: KV and files with one quota, files bytes on a real loopback blob server.
import { describeStorageContract } from "@anna-ai/executa-test/storage-contract";
import { LoopbackBlobServer } from "../../src/services/offline/blob-server.js";
import { createMemoryFilesService } from "../../src/services/offline/files-memory.js";
import { createMemoryStorageService } from "../../src/services/offline/storage-memory.js";

describeStorageContract("memory", async ({ clock, limits }) => {
  const storage = createMemoryStorageService({ clock, limits });
  const blobServer = new LoopbackBlobServer({ clock });
  await blobServer.start();
  const files = createMemoryFilesService({ blobServer, storage, clock, limits });
  return { storage, files, close: () => blobServer.close() };
});
