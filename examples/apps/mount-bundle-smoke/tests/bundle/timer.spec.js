// Written the way published apps write their bundle tests: mountBundle from @anna-ai/cli/test,
// the manifest object only, the bundled executa called by the tool_id in its executa.json.
import { describe, expect, it } from "vitest";
import { HostApiError, mountBundle } from "@anna-ai/cli/test";
import manifest from "../../manifest.json" with { type: "json" };
import { followEntryPayload, lastDuration, startTimer, TIMER_TOOL_ID } from "../../bundle/timer.js";

describe("timer", () => {
  it("invokes the executa tool", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: {
        "tools.invoke": ({ tool_id, method }) => ({
          success: true,
          data: { tool_id, method, state: "running", remaining_seconds: 1500 },
        }),
      },
    });

    const session = await startTimer(harness.runtime, { duration_minutes: 25 });

    expect(session).toEqual({
      success: true,
      data: { tool_id: TIMER_TOOL_ID, method: "start", state: "running", remaining_seconds: 1500 },
    });
    expect(harness.calls.byNs("tools.invoke")).toHaveLength(1);
    const call = harness.calls.lastOf("tools.invoke");
    expect(call.args).toMatchObject({ method: "start" });
    expect(call.outcome).toBe("ok");
    expect(harness.calls.byNs("storage")).toHaveLength(1);
    expect(harness.calls.lastOf("window.set_title").args).toEqual({ title: "Focus · 25 min" });
  });

  it("reads back what it stored, object and positional forms alike", async () => {
    const harness = await mountBundle({ manifest });
    expect(await lastDuration(harness.runtime)).toBe(25);
    await harness.runtime.storage.set({ key: "last_duration", value: 50 });
    expect(await lastDuration(harness.runtime)).toBe(50);
    const listed = await harness.runtime.call("storage", "list", { prefix: "last" });
    expect(listed.items.map((item) => item.key)).toEqual(["last_duration"]);
  });

  it("follows entry_payload once pending work settles", async () => {
    const harness = await mountBundle({ manifest });
    followEntryPayload(harness.runtime);
    harness.events.emit("entry_payload", { mode: "deep_focus" });
    await harness.wait(0);
    expect((await harness.runtime.storage.get("mode")).value).toBe("deep_focus");
  });

  it("is denied what the manifest does not grant", async () => {
    const harness = await mountBundle({ manifest });
    await expect(harness.runtime.chat.write_message({ content: "hi" })).rejects.toThrow(
      HostApiError,
    );
    expect(harness.calls.last().outcome).toBe("denied");
    await expect(
      harness.runtime.tools.invoke({ tool_id: "tool-not-mine-00000000", method: "start" }),
    ).rejects.toMatchObject({ code: "permission_denied" });
  });
});
