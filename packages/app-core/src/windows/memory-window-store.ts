import type { WindowListFilter, WindowRecord, WindowStore } from "./window-store.js";

/** The in-memory WindowStore of the dev harness and tests; not persisted across restarts. */
export function createMemoryWindowStore(): WindowStore {
  const windows = new Map<string, WindowRecord>();
  return {
    insert(record) {
      if (windows.has(record.windowUuid)) {
        return Promise.reject(new Error(`window ${record.windowUuid} already exists`));
      }
      windows.set(record.windowUuid, structuredClone(record));
      return Promise.resolve();
    },
    get(windowUuid) {
      const found = windows.get(windowUuid);
      return Promise.resolve(found === undefined ? undefined : structuredClone(found));
    },
    update(windowUuid, patch) {
      const found = windows.get(windowUuid);
      if (found === undefined) return Promise.reject(new Error(`no window ${windowUuid}`));
      const next: WindowRecord = { ...found, ...structuredClone(patch), windowUuid };
      windows.set(windowUuid, next);
      return Promise.resolve(structuredClone(next));
    },
    updateIfGeneration(windowUuid, generation, patch) {
      const found = windows.get(windowUuid);
      if (found === undefined) return Promise.reject(new Error(`no window ${windowUuid}`));
      if (found.stateGeneration !== generation) return Promise.resolve(undefined);
      const next: WindowRecord = { ...found, ...structuredClone(patch), windowUuid };
      windows.set(windowUuid, next);
      return Promise.resolve(structuredClone(next));
    },
    list(filter: WindowListFilter) {
      const out: WindowRecord[] = [];
      for (const record of windows.values()) {
        if (record.userId !== filter.userId) continue;
        if (filter.appId !== undefined && record.appId !== filter.appId) continue;
        if (
          filter.conversationSessionUuid !== undefined &&
          record.conversationSessionUuid !== filter.conversationSessionUuid
        ) {
          continue;
        }
        if (filter.view !== undefined && record.view !== filter.view) continue;
        if (filter.statuses !== undefined && !filter.statuses.includes(record.status)) continue;
        out.push(structuredClone(record));
      }
      out.sort((a, b) => a.createdAt - b.createdAt);
      return Promise.resolve(out);
    },
  };
}
