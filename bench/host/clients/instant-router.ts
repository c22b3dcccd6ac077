// A ReverseRpcRouter whose only service, storage, answers at once with a miss: the reverse figure
// then measures the protocol path (plugin → host peer → router gates → service → plugin), not a
// store. Storage is granted with the spec defaults; no token issuer (none is needed offline).
import {
  ReverseRpcRouter,
  createStaticGrantPolicy,
  type RouterSessionFactory,
  type StorageService,
} from "@anna-ai/executa-host";

const STORAGE_MISS = { value: null, exists: false, etag: null } as const;

function unsupported(): Promise<never> {
  return Promise.reject(new Error("not part of the benchmark"));
}

const INSTANT_STORAGE: StorageService = {
  get: () => Promise.resolve({ ...STORAGE_MISS }),
  set: unsupported,
  delete: unsupported,
  list: unsupported,
};

export function createInstantRouter(): RouterSessionFactory {
  return new ReverseRpcRouter({
    services: { storage: INSTANT_STORAGE },
    grants: createStaticGrantPolicy({ storage: {} }),
  });
}
