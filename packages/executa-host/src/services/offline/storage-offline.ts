// One call for a host's `storage/*` + `files/*` in offline mode, as `--storage off|memory|mock`
// selects them: `memory` starts a loopback blob server for the files' presigned URLs and shares
// one per-user quota between KV and files; `mock` answers from a mock-answer file; `off` answers
// every call with -32021. `close()` stops whatever was started.
import type { Logger } from "@anna-ai/jsonrpc";
import { createDisabledServices } from "../disabled-services.js";
import type { FilesService } from "../files-service.js";
import type { StorageService } from "../storage-service.js";
import { LoopbackBlobServer } from "./blob-server.js";
import { createMockFilesService } from "./files-mock.js";
import { createMemoryFilesService } from "./files-memory.js";
import type { MockFixture } from "./mock-fixture.js";
import type { StorageLimits } from "../../storage/limits.js";
import { createMemoryStorageService } from "./storage-memory.js";
import { createMockStorageService } from "./storage-mock.js";

export type OfflineStorageMode = "off" | "memory" | "mock";

export interface OfflineStorageOptions {
  mode: OfflineStorageMode;
  /** Required for `mock`. */
  fixture?: MockFixture;
  /** Epoch ms for timestamps, TTLs and URL expiry. Default `Date.now`. */
  clock?: () => number;
  limits?: Partial<StorageLimits>;
  logger?: Logger;
}

export interface OfflineStorage {
  storage: StorageService;
  files: FilesService;
  /** The server behind the files URLs (`memory` only); the upload service can share it. */
  blobServer?: LoopbackBlobServer;
  /** For banners: `memory (files on http://127.0.0.1:PORT)`, `mock (fixture.jsonl)`, `off`. */
  summary: string;
  close(): Promise<void>;
}

export async function createOfflineStorage(
  options: OfflineStorageOptions,
): Promise<OfflineStorage> {
  switch (options.mode) {
    case "off": {
      const disabled = createDisabledServices("off (--storage off)");
      return {
        storage: disabled.storage,
        files: disabled.files,
        summary: "off",
        close: async () => {},
      };
    }
    case "mock": {
      if (options.fixture === undefined) {
        throw new Error("storage mode 'mock' needs a mock-answer file (--mock-storage <file>)");
      }
      return {
        storage: createMockStorageService(options.fixture),
        files: createMockFilesService(options.fixture),
        summary: `mock (${options.fixture.file})`,
        close: async () => {},
      };
    }
    case "memory": {
      const blobServer = new LoopbackBlobServer({
        ...(options.clock === undefined ? {} : { clock: options.clock }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
      await blobServer.start();
      const shared = {
        ...(options.clock === undefined ? {} : { clock: options.clock }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      };
      const storage = createMemoryStorageService(shared);
      const files = createMemoryFilesService({
        ...shared,
        blobServer,
        storage,
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
      return {
        storage,
        files,
        blobServer,
        summary: `memory (files on ${blobServer.origin})`,
        close: () => blobServer.close(),
      };
    }
  }
}
