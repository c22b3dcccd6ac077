// The plugin inspector page (anna-app executa dev --ui): follows the server's event stream (a
// snapshot first, then frames, stderr, process state, tools and invokes) and drives the plugin
// through the JSON API. Everything the plugin sent is shown with textContent, never as HTML.
/* global document, EventSource -- a browser module: the page's globals */

const $ = (id) => document.getElementById(id);
/** Frame rows kept on the page, as on the server. */
const MAX_FRAME_ROWS = 500;
const MAX_STDERR_LINES = 500;

let tools = [];
let selected;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}

/** POSTs JSON; resolves the answer, or throws the server's own message. */
async function api(path, body = {}) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = answer.error ?? {};
    throw new Error(`${error.code ?? res.status}: ${error.message ?? res.statusText}`);
  }
  return answer;
}

// ---- header: state, restart, health --------------------------------------------------------

function renderProcess(p) {
  const badge = $("state");
  badge.textContent = p.state;
  badge.className = `badge ${p.state}`;
  const info = [p.pid ? `pid ${p.pid}` : "", p.protocol ? `protocol ${p.protocol}` : ""];
  if (p.reason && p.state !== "ready") info.push(p.reason);
  $("process-info").textContent = info.filter(Boolean).join(" · ");
  $("warnings").replaceChildren(...p.warnings.map((w) => el("li", { textContent: w })));
}

function renderStartError(message) {
  $("start-error").hidden = !message;
  $("start-error").textContent = message ? `The plugin did not start: ${message}` : "";
}

$("restart").addEventListener("click", async () => {
  $("restart").disabled = true;
  try {
    await api("/api/restart");
  } catch (error) {
    renderStartError(error.message);
  } finally {
    $("restart").disabled = false;
  }
});

$("health").addEventListener("click", async () => {
  try {
    const report = await api("/api/health");
    $("health-result").textContent = `${report.status} (${report.state})`;
  } catch (error) {
    $("health-result").textContent = error.message;
  }
});

// ---- tools and their forms ----------------------------------------------------------------------

function renderTools(list, startError) {
  renderStartError(startError);
  if (list === null) return;
  tools = list;
  const box = $("tools");
  box.replaceChildren(
    ...tools.map((tool) =>
      el("button", {
        type: "button",
        textContent: tool.name,
        title: tool.description,
        dataset: { tool: tool.name },
        onclick: () => selectTool(tool.name),
      }),
    ),
  );
  if (tools.length === 0) box.textContent = "(the plugin declares no tools)";
  const keep = tools.find((t) => t.name === selected) ?? tools[0];
  if (keep) selectTool(keep.name);
}

function selectTool(name) {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return;
  selected = name;
  for (const b of $("tools").querySelectorAll("button")) {
    b.classList.toggle("selected", b.dataset.tool === name);
  }
  $("tool-form").hidden = false;
  $("form-title").textContent = tool.name;
  $("form-description").textContent = [tool.description, ...tool.warnings]
    .filter(Boolean)
    .join(" — ");
  $("fields").replaceChildren(...tool.fields.map(fieldRow));
  $("form-errors").hidden = true;
  syncRaw();
}

const UNSET = "";

/** One labelled input for a declared parameter; `data-type` drives the value it reads as. */
function fieldRow(field) {
  const id = `arg-${field.name}`;
  const label = el(
    "label",
    { htmlFor: id },
    field.name,
    " ",
    el("span", { class: "type", textContent: typeLabel(field) }),
    field.required ? el("span", { class: "required", textContent: " *" }) : undefined,
  );
  const input = inputFor(field);
  input.id = id;
  input.name = field.name;
  input.dataset.type = field.enum ? "enum" : field.type;
  input.addEventListener("input", syncRaw);
  input.addEventListener("change", syncRaw);
  const hint = field.description
    ? el("div", { class: "hint", textContent: field.description })
    : undefined;
  return el("div", { class: "field", dataset: { field: field.name } }, label, input, hint);
}

function typeLabel(field) {
  if (field.type === "array")
    return field.items ? `array of ${field.items} (JSON)` : "array (JSON)";
  if (field.type === "object" || field.type === "any") return `${field.type} (JSON)`;
  return field.enum ? `${field.type}, one of` : field.type;
}

