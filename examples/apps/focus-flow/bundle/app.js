/* global document, window, Option */
// The window: connects to the host, then wires focus.js to the page. The `main` view runs the
// timer; the `history` view lists the sessions the main view sent it in its entry payload.
import { AnnaAppRuntime } from "/static/anna-apps/_sdk/latest/index.js";
import {
  completeFocus,
  defaultMinutes,
  describeError,
  loadState,
  openHistory,
  shareSession,
  showRemaining,
  startFocus,
  summarize,
  toolIdFor,
} from "./focus.js";
import { clock, logLine, minutesLeft, secondsUntil, utcDay, when } from "./format.js";

const TICK_MS = 250;
const $ = (id) => document.getElementById(id);

const anna = await AnnaAppRuntime.connect();
const toolId = toolIdFor(window.__ANNA_TOOL_IDS__);

function renderLog(list, sessions) {
  list.replaceChildren(
    ...sessions.map((entry) => {
      const li = document.createElement("li");
      li.className = entry.completed ? "completed" : "stopped";
      const what = document.createElement("span");
      what.textContent = logLine(entry);
      const at = document.createElement("time");
      at.dateTime = entry.started_at;
      at.textContent = when(entry.started_at);
      li.append(what, at);
      return li;
    }),
  );
}

function showError(error) {
  $("error").textContent = describeError(error);
  $("error").dataset.code = error?.code ?? "error";
  $("error").hidden = false;
}

/** Runs one user action: clears the last error, shows a new one, never leaves a button stuck. */
async function act(button, work) {
  button.disabled = true;
  $("error").hidden = true;
  try {
    await work();
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

async function mainView() {
  const state = await loadState(anna);
  let { log, active } = state;
  let ticker;
  let shownMinute;
  /** The last finished session and the day's stats, for "Share to chat". */
  let finished = null;

  const minutes = await defaultMinutes(anna);
  $("minutes").value = String(minutes);
  if ($("minutes").value !== String(minutes)) {
    $("minutes").append(new Option(`${minutes} min`, String(minutes), true, true));
  }

  function idle() {
    clearInterval(ticker);
    active = null;
    document.body.dataset.state = "idle";
    $("phase").textContent = "Ready";
    $("clock").textContent = clock(Number($("minutes").value) * 60);
    $("dial").style.setProperty("--progress", "0");
    $("start-form").hidden = false;
    $("finish").hidden = true;
    $("start").disabled = false;
  }

  function running(session) {
    active = session;
    shownMinute = undefined;
    document.body.dataset.state = "running";
    $("phase").textContent = session.task;
    $("start-form").hidden = true;
    $("finish").hidden = false;
    clearInterval(ticker);
    ticker = setInterval(tick, TICK_MS);
    tick();
  }

  function tick() {
    const left = secondsUntil(active.ends_at, Date.now());
    $("clock").textContent = clock(left);
    $("dial").style.setProperty("--progress", String(1 - left / (active.minutes * 60)));
    if (left <= 0) {
      void finish();
      return;
    }
    // The frame title follows the minutes, not the seconds: one set_title a minute.
    const minute = minutesLeft(left);
    if (shownMinute !== undefined && minute !== shownMinute) {
      showRemaining(anna, active, Date.now()).catch(showError);
    }
    shownMinute = minute;
  }

  async function refreshSummary() {
    const stats = await summarize(anna, toolId, log, utcDay(new Date()));
    $("summary").textContent = `Today: ${stats.summary}`;
  }

  function finish() {
    if (active === null) return Promise.resolve();
    const session = active;
    clearInterval(ticker);
    return act($("finish"), async () => {
      try {
        const done = await completeFocus(anna, toolId, session, log);
        log = done.log;
        renderLog($("log"), log);
        $("summary").textContent = `Today: ${done.stats.summary}`;
        $("message").textContent = done.message;
        finished = done;
        $("share").hidden = false;
      } finally {
        idle();
      }
    });
  }

  $("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void act($("start"), async () => {
      $("share").hidden = true;
      const { session, message } = await startFocus(anna, toolId, {
        task: $("task").value,
        minutes: Number($("minutes").value),
      });
      $("message").textContent = message;
      running(session);
    });
  });
  $("finish").addEventListener("click", () => void finish());
  $("share").addEventListener("click", () => {
    void act($("share"), async () => {
      await shareSession(anna, finished.entry, finished.stats);
      $("share").hidden = true;
      $("message").textContent = "Shared to the conversation.";
    });
  });
  $("minutes").addEventListener("change", () => active === null && idle());
  $("open-history").addEventListener("click", () => {
    void act($("open-history"), () => openHistory(anna, log));
  });

  renderLog($("log"), log);
  if (active === null) idle();
  else running(active);
  await refreshSummary();
}

function historyView() {
  document.body.dataset.view = "history";
  document.body.dataset.state = "idle";
  const render = (payload) => renderLog($("history"), payload?.sessions ?? []);
  render(anna.entryPayload);
  // Single-instance: opening History again refocuses this window with the newer log.
  anna.on("entry_payload", render);
}

try {
  if (anna.viewMeta.name === "history") historyView();
  else await mainView();
} catch (error) {
  showError(error);
  void anna.window.report_error(error);
}
