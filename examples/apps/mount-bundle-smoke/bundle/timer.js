// The bundle's logic, written against the SDK's runtime so the same code runs in the iframe
// (`await AnnaAppRuntime.connect()`) and under `mountBundle` in tests.
export const TIMER_TOOL_ID = "tool-test-focus-session-12345678";

/** Starts a focus session on the bundled executa and remembers its length. */
export async function startTimer(runtime, { duration_minutes }) {
  const session = await runtime.tools.invoke({
    tool_id: TIMER_TOOL_ID,
    method: "start",
    args: { duration_minutes },
  });
  await runtime.storage.set({ key: "last_duration", value: duration_minutes });
  await runtime.window.set_title(`Focus · ${duration_minutes} min`);
  return session;
}

/** The length of the last session, or the default. Positional form, as many bundles write it. */
export async function lastDuration(runtime, fallback = 25) {
  const { value } = await runtime.storage.get("last_duration");
  return typeof value === "number" ? value : fallback;
}

/** Re-opening the view with a payload switches mode, stored for the next load. */
export function followEntryPayload(runtime) {
  return runtime.on("entry_payload", (payload) => {
    void runtime.storage.set("mode", payload?.mode ?? "normal");
  });
}