function inputFor(field) {
  const has = field.default !== undefined;
  if (field.enum || field.type === "boolean") {
    const values = field.enum ?? [true, false];
    const select = el("select");
    if (!field.required) select.append(el("option", { value: UNSET, textContent: "(not set)" }));
    values.forEach((v, i) =>
      select.append(
        el("option", {
          value: String(i),
          textContent: typeof v === "string" ? v : JSON.stringify(v),
        }),
      ),
    );
    const index = has
      ? values.findIndex((v) => JSON.stringify(v) === JSON.stringify(field.default))
      : -1;
    if (index >= 0) select.value = String(index);
    select.enumValues = values;
    return select;
  }
  if (field.type === "array" || field.type === "object" || field.type === "any") {
    const area = el("textarea", { rows: 3, spellcheck: false });
    area.placeholder =
      field.type === "array"
        ? '["a", "b"]'
        : field.type === "object"
          ? '{"key": "value"}'
          : "any JSON value";
    if (has) area.value = JSON.stringify(field.default, null, 2);
    return area;
  }
  const input = el("input", { type: field.type === "string" ? "text" : "number" });
  if (field.type === "integer") input.step = "1";
  if (field.type === "number") input.step = "any";
  if (has) input.value = String(field.default);
  return input;
}

/** The arguments the form says, or the problems that stop it saying any. */
function readForm() {
  const tool = tools.find((t) => t.name === selected);
  const args = {};
  const errors = [];
  for (const field of tool?.fields ?? []) {
    const input = $(`arg-${field.name}`);
    const row = input.closest(".field");
    const problem = readField(field, input, args);
    row.classList.toggle("invalid", problem !== undefined);
    if (problem) errors.push(`${field.name}: ${problem}`);
  }
  return { args, errors };
}

function readField(field, input, args) {
  const raw = input.value;
  const type = input.dataset.type;
  if (type === "enum" || type === "boolean") {
    if (raw === UNSET) return field.required ? "required: pick a value" : undefined;
    args[field.name] = input.enumValues[Number(raw)];
    return undefined;
  }
  if (raw.trim() === "") {
    if (!field.required) return undefined;
    if (type === "string") {
      args[field.name] = "";
      return undefined;
    }
    return "required";
  }
  if (type === "string") {
    args[field.name] = raw;
    return undefined;
  }
  if (type === "number" || type === "integer") {
    const n = Number(raw);
    if (!Number.isFinite(n)) return `expects a number, got ${JSON.stringify(raw)}`;
    if (type === "integer" && !Number.isInteger(n)) return `expects an integer, got ${raw}`;
    args[field.name] = n;
    return undefined;
  }
  let value;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return `is not JSON (${error.message})`;
  }
  if (type === "array" && !Array.isArray(value)) return "expects a JSON array, e.g. [1, 2]";
  if (type === "object" && (value === null || typeof value !== "object" || Array.isArray(value))) {
    return 'expects a JSON object, e.g. {"key": "value"}';
  }
  args[field.name] = value;
  return undefined;
}

function syncRaw() {
  const { args, errors } = readForm();
  if (errors.length === 0) $("raw-args").value = JSON.stringify(args, null, 2);
}

$("tool-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const { args, errors } = readForm();
  $("form-errors").hidden = errors.length === 0;
  $("form-errors").textContent = errors.join("\n");
  if (errors.length === 0) void runInvoke("/api/invoke", { tool: selected, arguments: args });
});

$("invoke-raw").addEventListener("click", () => {
  let args;
  try {
    args = JSON.parse($("raw-args").value || "{}");
  } catch (error) {
    $("form-errors").hidden = false;
    $("form-errors").textContent = `the JSON arguments do not parse: ${error.message}`;
    return;
  }
  $("form-errors").hidden = true;
  void runInvoke("/api/invoke", { tool: selected, arguments: args });
});

async function runInvoke(path, body = {}) {
  const button = $("invoke");
  const cancel = $("cancel-invoke");
  const run = globalThis.crypto.randomUUID();
  button.disabled = true;
  cancel.hidden = false;
  cancel.disabled = false;
  cancel.onclick = () => {
    cancel.disabled = true;
    // The invoke's own answer (error ABORTED) is what the result box then shows.
    api("/api/invoke/cancel", { run }).catch((error) => showResult({ failure: error.message }));
  };
  showResult({ pending: true });
  try {
    const { entry } = await api(path, { ...body, run });
    showResult(entry);
  } catch (error) {
    showResult({ failure: error.message });
  } finally {
    button.disabled = false;
    cancel.hidden = true;
  }
}

