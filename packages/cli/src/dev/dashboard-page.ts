// The dashboard page (`/`) and its script (`/dev/dashboard.js`): window frames for the open views
// and the parent-page bridge of docs/app-runtime.md part 2 (postMessage ↔ the rpc endpoint, SSE
// events relayed to the right iframe, `ns: "auth"` answered here), plus the developer panel.
// Plain HTML and one vanilla module: nothing to build, served from memory.

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>anna-app dev</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 1fr 420px; height: 100vh; }
  #desk { padding: 12px; overflow: auto; background: #eef0f3; }
  #views button { margin: 0 6px 8px 0; }
  .frame { background: #fff; border: 1px solid #c5c9d0; border-radius: 6px; margin-bottom: 12px; display: inline-block; vertical-align: top; }
  .frame .bar { display: flex; align-items: center; gap: 8px; padding: 4px 8px; background: #dde1e7; border-radius: 6px 6px 0 0; }
  .frame .title { flex: 1; font-weight: 600; }
  .frame iframe { border: 0; display: block; }
  #panel { border-left: 1px solid #c5c9d0; overflow: auto; padding: 8px; font-size: 12px; }
  #panel h2 { font-size: 13px; margin: 12px 0 4px; }
  .row { border-bottom: 1px solid #eee; padding: 2px 0; white-space: pre-wrap; word-break: break-all; }
  .allowed { color: #176f2c; } .denied { color: #b25b00; } .error { color: #b00020; }
  pre { margin: 0; white-space: pre-wrap; }
</style>
</head>
<body>
<section id="desk">
  <div id="app-name"></div>
  <div id="views"></div>
  <div id="frames"></div>
</section>
<aside id="panel">
  <h2>Executas</h2><div id="executas"></div>
  <h2>runtime_state</h2><pre id="state">{}</pre>
  <h2>Simulate</h2>
  <button id="sim-payload">entry_payload</button> <button id="sim-refresh">auth.refresh</button>
  <h2>Host API calls</h2><div id="calls"></div>
  <h2>Events</h2><div id="events"></div>
</aside>
<script type="application/json" id="boot">__BOOT_STATE__</script>
<script type="module" src="/dev/dashboard.js"></script>
</body>
</html>
`;

export const DASHBOARD_JS = `// anna-app dev dashboard: the host page of docs/app-runtime.md, part 2.
const RPC = "/api/v1/anna-apps/runtime/rpc";
const WINDOWS = "/api/v1/anna-apps/runtime/windows";
const report = new URLSearchParams(location.search).has("report");
const frames = new Map(); // wid -> {wid, iframe, title, helloed}
const $ = (id) => document.getElementById(id);
const text = (v) => (typeof v === "string" ? v : JSON.stringify(v));

function row(parent, cls, content) {
  const div = document.createElement("div");
  div.className = "row " + (cls || "");
  div.textContent = content;
  parent.prepend(div);
  while (parent.childElementCount > 300) parent.lastElementChild.remove();
}

function sendReport() {
  if (!report) return;
  const titles = {};
  for (const f of frames.values()) titles[f.wid] = f.title.textContent;
  void fetch("/dev/api/report", { method: "POST", body: JSON.stringify({ titles, frames: frames.size }) });
}

function addFrame(win) {
  if (frames.has(win.window_uuid)) return;
  const box = document.createElement("div");
  box.className = "frame";
  box.dataset.wid = win.window_uuid;
  const bar = document.createElement("div");
  bar.className = "bar";
  const title = document.createElement("span");
  title.className = "title";
  title.textContent = win.title || win.view_name;
  const close = document.createElement("button");
  close.textContent = "×";
  close.title = "Close";
  close.onclick = () => void fetch(WINDOWS + "/" + win.window_uuid, { method: "DELETE" });
  bar.append(title, close);
  const iframe = document.createElement("iframe");
  // Never allow-same-origin (A5): the app's origin stays opaque.
  iframe.setAttribute("sandbox", "allow-scripts allow-forms allow-popups allow-downloads");
  const g = win.geometry || {};
  iframe.width = String(g.w || 480);
  iframe.height = String(g.h || 360);
  iframe.src = win.url;
  box.append(bar, iframe);
  $("frames").append(box);
  frames.set(win.window_uuid, { wid: win.window_uuid, iframe, title, box, helloed: false });
  sendReport();
}

function removeFrame(wid) {
  const f = frames.get(wid);
  if (!f) return;
  f.box.remove();
  frames.delete(wid);
  sendReport();
}

async function openView(view) {
  const res = await fetch(WINDOWS, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ view }) });
  const out = await res.json();
  if (out.window) addFrame({ ...out.window, url: out.url });
}

async function freshToken(wid) {
  const res = await fetch(WINDOWS + "/" + wid);
  if (!res.ok) return undefined;
  const out = await res.json();
  return { token: out.token, expires_in: out.expires_in };
}

window.addEventListener("message", (event) => {
  const m = event.data;
  let frame;
  for (const f of frames.values()) if (f.iframe.contentWindow === event.source) frame = f;
  if (!frame || !m || m.type !== "anna-app/rpc" || m.window_uuid !== frame.wid) {
    row($("events"), "denied", "dropped a message (not from an app iframe, or for another window)");
    return;
  }
  void handle(frame, m);
});

async function handle(frame, m) {
  const reply = (body) => frame.iframe.contentWindow.postMessage({ type: "anna-app/rpc-result", id: m.id, ...body }, "*");
  if (m.ns === "auth") {
    const fresh = await freshToken(frame.wid);
    if (fresh) reply({ ok: true, result: fresh });
    else reply({ ok: false, error: { code: "invalid_token", message: "the window is gone" } });
    return;
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), m.timeout_ms || 30000);
  try {
    const res = await fetch(RPC, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Anna-App-Token": m.token || "" },
      body: JSON.stringify({ id: m.id, window_uuid: m.window_uuid, ns: m.ns, method: m.method, args: m.args || {} }),
      signal: abort.signal,
    });
    const out = await res.json();
    if (m.ns === "window" && m.method === "hello" && out.ok) frame.helloed = true;
    reply(out.ok ? { ok: true, result: out.result } : { ok: false, error: out.error });
  } catch (error) {
    reply({ ok: false, error: { code: "timeout", message: String(error && error.message || error) } });
  } finally {
    clearTimeout(timer);
  }
}

