// `chat.*` (R116–R118): artifacts and messages the app adds to the conversation; read_history is
// the documented stub. The handler coerces the loosely typed fields (String(kind), …), so the
// argument schema only types them.
import { z } from "zod";
import { checkedByHandler, hostMethod } from "./method-contract.js";

export const ARTIFACT_KIND_MAX_CHARS = 40;
export const ARTIFACT_SUMMARY_MAX_CHARS = 1000;
export const CHAT_MESSAGE_MAX_CHARS = 4000;

/** One artifact card (R116); `kind` defaults to `app_event`, long strings are cut. */
export interface ChatArtifactInput {
  kind?: string;
  app_slug?: string;
  summary?: string;
  payload_ref?: unknown;
  data?: unknown;
  /** The guide's name for `data` (U61). */
  payload?: unknown;
}

export const CHAT_CONTRACT = {
  /** R116's nested `{artifact: {...}}`; the guide's flat form (U61) is accepted too (Z46). */
  "chat.append_artifact": hostMethod(
    () =>
      z.looseObject({
        artifact: checkedByHandler<ChatArtifactInput>().optional(),
        kind: checkedByHandler<string>().optional(),
        app_slug: z.string().optional(),
        summary: checkedByHandler<string>().optional(),
        payload_ref: z.unknown().optional(),
        data: z.unknown().optional(),
        payload: z.unknown().optional(),
      }),
    () => z.looseObject({ artifact_id: z.string() }),
  ),
  "chat.write_message": hostMethod(
    () =>
      z.looseObject({
        role: checkedByHandler<string>().optional(),
        /** Non-strings are sent as their JSON; cut at CHAT_MESSAGE_MAX_CHARS. */
        content: checkedByHandler<string>(),
      }),
    () => z.looseObject({ message_id: z.string() }),
  ),
  /** Always `not_implemented` today (R118). */
  "chat.read_history": hostMethod(
    () =>
      z.looseObject({
        limit: checkedByHandler<number>().optional(),
        before: checkedByHandler<string>().optional(),
      }),
    () => z.never(),
    ["not_implemented"],
  ),
} as const;