function showResult(entry) {
  $("result-box").hidden = false;
  const status = $("result-status");
  const pre = $("result");
  $("result-duration").textContent =
    entry.duration_ms === undefined ? "" : `${entry.duration_ms} ms`;
  if (entry.pending) {
    status.textContent = "…";
    pre.className = "";
    pre.textContent = "waiting for the plugin";
    return;
  }
  if (entry.failure) {
    status.textContent = "not invoked";
    pre.className = "failed";
    pre.textContent = entry.failure;
    return;
  }
  const o = entry.outcome;
  status.textContent = `${entry.tool}: ${o.ok ? "ok" : o.kind === "tool_failed" ? "tool failed" : `error ${o.error.code}`}`;
  pre.className = o.ok ? "ok" : "failed";
  pre.dataset.historyId = String(entry.id);
  pre.textContent = o.ok
    ? JSON.stringify(o.data, null, 2)
    : o.kind === "tool_failed"
      ? [o.error, o.data === undefined ? "" : JSON.stringify(o.data, null, 2)]
          .filter(Boolean)
          .join("\n")
      : JSON.stringify(o.error, null, 2);
}

// ---- history --------------------------------------------------------------------------------

function addHistory(entry) {
  const list = $("history");
  if (list.querySelector(`[data-id="${entry.id}"]`)) return;
  const o = entry.outcome;
  const verdict = o.ok ? "ok" : o.kind === "tool_failed" ? "failed" : `error ${o.error.code}`;
  const saved = el("span", { class: "hint" });
  const row = el(
    "li",
    { dataset: { id: String(entry.id) } },
    `${new Date(entry.at).toLocaleTimeString()} ${entry.tool} ${JSON.stringify(entry.arguments)} → ${verdict} (${entry.duration_ms} ms)`,
    el("button", {
      type: "button",
      textContent: "Re-run",
      className: "rerun",
      onclick: () => void runInvoke(`/api/history/${entry.id}/rerun`),
    }),
    el("button", {
      type: "button",
      textContent: "Save as test case",
      className: "save",
      onclick: async () => {
        try {
          const answer = await api(`/api/history/${entry.id}/save`);
          saved.textContent = ` saved ${answer.path}`;
        } catch (error) {
          saved.textContent = ` ${error.message}`;
        }
      },
    }),
    el("button", {
      type: "button",
      textContent: "Save as mock",
      className: "save-mock",
      onclick: async () => {
        try {
          const answer = await api(`/api/history/${entry.id}/save-mock`);
          const left = answer.skipped.length ? `; left out: ${answer.skipped.join("; ")}` : "";
          saved.textContent = ` ${answer.lines} host calls saved to ${answer.path}${left}`;
        } catch (error) {
          saved.textContent = ` ${error.message}`;
        }
      },
    }),
    saved,
  );
  list.prepend(row);
}

// ---- frames and stderr ------------------------------------------------------------------------

function addFrame(f) {
  const trace = $("trace");
  const dir = f.direction === "out" ? "host → plugin" : "plugin → host";
  const what =
    f.kind === "request" || f.kind === "notification"
      ? f.method
      : `${f.kind === "error" ? "error" : "result"}${f.method ? ` of ${f.method}` : ""}`;
  const meta = [
    f.id === undefined ? "" : `#${f.id}`,
    `${f.bytes} B`,
    f.latency_ms === undefined ? "" : `${f.latency_ms} ms`,
    f.file_transport ? `via file` : "",
  ].filter(Boolean);
  const body =
    f.message !== undefined
      ? JSON.stringify(f.message, null, 2)
      : `${f.preview}… (+${f.chars - f.preview.length} chars)`;
  const row = el(
    "details",
    {
      class: `frame ${f.direction} ${f.kind}${f.reverse ? " reverse" : ""}`,
      dataset: { seq: String(f.seq), direction: f.direction, method: f.method ?? "", kind: f.kind },
    },
    el(
      "summary",
      {},
      el("span", { class: "dir", textContent: dir }),
      " ",
      el("span", { class: "what", textContent: what ?? "?" }),
      " ",
      el("span", { class: "meta", textContent: meta.join(" · ") }),
    ),
    el("pre", { textContent: body }),
  );
  const atBottom = trace.scrollTop + trace.clientHeight >= trace.scrollHeight - 4;
  trace.append(row);
  while (trace.childElementCount > MAX_FRAME_ROWS) trace.firstElementChild.remove();
  if (atBottom) trace.scrollTop = trace.scrollHeight;
}

