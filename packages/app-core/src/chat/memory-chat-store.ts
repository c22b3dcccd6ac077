import type { ChatFilter, ChatLog, ChatStore } from "./chat-store.js";

/** The memory ChatStore; `log` is its live content, which `dispatcher.chat` shows the harness. */
export interface MemoryChatStore extends ChatStore {
  readonly log: ChatLog;
}

function matches(
  record: { user_id: string; app_id: string; window_uuid: string },
  filter: ChatFilter,
): boolean {
  return (
    record.user_id === filter.userId &&
    (filter.appId === undefined || record.app_id === filter.appId) &&
    (filter.windowUuid === undefined || record.window_uuid === filter.windowUuid)
  );
}

/** Not persisted across restarts, as the local harness (L6443). */
export function createMemoryChatStore(): MemoryChatStore {
  const log: ChatLog = { artifacts: [], messages: [] };
  return {
    log,
    appendArtifact(artifact) {
      log.artifacts.push(structuredClone(artifact));
      return Promise.resolve();
    },
    appendMessage(message) {
      log.messages.push(structuredClone(message));
      return Promise.resolve();
    },
    listArtifacts(filter) {
      return Promise.resolve(
        log.artifacts.filter((a) => matches(a, filter)).map((a) => structuredClone(a)),
      );
    },
    listMessages(filter) {
      return Promise.resolve(
        log.messages.filter((m) => matches(m, filter)).map((m) => structuredClone(m)),
      );
    },
  };
}
