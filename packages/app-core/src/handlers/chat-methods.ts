// `chat.*` (R116–R118): append_artifact and write_message are recorded in the dispatcher's
// ChatStore and broadcast; read_history is the documented stub.
import { z } from "zod";
import { HostApiError } from "../errors/host-api-error.js";
import { makeEvent } from "../events/make-event.js";
import { method, type MethodTable } from "../dispatcher/types.js";
import type { ChatArtifact, ChatMessage } from "../chat/chat-store.js";

export const ARTIFACT_KIND_MAX_CHARS = 40;
export const ARTIFACT_SUMMARY_MAX_CHARS = 1000;
export const CHAT_MESSAGE_MAX_CHARS = 4000;

export type { ChatArtifact, ChatLog, ChatMessage } from "../chat/chat-store.js";

const ArtifactFields = {
  kind: z.unknown().optional(),
  app_slug: z.string().optional(),
  summary: z.unknown().optional(),
  payload_ref: z.unknown().optional(),
  data: z.unknown().optional(),
  payload: z.unknown().optional(),
};

export function chatMethods(): MethodTable {
  return {
    "chat.append_artifact": method(
      // R116's nested `{artifact: {...}}`; the guide's flat form (U61) is accepted too (Z46).
      z.looseObject({ artifact: z.unknown().optional(), ...ArtifactFields }),
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
    "chat.write_message": method(
      z.looseObject({ role: z.unknown().optional(), content: z.unknown().optional() }),
      async (args, { window, core }) => {
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
      },
    ),
    "chat.read_history": method(z.looseObject({}), async () => {
      throw new HostApiError("not_implemented", "chat.read_history is not implemented");
    }),
  };
}
