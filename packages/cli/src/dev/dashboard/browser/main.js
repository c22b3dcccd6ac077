// anna-app dev dashboard: boots from the state inlined in the page, then follows the app's event
// stream (window changes, relayed to the iframes, by the window host of frames.js) and the panel's
// own stream (calls, executas, reloads). The host page of docs/app-runtime.md part 2.
/* global document, location, EventSource, URLSearchParams -- a browser module: the page's globals */
import { startBridge } from "./bridge.js";
import { allFrames, focusedFrame, initDesk } from "./frames.js";
import {
  initCallTools,
  logCall,
  logEvent,
  renderExecutas,
  renderWarnings,
  showState,
} from "./panel.js";
import { initSimulate } from "./simulate.js";

const $ = (id) => document.getElementById(id);
const stateByWid = new Map();

// The state comes inline so the frames exist before the load event (screenshots, fast paint).
const boot = JSON.parse($("boot").textContent);
const host = initDesk({ frames: $("frames"), dock: $("dock"), views: boot.dashboard.view_specs });
startBridge();
$("app-name").textContent =
  `${boot.app.name} (${boot.app.slug}) — storage ${boot.storage}, LLM ${boot.llm}`;
for (const view of boot.app.views) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = "Open " + view;
  b.dataset.view = view;
  b.addEventListener("click", () => void openView(view));
  $("views").append(b);
}
renderWarnings(boot.warnings);
initCallTools();
renderExecutas(boot.executas);
for (const call of boot.calls) logCall(call);
for (const win of boot.windows) {
  stateByWid.set(win.window_uuid, win.runtime_state);
  host.open(win, win.url);
}
host.onChange(() => {
  const focused = focusedFrame() ?? allFrames()[0];
  if (focused) showState(stateByWid.get(focused.wid));
  report();
});
initSimulate(boot.dashboard.simulate);
const top = boot.windows
  .filter((w) => w.status === "active")
  .sort((a, b) => b.z_index - a.z_index)[0];
if (top) host.applyFocus(top.window_uuid, top.z_index);

async function openView(view) {
  const out = await host.openView(view);
  if (!out.ok) {
    logEvent(`open ${view} refused: ${out.error.code}: ${out.error.message}`, out.error, "error");
    return;
  }
  stateByWid.set(out.window.window_uuid, out.window.runtime_state);
}

// The window events update the frames and reach the iframes they concern (the host's relay).
host.followEvents({
  // The stream came back past events the server no longer has (it restarted, or the page was
  // away past the log's 10 minutes): the page's windows may be stale, and the boot state of a
  // fresh load is the server's.
  onResync(resync) {
    logEvent(`event stream resync (${resync.reason}): reloading the page`, resync, "error");
    location.reload();
  },
  onEvent(ev) {
    const wid = ev.window_uuid;
    const p = ev.payload ?? {};
    logEvent(`${ev.kind} ${wid ?? "(app)"} ${JSON.stringify(p)}`, ev);
    if (ev.kind === "runtime_state_synced") {
      stateByWid.set(wid, p.runtime_state);
      if ((focusedFrame() ?? allFrames()[0])?.wid === wid) showState(p.runtime_state);
    }
  },
});

// From the calls the page was built with: one made while the page loaded comes first.
const dev = new EventSource("/dev/stream?after=" + boot.calls_seq);
dev.addEventListener("call", (message) => logCall(JSON.parse(message.data)));
dev.addEventListener("executas", (message) => renderExecutas(JSON.parse(message.data)));
dev.addEventListener("fixture_replay", (message) => {
  const r = JSON.parse(message.data);
  logEvent(
    `replayed ${r.file} into ${r.window_uuid.slice(0, 8)}: ${r.matched} match, ${r.differed} differ, ${r.skipped} skipped`,
    r,
    r.differed > 0 ? "error" : "allowed",
  );
});
// A recording that could not go on (folder removed, disk full, size cap): calls still work.
const recordingStopped = (r) => logEvent(`recording stopped: ${r.reason}`, r, "error");
if (boot.recording?.state === "stopped") recordingStopped(boot.recording);
dev.addEventListener("recording_stopped", (message) => recordingStopped(JSON.parse(message.data)));
dev.addEventListener("reload", () => {
  for (const frame of allFrames()) void host.reload(frame.wid);
  logEvent("bundle changed: reloaded", {});
});

/** `?report`: the frame titles posted to the harness on every change (DevServer.onReport). */
function report() {
  if (!new URLSearchParams(location.search).has("report")) return;
  const titles = Object.fromEntries(allFrames().map((f) => [f.wid, f.title]));
  void fetch("/dev/api/report", {
    method: "POST",
    body: JSON.stringify({ titles, frames: Object.keys(titles).length }),
  });
}