$("trace-reverse-only").addEventListener("change", (event) => {
  $("trace").classList.toggle("reverse-only", event.target.checked);
});
$("trace-clear").addEventListener("click", () => $("trace").replaceChildren());

const stderrLines = [];
function addStderr(line) {
  stderrLines.push(line);
  if (stderrLines.length > MAX_STDERR_LINES) stderrLines.shift();
  $("stderr").textContent = stderrLines.join("\n");
  $("stderr").scrollTop = $("stderr").scrollHeight;
}

// ---- storage: the rows the plugin's storage/* calls read and write ---------------------------

let storageOn = true;
let storageRefresh;

function showStorageError(message) {
  $("storage-error").hidden = !message;
  $("storage-error").textContent = message ?? "";
}

async function loadStorage() {
  if (!storageOn) return;
  try {
    const page = await api("/api/storage/list", { scope: $("storage-scope").value });
    $("storage-rows").replaceChildren(
      ...page.items.map((item) => {
        const open = el("button", { type: "button", class: "link", textContent: item.key });
        open.addEventListener("click", () => void openStorageKey(item.key));
        return el(
          "tr",
          {},
          el("td", {}, open),
          el("td", { textContent: String(item.size_bytes ?? "") }),
          el("td", { textContent: item.updated_at ?? "" }),
        );
      }),
    );
    // Only a note of its own: a refresh must not wipe what the form just said.
    if (page.next_cursor) showStorageError("more keys than shown: the first 200 are listed");
  } catch (error) {
    showStorageError(error.message);
  }
}

async function openStorageKey(key) {
  try {
    const row = await api("/api/storage/get", { scope: $("storage-scope").value, key });
    $("storage-key").value = key;
    $("storage-value").value = row.exists ? JSON.stringify(row.value, null, 2) : "";
    $("storage-etag").textContent = row.exists ? `etag ${row.etag}` : "not stored";
    showStorageError("");
  } catch (error) {
    showStorageError(error.message);
  }
}

$("storage-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  let value;
  try {
    value = JSON.parse($("storage-value").value);
  } catch (error) {
    showStorageError(`The value is not JSON: ${error.message}`);
    return;
  }
  try {
    const key = $("storage-key").value;
    const saved = await api("/api/storage/set", { scope: $("storage-scope").value, key, value });
    $("storage-etag").textContent = `saved, etag ${saved.etag}`;
    showStorageError("");
    await loadStorage();
  } catch (error) {
    showStorageError(error.message);
  }
});

$("storage-delete").addEventListener("click", async () => {
  try {
    const key = $("storage-key").value;
    const out = await api("/api/storage/delete", { scope: $("storage-scope").value, key });
    $("storage-etag").textContent = out.deleted ? "deleted" : "was not stored";
    $("storage-value").value = "";
    showStorageError("");
    await loadStorage();
  } catch (error) {
    showStorageError(error.message);
  }
});

$("storage-scope").addEventListener("change", () => void loadStorage());
$("storage-refresh").addEventListener("click", () => void loadStorage());

/** A storage/* call of the plugin's changes the rows: refresh once its answer went back. */
function followStorageFrames(f) {
  if (!storageOn || f.direction !== "out" || f.kind === "request") return;
  if (!(f.method ?? "").startsWith("storage/")) return;
  clearTimeout(storageRefresh);
  storageRefresh = setTimeout(() => void loadStorage(), 100);
}

// ---- the stream ---------------------------------------------------------------------------------

let snapshot;

