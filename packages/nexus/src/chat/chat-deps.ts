// What the chat routes get in AppDeps: the turn service and the server's bounded SSE streams.
import { SseStreams, type SseLimits } from "@anna-ai/app-core/http";
import { runtimeLogger } from "../runtime/nexus-runtime.js";
import { ChatService, type ChatServiceOptions } from "./chat-service.js";

/** Open turn-event streams per user (a few tabs and a script) and in total. */
export const CHAT_STREAMS_PER_USER_MAX = 8;
export const CHAT_STREAMS_MAX = 1024;

export interface ChatDeps {
  service: ChatService;
  streams: SseStreams;
  /** Ends every stream and stops every running turn (they end `failed`: the server stopped). */
  close(): Promise<void>;
}

export function createChat(
  options: ChatServiceOptions & { streamLimits?: Partial<SseLimits> },
): ChatDeps {
  const service = new ChatService(options);
  const streams = new SseStreams(runtimeLogger(options.logger), {
    perRouteMax: CHAT_STREAMS_PER_USER_MAX,
    totalMax: CHAT_STREAMS_MAX,
    ...options.streamLimits,
  });
  return {
    service,
    streams,
    async close() {
      await service.close();
      streams.endAll();
    },
  };
}
