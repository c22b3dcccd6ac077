// The bundle's host calls under mountBundle, as a published app tests them: the manifest object,
// `@anna-ai/cli/test`, and the executa mocked with the answers the real one gives (its own
// tests, under executas/focus-session/tests, pin those).
import { describe, expect, it } from "vitest";
import { HostApiError, mountBundle } from "@anna-ai/cli/test";
import manifest from "../../manifest.json" with { type: "json" };
import {
  ACTIVE_KEY,
  completeFocus,
  defaultMinutes,
  describeError,
  HANDLE,
  loadState,
  LOG_KEY,
  LOG_LIMIT,
  openHistory,
  shareSession,
  startFocus,
  toolIdFor,
} from "../../bundle/focus.js";

/** The tool_id in executas/focus-session/executa.json; `bundled:focus-session` resolves to it. */
const TOOL_ID = "tool-dev-focus-session";
const BUNDLED = toolIdFor(undefined);

const SESSION = {
  id: "fs-0a1b2c3d",
  task: "Write the report",
  minutes: 25,
  started_at: "2026-11-30T09:00:00Z",
  ends_at: "2026-11-30T09:25:00Z",
};
const FINISHED = {
  ...SESSION,
  ended_at: "2026-11-30T09:25:02Z",
  focused_seconds: 1502,
  completed: true,
};
const OLDER = {
  ...FINISHED,
  id: "fs-00000001",
  task: "Read",
  started_at: "2026-11-29T09:00:00Z",
};

/** A tools.invoke mock answering each tool like the executa, in its `{success, data}` envelope. */
function executa(answers) {
  return ({ tool_id, method, args }) => {
    expect(tool_id).toBe(TOOL_ID);
    const answer = answers[method];
    if (answer === undefined) throw new Error(`unexpected tool ${method}`);
    return { success: true, data: typeof answer === "function" ? answer(args) : answer };
  };
}

describe("toolIdFor", () => {
  it("uses the published id, else the bundled ref", () => {
    expect(toolIdFor({ [HANDLE]: "tool-acme-focus-session-1a2b3c4d" })).toBe(
      "tool-acme-focus-session-1a2b3c4d",
    );
    expect(toolIdFor({ other: "tool-x" })).toBe("bundled:focus-session");
  });
});

describe("starting a session", () => {
  it("invokes start_session, stores the running session and titles the frame", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: {
        "tools.invoke": executa({
          start_session: (args) => {
            expect(args).toEqual({ task: "Write the report", minutes: 25 });
            return { session: SESSION, message: "Focus on “Write the report” for 25 min." };
          },
        }),
      },
    });

    const started = await startFocus(harness.runtime, BUNDLED, {
      task: "Write the report",
      minutes: 25,
    });

    expect(started).toEqual({
      session: SESSION,
      message: "Focus on “Write the report” for 25 min.",
    });
    expect(harness.calls.lastOf("tools.invoke")).toMatchObject({
      outcome: "ok",
      args: { tool_id: TOOL_ID, method: "start_session" },
    });
    expect((await harness.runtime.storage.get(ACTIVE_KEY)).value).toEqual(SESSION);
    expect(harness.calls.lastOf("window.set_title").args).toEqual({
      title: "▶ 25 min left · Write the report",
    });
  });

  it("shows the executa's refusal as it is and stores nothing", async () => {
    const refusal = "“Read” is still running (started 2026-11-30T08:40:00Z); complete it first.";
    const harness = await mountBundle({
      manifest,
      mocks: {
        "tools.invoke": () => {
          throw new HostApiError("tool_failed", refusal, { tool_id: TOOL_ID, error: refusal });
        },
      },
    });

    const failed = startFocus(harness.runtime, TOOL_ID, { task: "Write", minutes: 25 });

    await expect(failed).rejects.toMatchObject({ code: "tool_failed", message: refusal });
    expect(describeError(await failed.catch((e) => e))).toBe(refusal);
    expect(harness.calls.lastOf("tools.invoke").outcome).toBe("error");
    expect(harness.calls.byNs("storage")).toEqual([]);
    expect(harness.calls.byNs("window.set_title")).toEqual([]);
  });
});

