// Everything the window asks of the host, written against the SDK's runtime (`anna`) so the same
// code runs in the iframe (`await AnnaAppRuntime.connect()`) and under `mountBundle` in tests.
// Every call here is granted in manifest.json `ui.host_api`; `anna-app validate --strict`
// checks that.
import { doneTitle, runningTitle, secondsUntil, utcDay } from "./format.js";

/** The app.json `bundled_executas` handle of the timer's executa. */
export const HANDLE = "focus-session";
/** Storage keys: the finished sessions (newest first) and the running one. */
export const LOG_KEY = "focus-flow/log";
export const ACTIVE_KEY = "focus-flow/active";
/** The log keeps this many sessions; the window state has a size cap (256 KiB in legacy mode). */
export const LOG_LIMIT = 50;
export const DEFAULT_MINUTES = 25;
export const MINUTES_MAX = 180;
/** The user preference holding their usual session length. */
export const PREF_MINUTES = "focus_flow.default_minutes";

/**
 * The tool_id to invoke: the one anna-tool-ids.js published for the handle (the dev harness
 * serves a generated copy; publishing writes the minted id), else the `bundled:` ref.
 */
export function toolIdFor(ids, handle = HANDLE) {
  const id = ids && typeof ids === "object" ? ids[handle] : undefined;
  return typeof id === "string" && id !== "" ? id : `bundled:${handle}`;
}

/**
 * A tools.invoke answer's payload. The SDK unwraps the executa's `{success, data}` envelope; a
 * host (or a test mock) that hands the envelope over as it is gets unwrapped here.
 */
export function payloadOf(answer) {
  if (answer && typeof answer === "object" && answer.success === true && "data" in answer) {
    return answer.data;
  }
  return answer;
}

/** The user's usual session length; 25 when the preference is unset or `prefs` is unavailable. */
export async function defaultMinutes(anna) {
  try {
    const { value } = await anna.prefs.get({ key: PREF_MINUTES });
    return Number.isInteger(value) && value >= 1 && value <= MINUTES_MAX ? value : DEFAULT_MINUTES;
  } catch {
    // prefs is a reserved namespace in production (not_implemented): the default it is.
    return DEFAULT_MINUTES;
  }
}

/** The stored log and running session; a fresh window has neither. */
export async function loadState(anna) {
  const [log, active] = await Promise.all([
    anna.storage.get({ key: LOG_KEY }),
    anna.storage.get({ key: ACTIVE_KEY }),
  ]);
  return {
    log: Array.isArray(log?.value) ? log.value : [],
    active: active?.value && typeof active.value === "object" ? active.value : null,
  };
}

/** Starts a session on the executa, remembers it, and puts it in the frame title. */
export async function startFocus(anna, toolId, { task, minutes }) {
  const { session, message } = payloadOf(
    await anna.tools.invoke({ tool_id: toolId, method: "start_session", args: { task, minutes } }),
  );
  await anna.storage.set({ key: ACTIVE_KEY, value: session });
  await anna.window.set_title(runningTitle(session.task, session.minutes * 60));
  return { session, message };
}

/** Keeps the frame title on the minutes left; the window calls it when the minute changes. */
export async function showRemaining(anna, session, nowMs) {
  await anna.window.set_title(runningTitle(session.task, secondsUntil(session.ends_at, nowMs)));
}

/** The day's summary from the executa's `stats`. */
export async function summarize(anna, toolId, log, day) {
  return payloadOf(
    await anna.tools.invoke({ tool_id: toolId, method: "stats", args: { sessions: log, day } }),
  );
}

/**
 * Ends the running session on the executa, adds it to the log, and shows the day's summary in
 * the frame title. When the executa refuses (it restarted and forgot the session, say), the
 * stored session is dropped too, so the window is not stuck on a timer nobody runs.
 */
export async function completeFocus(anna, toolId, session, log, now = new Date()) {
  let answer;
  try {
    answer = payloadOf(
      await anna.tools.invoke({
        tool_id: toolId,
        method: "complete_session",
        args: { session_id: session.id },
      }),
    );
  } catch (error) {
    if (error?.code === "tool_failed") await anna.storage.delete({ key: ACTIVE_KEY });
    throw error;
  }
  const entry = answer.session;
  const next = [entry, ...log].slice(0, LOG_LIMIT);
  await anna.storage.set({ key: LOG_KEY, value: next });
  await anna.storage.delete({ key: ACTIVE_KEY });
  const stats = await summarize(anna, toolId, next, utcDay(now));
  await anna.window.set_title(doneTitle(stats.summary));
  return { entry, log: next, stats, message: answer.message };
}

/** The line a finished session posts to the conversation. */
export function shareText(entry, stats) {
  const how = entry.completed ? "Finished" : "Stopped";
  const minutes = Math.floor(entry.focused_seconds / 60);
  return `${how} a focus session on “${entry.task}”: ${minutes} of ${entry.minutes} min. Today: ${stats.summary}`;
}

/** Posts a finished session to the conversation the window belongs to. */
export async function shareSession(anna, entry, stats) {
  return anna.chat.write_message({ role: "assistant", content: shareText(entry, stats) });
}

/** Opens (or refocuses, it is single-instance) the history view with the log as its payload. */
export async function openHistory(anna, log) {
  return anna.window.open_view({ view: "history", payload: { sessions: log } });
}

/** What to tell the user about a failed call: the executa's own words when it refused. */
export function describeError(error) {
  const code = typeof error?.code === "string" ? error.code : "error";
  const message = typeof error?.message === "string" ? error.message : String(error);
  switch (code) {
    case "tool_failed":
      return message;
    case "permission_denied":
      return `Not allowed: ${message}`;
    case "executa_unavailable":
      return `The timer's executa is not available (${message}). Is it running?`;
    case "tool_timeout":
    case "timeout":
      return "The timer did not answer in time. Try again.";
    default:
      return `${code}: ${message}`;
  }
}
