// The developer panel: the Host API call log (allowed / denied / error, timing, full payload a
// click away), the event log, the executas with their stderr, and the focused window's
// runtime_state.
/* global document, window -- a browser module: the page's globals */

import { openInspector } from "./harness-api.js";

/** Rows kept per log; older ones are dropped so a chatty app cannot grow the page forever. */
const LOG_MAX_ROWS = 300;

const $ = (id) => document.getElementById(id);
/** Summaries are cut here; the full payload is one click away. */
const SUMMARY_MAX_CHARS = 200;

const brief = (value) => (typeof value === "string" ? value : JSON.stringify(value));
/** Arguments in a summary are cut here, before the answer. */
const ARGS_MAX_CHARS = 80;
const cut = (text, max = SUMMARY_MAX_CHARS) =>
  text.length > max ? text.slice(0, max - 1) + "…" : text;

/**
 * Prepends a row: a one-line summary that expands, on click, to the full detail as JSON.
 * `outcome` is the CSS class (`allowed`, `denied`, `error`, or none).
 */
function addRow(log, outcome, summary, detail) {
  const row = document.createElement("details");
  row.className = "row" + (outcome ? " " + outcome : "");
  const head = document.createElement("summary");
  head.textContent = cut(summary);
  const body = document.createElement("pre");
  body.textContent = JSON.stringify(detail, null, 2);
  row.append(head, body);
  log.prepend(row);
  while (log.childElementCount > LOG_MAX_ROWS) log.lastElementChild.remove();
  return row;
}

/** The app's keep-alive, every 10 s per window: hidden unless the "heartbeats" box is ticked. */
const HEARTBEAT = "window.heartbeat";

/** One Host API call as the harness logged it (dev-panel.ts `CallEntry`). */
export function logCall(entry) {
  const head = `${entry.ns}.${entry.method} ${entry.outcome} ${entry.ms} ms`;
  const args = cut(brief(entry.args), ARGS_MAX_CHARS);
  // A refusal's code comes first: long arguments must not push it out of the summary.
  const summary =
    entry.outcome === "allowed"
      ? `${head} ${args} → ${brief(entry.result)}`
      : `${head} → ${entry.error?.code}: ${entry.error?.message} · ${args}`;
  const row = addRow($("calls"), entry.outcome, summary, entry);
  row.dataset.call = entry.ns + "." + entry.method;
  if (entry.warning) {
    // Whole, under the summary: a call that worked, but not as its author may think.
    const warning = document.createElement("span");
    warning.className = "warning";
    warning.textContent = "⚠ " + entry.warning;
    row.firstElementChild.append(warning);
    row.classList.add("warned");
  }
  filterRow(row);
}

/** The call log's filter box, heartbeat toggle and clear button. */
export function initCallTools() {
  const refilter = () => {
    for (const row of $("calls").children) filterRow(row);
  };
  $("calls-filter").addEventListener("input", refilter);
  $("calls-heartbeats").addEventListener("change", refilter);
  $("calls-clear").addEventListener("click", () => {
    $("calls").textContent = "";
  });
}

function filterRow(row) {
  const text = $("calls-filter").value.trim().toLowerCase();
  const heartbeat = row.dataset.call === HEARTBEAT && !$("calls-heartbeats").checked;
  const head = row.firstElementChild?.textContent.toLowerCase() ?? "";
  row.hidden = heartbeat || (text !== "" && !head.includes(text));
}

/** A message the bridge refused to act on (foreign origin, another window, not an rpc). */
export function logDropped(reason, origin, data) {
  const row = addRow(
    $("calls"),
    "denied",
    `dropped a message from ${origin || "an unknown origin"}: ${reason}`,
    {
      origin,
      reason,
      data,
    },
  );
  row.dataset.dropped = "true";
}

/** An AnnaAppEvent from the stream, or a page-local note (`detail` = what to show in full). */
export function logEvent(summary, detail, outcome) {
  addRow($("events"), outcome, summary, detail);
}

/** What production would refuse but the harness runs without (the banner's warnings). */
export function renderWarnings(list) {
  const box = $("warnings");
  box.textContent = "";
  for (const text of list) {
    const item = document.createElement("li");
    item.textContent = text;
    box.append(item);
  }
  $("warnings-box").hidden = list.length === 0;
}

/**
 * Inspect: the plugin inspector of `executa dev --ui` for this executa, in a tab of its own (a
 * process of its own: what is invoked there leaves the windows' plugin alone).
 * @param {string} toolId
 */
function inspectButton(toolId) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "inspect";
  button.textContent = "Inspect";
  button.title = "Open the plugin inspector for " + toolId + " (its own process)";
  button.setAttribute("aria-label", "Inspect " + toolId);
  button.addEventListener("click", async () => {
    // Opened now, inside the click, or the browser blocks it as a pop-up once the answer is in.
    const tab = window.open("about:blank", "_blank");
    button.disabled = true;
    const answer = await openInspector(toolId);
    button.disabled = false;
    if (answer.ok) {
      if (tab) {
        tab.opener = null;
        tab.location.href = answer.inspector.url;
      } else window.location.assign(answer.inspector.url);
    } else {
      tab?.close();
      button.title = answer.error.message;
      logEvent(
        "inspect " + toolId + " refused: " + answer.error.code + ": " + answer.error.message,
        answer.error,
        "error",
      );
    }
  });
  return button;
}

export function renderExecutas(list) {
  const box = $("executas");
  box.textContent = "";
  for (const e of list) {
    const row = document.createElement("div");
    row.className = "row" + (e.state === "crashed" ? " error" : "");
    row.textContent = e.tool_id + " — " + e.state + (e.reason ? " (" + e.reason + ")" : "");
    row.append(" ", inspectButton(e.tool_id));
    if (e.stderr.length) {
      const tail = document.createElement("pre");
      tail.textContent = e.stderr.join("\n");
      row.append(tail);
    }
    box.append(row);
  }
  if (list.length === 0) box.textContent = "none";
}

export function showState(runtimeState) {
  $("state").textContent = JSON.stringify(runtimeState ?? {}, null, 2);
}