describe("finishing a session", () => {
  it("logs it newest first, clears the running one and titles the frame with today's summary", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: {
        "tools.invoke": executa({
          complete_session: (args) => {
            expect(args).toEqual({ session_id: SESSION.id });
            return { session: FINISHED, message: "Done: 25 min on “Write the report”." };
          },
          stats: ({ sessions, day }) => {
            expect(sessions.map((s) => s.id)).toEqual([FINISHED.id, OLDER.id]);
            expect(day).toBe("2026-11-30");
            return { sessions: 1, summary: "1 session · 25 min focused · 1 completed" };
          },
        }),
      },
    });
    await harness.runtime.storage.set({ key: ACTIVE_KEY, value: SESSION });

    const done = await completeFocus(
      harness.runtime,
      TOOL_ID,
      SESSION,
      [OLDER],
      new Date("2026-11-30T09:25:02Z"),
    );

    expect(done.message).toBe("Done: 25 min on “Write the report”.");
    expect(done.log).toEqual([FINISHED, OLDER]);
    const state = await loadState(harness.runtime);
    expect(state).toEqual({ log: [FINISHED, OLDER], active: null });
    expect(harness.calls.lastOf("window.set_title").args).toEqual({
      title: "✓ 1 session · 25 min focused · 1 completed",
    });
    expect(harness.calls.byNs("tools.invoke").map((c) => c.args.method)).toEqual([
      "complete_session",
      "stats",
    ]);
  });

  it("keeps the log to its limit", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: {
        "tools.invoke": executa({
          complete_session: { session: FINISHED, message: "Done." },
          stats: { summary: "many" },
        }),
      },
    });
    const full = Array.from({ length: LOG_LIMIT }, (_, i) => ({ ...OLDER, id: `fs-${i}` }));

    const done = await completeFocus(harness.runtime, TOOL_ID, SESSION, full);

    expect(done.log).toHaveLength(LOG_LIMIT);
    expect(done.log[0]).toEqual(FINISHED);
    expect(done.log.at(-1).id).toBe(`fs-${LOG_LIMIT - 2}`);
  });

  it("drops a running session the executa no longer knows, so the window is not stuck", async () => {
    const forgot = "No session is running (the plugin may have restarted); start a new one.";
    const harness = await mountBundle({
      manifest,
      mocks: {
        "tools.invoke": () => {
          throw new HostApiError("tool_failed", forgot);
        },
      },
    });
    await harness.runtime.storage.set({ key: ACTIVE_KEY, value: SESSION });

    await expect(completeFocus(harness.runtime, TOOL_ID, SESSION, [])).rejects.toThrow(forgot);

    expect(await loadState(harness.runtime)).toEqual({ log: [], active: null });
    expect(harness.calls.lastOf("storage.delete").args).toEqual({ key: ACTIVE_KEY });
  });
});

describe("storage", () => {
  it("reads back what it stored, in a fresh window and after writes", async () => {
    const harness = await mountBundle({ manifest });
    expect(await loadState(harness.runtime)).toEqual({ log: [], active: null });

    await harness.runtime.storage.set({ key: LOG_KEY, value: [OLDER] });
    await harness.runtime.storage.set(ACTIVE_KEY, SESSION);

    expect(await loadState(harness.runtime)).toEqual({ log: [OLDER], active: SESSION });
    expect(harness.drainEvents().map((e) => e.name)).toContain("runtime_state_synced");
  });

  it("ignores a log that is not a list", async () => {
    const harness = await mountBundle({ manifest });
    harness.storage.set(LOG_KEY, "corrupt");
    expect((await loadState(harness.runtime)).log).toEqual([]);
  });
});

describe("preferences and views", () => {
  it("uses the preferred session length, and 25 when prefs answers nothing usable", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: { "prefs.get": ({ key }) => ({ key, value: 50 }) },
    });
    expect(await defaultMinutes(harness.runtime)).toBe(50);
    harness.mock("prefs.get", () => ({ value: 999 }));
    expect(await defaultMinutes(harness.runtime)).toBe(25);
    harness.mock("prefs.get", () => {
      throw new HostApiError("not_implemented", "prefs.get is reserved");
    });
    expect(await defaultMinutes(harness.runtime)).toBe(25);
  });

  it("opens the history view with the log as its payload", async () => {
    const harness = await mountBundle({ manifest });
    await openHistory(harness.runtime, [FINISHED]);
    expect(harness.calls.lastOf("window.open_view")).toMatchObject({
      outcome: "ok",
      args: { view: "history", payload: { sessions: [FINISHED] } },
    });
  });
});

describe("sharing", () => {
  it("posts the finished session and the day's summary to the conversation", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: { "chat.write_message": () => ({ message_id: "msg-1" }) },
    });

    await shareSession(
      harness.runtime,
      { ...FINISHED, completed: false, focused_seconds: 610 },
      {
        summary: "2 sessions · 35 min focused · 1 completed",
      },
    );

    expect(harness.calls.lastOf("chat.write_message")).toMatchObject({
      outcome: "ok",
      args: {
        role: "assistant",
        content:
          "Stopped a focus session on “Write the report”: 10 of 25 min. Today: 2 sessions · 35 min focused · 1 completed",
      },
    });
  });
});

describe("what the manifest does not grant", () => {
  it("is denied, and the window says so", async () => {
    const harness = await mountBundle({ manifest });

    const denied = await harness.runtime.llm
      .complete({ messages: [{ role: "user", content: "How did I do today?" }] })
      .catch((e) => e);

    expect(denied).toBeInstanceOf(HostApiError);
    expect(denied.code).toBe("permission_denied");
    expect(describeError(denied)).toMatch(/^Not allowed: llm\.complete/);
    expect(harness.calls.last().outcome).toBe("denied");
    await expect(
      harness.runtime.tools.invoke({ tool_id: "tool-someone-else-00000000", method: "stats" }),
    ).rejects.toMatchObject({ code: "permission_denied" });
  });

  it("names the code of any other failure", () => {
    expect(describeError(new HostApiError("executa_unavailable", "python3 not found"))).toBe(
      "The timer's executa is not available (python3 not found). Is it running?",
    );
    expect(describeError(new HostApiError("tool_timeout", "slow"))).toBe(
      "The timer did not answer in time. Try again.",
    );
    expect(describeError(new HostApiError("rate_limited", "slow down"))).toBe(
      "rate_limited: slow down",
    );
  });
});
