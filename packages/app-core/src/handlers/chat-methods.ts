// `chat.*` (R116–R118): append_artifact and write_message are recorded in the dispatcher's
// ChatStore and broadcast; read_history is the documented stub.
import {
  ARTIFACT_KIND_MAX_CHARS,
  ARTIFACT_SUMMARY_MAX_CHARS,
  CHAT_MESSAGE_MAX_CHARS,
} from "@anna-ai/app-schema/host-api";
import { HostApiError } from "../errors/host-api-error.js";
import { makeEvent } from "../events/make-event.js";
import type { MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import type { ChatArtifact, ChatMessage } from "../chat/chat-store.js";

export { ARTIFACT_KIND_MAX_CHARS, ARTIFACT_SUMMARY_MAX_CHARS, CHAT_MESSAGE_MAX_CHARS };

export type { ChatArtifact, ChatLog, ChatMessage } from "../chat/chat-store.js";

export function chatMethods(): MethodTable {
  return {
    "chat.append_artifact": contractMethod(
      "chat.append_artifact",
      async (args, { window, core }) => {
        const raw = args.artifact === undefined ? args : args.artifact;
        if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
          throw new HostApiError("invalid_arg", "artifact must be an object");
        }
        const a = raw as Record<string, unknown>;
        const now = core.clock();
        const ts = Math.floor(now / 1000);
        const artifact: ChatArtifact = {
          artifact_id: `app-${window.windowUuid.slice(0, 8)}-${ts}`,
          kind: String(a.kind ?? "app_event").slice(0, ARTIFACT_KIND_MAX_CHARS),
          window_uuid: window.windowUuid,
          user_id: window.userId,
          app_id: window.appId,
          ts,
        };
        if (typeof a.app_slug === "string") artifact.app_slug = a.app_slug;
        if (a.summary !== undefined && a.summary !== null) {
          artifact.summary = String(a.summary).slice(0, ARTIFACT_SUMMARY_MAX_CHARS);
        }
        if (a.payload_ref !== undefined) artifact.payload_ref = a.payload_ref;
        const data = a.data ?? a.payload;
        if (data !== undefined) artifact.data = data;
        await core.chat.appendArtifact(artifact);
        const { user_id: _user, app_id: _app, data: payload, ...rest } = artifact;
        core.emit(
          window.userId,
          makeEvent(
            "artifact_appended",
            window,
            { ...rest, ...(payload === undefined ? {} : { payload }) },
            now,
          ),
        );
        return { artifact_id: artifact.artifact_id };
      },
    ),
    "chat.write_message": contractMethod("chat.write_message", async (args, { window, core }) => {
      const now = core.clock();
      const content =
        typeof args.content === "string" ? args.content : JSON.stringify(args.content ?? "");
      const message: ChatMessage = {
        message_id: `msg-${now}`,
        role: args.role === undefined ? "assistant" : String(args.role),
        content: content.slice(0, CHAT_MESSAGE_MAX_CHARS),
        window_uuid: window.windowUuid,
        user_id: window.userId,
        app_id: window.appId,
        ts: Math.floor(now / 1000),
      };
      await core.chat.appendMessage(message);
      core.emit(
        window.userId,
        makeEvent(
          "chat_message_from_app",
          window,
          { window_uuid: window.windowUuid, role: message.role, content: message.content },
          now,
        ),
      );
      return { message_id: message.message_id };
    }),
    "chat.read_history": contractMethod("chat.read_history", async () => {
      throw new HostApiError("not_implemented", "chat.read_history is not implemented");
    }),
  };
}