function renderCredentials(list) {
  const rows = list.map((c) => {
    const input = el("input", {
      type: "password",
      autocomplete: "off",
      placeholder: c.source === "unset" ? "value" : "new value",
      "aria-label": `value of ${c.name}`,
    });
    const set = async (value) => {
      try {
        const answer = await api("/api/credentials", { name: c.name, value });
        renderCredentials(answer.credentials);
      } catch (error) {
        status.textContent = error.message;
      }
    };
    const status = el("span", {
      class: "hint",
      textContent: c.source === "unset" ? "not set" : `set (${c.source})`,
    });
    return el(
      "tr",
      { dataset: { credential: c.name } },
      el("td", {}, el("code", { textContent: c.name }), c.required ? " (required)" : ""),
      el("td", {}, status),
      el("td", {}, input),
      el(
        "td",
        {},
        el("button", {
          type: "button",
          textContent: "Set",
          className: "set",
          onclick: () => input.value && void set(input.value),
        }),
        el("button", {
          type: "button",
          textContent: "Clear",
          className: "clear",
          onclick: () => void set(null),
        }),
      ),
    );
  });
  $("credential-rows").replaceChildren(...rows);
  $("credentials").hidden = list.length === 0;
}

function renderServices() {
  const services = Object.entries(snapshot.services).map(([k, v]) => `${k}=${v}`);
  if (snapshot.not_granted.length) services.push(`not granted: ${snapshot.not_granted.join(", ")}`);
  $("services").textContent = `${snapshot.command.join(" ")} — ${services.join("  ")}`;
}

function renderSnapshot(s) {
  snapshot = s;
  $("tool-id").textContent = s.tool_id;
  document.title = `${s.tool_id} — inspector`;
  renderServices();
  renderCredentials(s.credentials);
  const family = $("service-family");
  if (family.options.length === 0) {
    family.replaceChildren(...s.switchable.map((f) => el("option", { value: f, textContent: f })));
  }
  renderProcess(s.process);
  renderTools(s.tools, s.start_error);
  $("trace").replaceChildren();
  for (const f of s.frames) addFrame(f);
  stderrLines.length = 0;
  for (const line of s.stderr) addStderr(line);
  $("history").replaceChildren();
  for (const h of s.history) addHistory(h);
  storageOn = s.storage;
  $("storage-off").hidden = storageOn;
  $("storage-table").hidden = !storageOn;
  $("storage-form").hidden = !storageOn;
  void loadStorage();
}

const on = (source, event, handler) =>
  source.addEventListener(event, (e) => handler(JSON.parse(e.data)));
const events = new EventSource("/api/events");
on(events, "snapshot", renderSnapshot);
on(events, "frame", (f) => {
  addFrame(f);
  followStorageFrames(f);
});
on(events, "stderr", addStderr);
on(events, "process", renderProcess);
on(events, "tools", (t) => {
  renderTools(t.tools, t.start_error);
  renderCredentials(t.credentials);
});
on(events, "history", addHistory);
on(events, "credentials", (c) => renderCredentials(c.credentials));
on(events, "services", (s) => {
  if (snapshot === undefined) return;
  snapshot.services = s.services;
  renderServices();
});

$("service-mode").addEventListener("change", () => {
  const mode = $("service-mode").value;
  const field = $("service-fixture");
  // A real switch may name the dev app its sessions are for; a mock one needs its file.
  field.hidden = mode !== "mock" && mode !== "real";
  field.placeholder = mode === "real" ? "app slug (optional)" : "fixtures/sampling.jsonl";
  field.setAttribute("aria-label", mode === "real" ? "app slug" : "mock-answer file");
});
$("service-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const family = $("service-family").value;
  const mode = $("service-mode").value;
  const body = {
    family,
    mode,
    ...(mode === "mock" ? { fixture: $("service-fixture").value } : {}),
    ...(mode === "real" && $("service-fixture").value.trim() !== ""
      ? { app_slug: $("service-fixture").value.trim() }
      : {}),
  };
  const result = $("service-result");
  try {
    const { services } = await api("/api/services", body);
    result.className = "";
    result.textContent = `${family}: ${services[family]}`;
  } catch (error) {
    result.className = "error";
    result.textContent = error.message;
  }
});
events.addEventListener("error", () => {
  $("state").textContent = "disconnected";
  $("state").className = "badge stopped";
});
