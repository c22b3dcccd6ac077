// Pure formatting for the window: no DOM, no SDK, so the bundle tests import it as it is.

/** `window.set_title` takes 1–120 characters (Host API, window.set_title). */
export const TITLE_MAX_CHARS = 120;

/** 1500 → "25:00", 61 → "01:01"; negative counts as 0. */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const mm = String(Math.floor(s / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return `${mm}:${ss}`;
}

/** Whole minutes still to go, rounded up, so the title says "1 min" until the last second. */
export function minutesLeft(seconds) {
  return Math.max(0, Math.ceil(seconds / 60));
}

/** Seconds from `nowMs` until an ISO date-time. */
export function secondsUntil(iso, nowMs) {
  return (Date.parse(iso) - nowMs) / 1000;
}

function title(text) {
  return text.length <= TITLE_MAX_CHARS ? text : `${text.slice(0, TITLE_MAX_CHARS - 1)}…`;
}

/** The frame title while a session runs: what is left and on what. */
export function runningTitle(task, remainingSeconds) {
  return title(`▶ ${minutesLeft(remainingSeconds)} min left · ${task}`);
}

/** The frame title once a session is over: the day's summary from the executa. */
export function doneTitle(summary) {
  return title(`✓ ${summary}`);
}

/** The UTC day (YYYY-MM-DD) the executa's `stats` filters on. */
export function utcDay(date) {
  return date.toISOString().slice(0, 10);
}

/** 1930 → "32 min", 45 → "45 s". */
export function duration(seconds) {
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds} s` : `${minutes} min`;
}

/** A log line: "Outline the talk — 32 of 50 min". */
export function logLine(entry) {
  const planned = `${entry.minutes} min`;
  return entry.completed
    ? `${entry.task} — ${planned}`
    : `${entry.task} — ${duration(entry.focused_seconds)} of ${planned}`;
}

/** "2026-11-29T14:00:00Z" → "Nov 29, 14:00" (UTC, so tests and screenshots agree). */
export function when(iso) {
  const date = new Date(iso);
  const month = date.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  const hh = String(date.getUTCHours()).padStart(2, "0");
  const mm = String(date.getUTCMinutes()).padStart(2, "0");
  return `${month} ${date.getUTCDate()}, ${hh}:${mm}`;
}
