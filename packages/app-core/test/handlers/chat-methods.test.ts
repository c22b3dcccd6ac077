import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { fakeClock, openDispatcher } from "../helpers.js";

describe("chat.*", () => {
  it("appends artifacts (nested or flat), records them and emits artifact_appended", async () => {
    const clock = fakeClock(Date.UTC(2026, 0, 1, 12));
    const { dispatcher, token, wid } = await openDispatcher(
      { chat: ["append_artifact"] },
      { clock: clock.now },
    );
    const seen: AnnaAppEvent[] = [];
    dispatcher.events.subscribe({ userId: dispatcher.userId }, (e) => seen.push(e));
    const ts = Math.floor(clock.now() / 1000);
    const nested = await dispatcher.call(token, "chat", "append_artifact", {
      artifact: { kind: "k".repeat(50), summary: "s".repeat(1200), data: { score: 3 } },
    });
    expect(nested).toEqual({ ok: true, result: { artifact_id: `app-${wid.slice(0, 8)}-${ts}` } });
    await dispatcher.call(token, "chat", "append_artifact", { kind: "text", summary: "flat" });
    expect(dispatcher.chat.artifacts.map((a) => [a.kind.length, a.summary?.length])).toEqual([
      [40, 1000],
      [4, 4],
    ]);
    expect(seen[0]).toMatchObject({
      kind: "artifact_appended",
      window_uuid: wid,
      payload: { payload: { score: 3 }, window_uuid: wid, ts },
    });
    expect(
      await dispatcher.call(token, "chat", "append_artifact", { artifact: "nope" }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
  });

  it("write_message records the message and emits chat_message_from_app; read_history is a stub", async () => {
    const { dispatcher, token, wid } = await openDispatcher({ chat: ["*"] });
    const seen: AnnaAppEvent[] = [];
    dispatcher.events.subscribe({ userId: dispatcher.userId }, (e) => seen.push(e));
    const out = await dispatcher.call(token, "chat", "write_message", {
      content: "x".repeat(5000),
    });
    expect(out).toMatchObject({
      ok: true,
      result: { message_id: expect.stringMatching(/^msg-\d+$/) },
    });
    expect(dispatcher.chat.messages[0]).toMatchObject({ role: "assistant", window_uuid: wid });
    expect(dispatcher.chat.messages[0]?.content).toHaveLength(4000);
    expect(seen[0]).toMatchObject({
      kind: "chat_message_from_app",
      payload: { window_uuid: wid, role: "assistant" },
    });
    expect(await dispatcher.call(token, "chat", "read_history", {})).toMatchObject({
      ok: false,
      error: { code: "not_implemented" },
    });
  });
});
