// A host's `storage/*` + `files/*` in offline mode, as `--storage off|memory|mock` selects them:
// `memory` is one KV store and one files store sharing a per-user quota, the files' presigned
// URLs on a loopback blob server; `mock` answers from a mock-answer file; `off` answers every
// call with -32021. offlineStorageFamilies is the one switch over these modes (the whole offline
// assembly uses it); createOfflineStorage is the storage-only form that starts the blob server
// at once, for callers that need its origin before the first call.
import type { Logger } from "@anna-ai/jsonrpc";
import type { StorageLimits } from "../../storage/limits.js";
import { createDisabledServices } from "../disabled-services.js";
import type { FilesService } from "../files-service.js";
import { SERVICE_WIRE_METHODS } from "../service-wire-methods.js";
import type { StorageService } from "../storage-service.js";
import { LoopbackBlobServer } from "./blob-server.js";
import { createMockFilesService } from "./files-mock.js";
import { createMemoryFilesService } from "./files-memory.js";
import { lazyBlobServer, lazyService } from "./lazy-blob-server.js";
import type { LazyBlobServer } from "./lazy-blob-server.js";
import type { MockFixture } from "./mock-fixture.js";
import { createMemoryStorageService } from "./storage-memory.js";
import { createMockStorageService } from "./storage-mock.js";

/** `storage/*` + `files/*`: one memory store with a shared quota, a fixture, or refused. */
export type OfflineStorageChoice =
  | { mode: "memory"; limits?: Partial<StorageLimits> }
  | { mode: "mock"; fixture: MockFixture }
  /** `reason` ends the -32021 message, e.g. "off (--storage off); use --storage memory". */
  | { mode: "off"; reason: string }
  /**
   * Services the caller built, e.g. a client of a server's storage REST (`executa dev --storage
   * real`): the router's gates, scope resolution and budgets still apply before them.
   */
  | { mode: "provided"; storage: StorageService; files: FilesService };

/**
 * The storage and files services of `choice`. In memory mode the files service starts `blob`
 * on its first call and shares the KV store's quota.
 */
export function offlineStorageFamilies(
  choice: OfflineStorageChoice,
  blob: LazyBlobServer,
  shared: { clock?: () => number; logger?: Logger } = {},
): { storage: StorageService; files: FilesService } {
  switch (choice.mode) {
    case "memory": {
      const clock = shared.clock === undefined ? {} : { clock: shared.clock };
      const limits = choice.limits === undefined ? {} : { limits: choice.limits };
      const storage = createMemoryStorageService({ ...clock, ...limits });
      const methods = Object.keys(SERVICE_WIRE_METHODS.files) as (keyof FilesService)[];
      const files = lazyService<FilesService>(blob, methods, (server) =>
        createMemoryFilesService({
          blobServer: server,
          storage,
          ...clock,
          ...limits,
          ...(shared.logger === undefined ? {} : { logger: shared.logger }),
        }),
      );
      return { storage, files };
    }
    case "mock":
      return {
        storage: createMockStorageService(choice.fixture),
        files: createMockFilesService(choice.fixture),
      };
    case "off": {
      const disabled = createDisabledServices(choice.reason);
      return { storage: disabled.storage, files: disabled.files };
    }
    case "provided":
      return { storage: choice.storage, files: choice.files };
  }
}

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
  const shared = {
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };
  const blob = lazyBlobServer(() => new LoopbackBlobServer(shared));
  switch (options.mode) {
    case "off":
      return {
        ...offlineStorageFamilies({ mode: "off", reason: "off (--storage off)" }, blob),
        summary: "off",
        close: async () => {},
      };
    case "mock": {
      if (options.fixture === undefined) {
        throw new Error("storage mode 'mock' needs a mock-answer file (--mock-storage <file>)");
      }
      return {
        ...offlineStorageFamilies({ mode: "mock", fixture: options.fixture }, blob),
        summary: `mock (${options.fixture.file})`,
        close: async () => {},
      };
    }
    case "memory": {
      const families = offlineStorageFamilies(
        { mode: "memory", ...(options.limits === undefined ? {} : { limits: options.limits }) },
        blob,
        shared,
      );
      const blobServer = await blob.get();
      return {
        ...families,
        blobServer,
        summary: `memory (files on ${blobServer.origin})`,
        close: () => blob.close(),
      };
    }
  }
}
