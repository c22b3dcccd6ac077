// The chat page's pure parts: folding a turn's frames (text joined, tool calls paired with their
// results, duplicates from an overlapping reconnect ignored, unknown frame types harmless, notices
// bounded), regrouping stored messages into turns, and `#`/`@` mention completion.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../src/api/types.js";
import { turnsOf } from "../src/chat/history.js";
import { applyMention, matchOptions, mentionAt } from "../src/chat/mention.js";
import {
  MAX_NOTICES,
  emptyProgress,
  foldFrame,
  type TurnProgress,
} from "../src/chat/turn-progress.js";

const fold = (frames: unknown[], from: TurnProgress = emptyProgress("t1")) =>
  frames.reduce<TurnProgress>((p, f, i) => foldFrame(p, from.lastSeq + i + 1, f), from);

describe("foldFrame", () => {
  it("joins text deltas and pairs tool calls with their results, in order", () => {
    const p = fold([
      { type: "turn.started", turnId: "t1", conversationId: "c1", activatedApps: ["notes"] },
      { type: "step.started", step: 1 },
      { type: "text.delta", text: "Let me " },
      { type: "text.delta", text: "look." },
      { type: "tool.call", callId: "k1", name: "lookup", input: { q: "x" }, source: {} },
      {
        type: "tool.result",
        callId: "k1",
        name: "lookup",
        output: { a: 1 },
        isError: false,
        durationMs: 12,
      },
      { type: "text.delta", text: "Found it." },
      { type: "turn.finished", status: "completed", usage: {} },
    ]);
    expect(p.activatedApps).toEqual(["notes"]);
    expect(p.parts).toEqual([
      { kind: "text", text: "Let me look." },
      {
        kind: "tool",
        callId: "k1",
        name: "lookup",
        input: { q: "x" },
        result: { output: { a: 1 }, isError: false, durationMs: 12 },
      },
      { kind: "text", text: "Found it." },
    ]);
    expect(p.status).toBe("completed");
    expect(p.lastSeq).toBe(8);
  });

  it("ignores frames already seen, so an overlapping reconnect repeats no text", () => {
    const p = fold([{ type: "text.delta", text: "once" }]);
    expect(foldFrame(p, 1, { type: "text.delta", text: "once" })).toBe(p);
  });

  it("keeps a failed turn's error and reads an unknown status as failed", () => {
    const failed = fold([
      {
        type: "turn.finished",
        status: "failed",
        error: { code: "model_error", message: "no model" },
      },
    ]);
    expect(failed.error).toEqual({ code: "model_error", message: "no model" });
    expect(fold([{ type: "turn.finished", status: "exploded" }]).status).toBe("failed");
  });

  it("shows notices from notice frames and from any frame that carries a list, bounded", () => {
    const p = fold([
      { type: "notice", message: "#weather is not installed" },
      { type: "apps.activated", apps: ["notes"], notices: ["@calc is disabled", 7] },
      { type: "something.new", payload: { deep: true } },
    ]);
    expect(p.notices).toEqual(["#weather is not installed", "@calc is disabled"]);
    expect(p.parts).toEqual([]);
    const many = fold(Array.from({ length: 30 }, (_, i) => ({ type: "notice", message: `n${i}` })));
    expect(many.notices).toHaveLength(MAX_NOTICES);
    expect(many.notices.at(-1)).toBe("More notices were sent than this page shows.");
  });
});

describe("turnsOf", () => {
  it("regroups messages by turn with tool results on their calls", () => {
    const messages: ChatMessage[] = [
      { seq: 1, turn_id: "a", role: "user", text: "count" },
      {
        seq: 2,
        turn_id: "a",
        role: "assistant",
        text: "",
        tool_calls: [{ id: "k", name: "wc", input: { t: "a b" } }],
      },
      {
        seq: 3,
        turn_id: "a",
        role: "tool",
        tool_call_id: "k",
        tool_name: "wc",
        output: 2,
        is_error: false,
      },
      { seq: 4, turn_id: "a", role: "assistant", text: "Two.", tool_calls: [] },
      {
        seq: 5,
        turn_id: "b",
        role: "user",
        text: "again",
        attachments: [{ id: "f1", name: "a.csv", media_type: "text/csv", size_bytes: 9 }],
      },
    ];
    expect(turnsOf(messages)).toEqual([
      {
        turnId: "a",
        userText: "count",
        attachments: [],
        parts: [
          {
            kind: "tool",
            callId: "k",
            name: "wc",
            input: { t: "a b" },
            result: { output: 2, isError: false, durationMs: null },
          },
          { kind: "text", text: "Two." },
        ],
      },
      {
        turnId: "b",
        userText: "again",
        attachments: [{ id: "f1", name: "a.csv", media_type: "text/csv", size_bytes: 9 }],
        parts: [],
      },
    ]);
  });
});

describe("mentions", () => {
  const apps = [
    { value: "quick-notes", label: "Quick Notes", detail: null },
    { value: "tide-tables", label: "Tide Tables", detail: null },
    { value: "notes-archive", label: "Archive", detail: null },
  ];

  it("finds the mention the caret is in, only at a word start", () => {
    expect(mentionAt("Ask #qu", 7)).toEqual({ sigil: "#", typed: "qu", start: 4, end: 7 });
    expect(mentionAt("@", 1)).toEqual({ sigil: "@", typed: "", start: 0, end: 1 });
    expect(mentionAt("(#ti", 4)).toMatchObject({ sigil: "#", typed: "ti" });
    expect(mentionAt("C# is", 2)).toBeNull();
    expect(mentionAt("mail a@b", 8)).toBeNull();
    expect(mentionAt("#quick notes", 12)).toBeNull();
  });

  it("lists options that start with the typed text before those that contain it", () => {
    expect(matchOptions(apps, "notes").map((o) => o.value)).toEqual([
      "notes-archive",
      "quick-notes",
    ]);
    expect(matchOptions(apps, "").map((o) => o.value)).toEqual([
      "quick-notes",
      "tide-tables",
      "notes-archive",
    ]);
    expect(matchOptions(apps, "zzz")).toEqual([]);
  });

  it("puts the chosen one in place of what was typed, with a space after it", () => {
    const text = "Ask #qu about it";
    const q = mentionAt(text, 7)!;
    expect(applyMention(text, q, "quick-notes")).toEqual({
      text: "Ask #quick-notes about it",
      caret: 17,
    });
    const mid = "Ask #quxx now";
    expect(applyMention(mid, mentionAt(mid, 7)!, "quick-notes").text).toBe("Ask #quick-notes now");
  });
});