function relay(ev) {
  const wid = ev.window_uuid || (ev.payload && ev.payload.window_uuid);
  for (const f of frames.values()) {
    if (!f.helloed) continue;
    // Its own events, app-wide ones, and sibling windows opening/closing (docs/app-runtime.md).
    const sibling = ev.kind === "open_view" || ev.kind === "close_view";
    if (wid === f.wid || !ev.window_uuid || sibling) f.iframe.contentWindow.postMessage({ type: "anna-app/event", event: ev }, "*");
  }
}

const events = new EventSource("/api/v1/anna-apps/runtime/events/stream");
events.addEventListener("data_model/AnnaAppEvent", (message) => {
  const ev = JSON.parse(message.data);
  row($("events"), "", ev.kind + " " + (ev.window_uuid || "") + " " + text(ev.payload));
  const f = frames.get(ev.window_uuid);
  if (ev.kind === "title_changed" && f) { f.title.textContent = ev.payload.title; sendReport(); }
  if (ev.kind === "runtime_state_synced") $("state").textContent = JSON.stringify(ev.payload.runtime_state, null, 2);
  if (ev.kind === "geometry_changed" && f && ev.payload.geometry) { f.iframe.width = String(ev.payload.geometry.w); f.iframe.height = String(ev.payload.geometry.h); }
  relay(ev);
  if (ev.kind === "close_view" && ev.window_uuid) removeFrame(ev.window_uuid);
  if (ev.kind === "open_view" && ev.window_uuid && !frames.has(ev.window_uuid)) void adopt(ev.window_uuid);
});

async function adopt(wid) {
  const res = await fetch(WINDOWS + "/" + wid);
  if (res.ok) { const out = await res.json(); addFrame({ ...out.window, url: out.url }); }
}

const dev = new EventSource("/dev/stream");
dev.addEventListener("call", (message) => {
  const c = JSON.parse(message.data);
  const tail = c.outcome === "allowed" ? text(c.result) : c.error.code + ": " + c.error.message;
  row($("calls"), c.outcome, c.ns + "." + c.method + " " + c.outcome + " " + c.ms + " ms " + text(c.args) + " → " + tail);
});
dev.addEventListener("executas", (message) => renderExecutas(JSON.parse(message.data)));
dev.addEventListener("reload", () => {
  for (const f of frames.values()) {
    f.helloed = false;
    void freshToken(f.wid).then((fresh) => {
      if (!fresh) return;
      const url = new URL(f.iframe.src);
      url.searchParams.set("t", fresh.token);
      f.iframe.src = url.toString();
    });
  }
  row($("events"), "", "bundle changed: reloaded");
});

function renderExecutas(list) {
  $("executas").textContent = "";
  for (const e of list) {
    const div = document.createElement("div");
    div.className = "row";
    div.textContent = e.tool_id + " — " + e.state + (e.stderr.length ? "\\n" + e.stderr.join("\\n") : "");
    $("executas").append(div);
  }
}

$("sim-payload").onclick = () => {
  const payload = JSON.parse(prompt("entry_payload JSON", "{}") || "{}");
  for (const f of frames.values()) f.iframe.contentWindow.postMessage({ type: "anna-app/event", name: "entry_payload", payload }, "*");
};
$("sim-refresh").onclick = async () => {
  for (const f of frames.values()) {
    const fresh = await freshToken(f.wid);
    if (fresh) f.iframe.contentWindow.postMessage({ type: "anna-app/event", name: "auth.refresh", payload: fresh }, "*");
  }
};

// The state comes inline so the frames exist before the load event (screenshots, fast paint).
const state = JSON.parse($("boot").textContent);
$("app-name").textContent = state.app.name + " (" + state.app.slug + ") — storage " + state.storage + ", LLM " + state.llm;
for (const view of state.app.views) {
  const b = document.createElement("button");
  b.textContent = "Open " + view;
  b.onclick = () => void openView(view);
  $("views").append(b);
}
renderExecutas(state.executas);
for (const c of state.calls) row($("calls"), c.outcome, c.ns + "." + c.method + " " + c.outcome + " " + c.ms + " ms");
for (const w of state.windows) addFrame(w);
if (state.windows[0]) $("state").textContent = JSON.stringify(state.windows[0].runtime_state, null, 2);
`;

/** The page with the harness state inlined (`<` escaped so no value can close the script). */
export function dashboardHtml(state: unknown): string {
  return DASHBOARD_HTML.replace("__BOOT_STATE__", JSON.stringify(state).replace(/</g, "\\u003c"));
}
