// A stored conversation's messages regrouped into turns, the shape the live stream folds into
// (turn-progress.ts), so a turn looks the same read back after a reload as it did streaming.
// Extensions spelled out: the unit tests type-check this file under nodenext.
import type { ChatAttachment, ChatMessage } from "../api/types.js";
import type { TurnPart } from "./turn-progress.js";

export interface StoredTurn {
  turnId: string;
  /** What the user sent; retry sends it again. */
  userText: string;
  /** The files sent with the message. */
  attachments: ChatAttachment[];
  parts: TurnPart[];
}

export function turnsOf(messages: readonly ChatMessage[]): StoredTurn[] {
  const turns: StoredTurn[] = [];
  const byId = new Map<string, StoredTurn>();
  for (const m of messages) {
    let turn = byId.get(m.turn_id);
    if (!turn) {
      turn = { turnId: m.turn_id, userText: "", attachments: [], parts: [] };
      byId.set(m.turn_id, turn);
      turns.push(turn);
    }
    switch (m.role) {
      case "user":
        turn.userText = m.text;
        turn.attachments = m.attachments ?? [];
        break;
      case "assistant":
        if (m.text !== "") turn.parts.push({ kind: "text", text: m.text });
        for (const c of m.tool_calls) {
          turn.parts.push({ kind: "tool", callId: c.id, name: c.name, input: c.input });
        }
        break;
      case "tool": {
        const result = { output: m.output, isError: m.is_error, durationMs: null };
        const call = turn.parts.find((p) => p.kind === "tool" && p.callId === m.tool_call_id);
        if (call?.kind === "tool") call.result = result;
        else
          turn.parts.push({
            kind: "tool",
            callId: m.tool_call_id,
            name: m.tool_name,
            input: null,
            result,
          });
        break;
      }
    }
  }
  return turns;
}
