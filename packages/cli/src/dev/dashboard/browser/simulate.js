// The panel's "simulate an event" form: pick a kind, a target window and a JSON payload (checked
// as you type). AnnaAppEvent kinds go through the harness (POST /dev/api/events: validated
// against the kind's schema, published on the event stream, recorded, relayed like any event);
// the page-local `entry_payload` and `auth.refresh` are posted to the iframe by this page
// (docs/app-runtime.md part 2) once the harness has recorded them (and minted the token). The kinds, their scope and starting payloads come from the
// harness (dashboard/simulate-event.ts).
/* global document, Option -- a browser module: the page's globals */
import { allFrames, desk, focusedFrame, frameById, onFramesChanged } from "./frames.js";
import { publishEvent } from "./harness-api.js";
import { jsonErrorPosition } from "./json-position.js";
import { logEvent } from "./panel.js";

const $ = (id) => document.getElementById(id);

export function initSimulate(kinds) {
  const form = $("simulate");
  const kind = $("sim-kind");
  const target = $("sim-target");
  const payload = $("sim-payload");
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  for (const k of kinds)
    kind.append(new Option(k.kind + (k.scope === "app" ? " (app-wide)" : ""), k.kind));

  const spec = () => byKind.get(kind.value);
  const feedback = (text, ok) => {
    $("sim-feedback").textContent = text;
    $("sim-feedback").className = ok ? "ok" : "bad";
  };

  const renderTargets = () => {
    const keep = target.value;
    target.textContent = "";
    if (spec()?.scope === "app") target.append(new Option("every window of the app", ""));
    for (const f of allFrames()) {
      const label = `${f.title} — ${f.view} ${f.wid.slice(0, 8)}${f.status === "minimized" ? " (minimised)" : ""}`;
      target.append(new Option(label, f.wid));
    }
    const options = [...target.options].map((o) => o.value);
    target.value = options.includes(keep) ? keep : (focusedFrame()?.wid ?? options[0] ?? "");
  };

  /** The payload as a value, or undefined after showing what is wrong with it. */
  const parsed = () => {
    const s = spec();
    if (s?.delivery === "mint") return {};
    try {
      const value = JSON.parse(payload.value);
      if (s?.object && (typeof value !== "object" || value === null || Array.isArray(value))) {
        throw new Error(
          `a ${s.kind} payload is a JSON object, not ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`,
        );
      }
      payload.classList.remove("invalid");
      feedback("valid JSON", true);
      return { value };
    } catch (error) {
      payload.classList.add("invalid");
      feedback(describeJsonError(error, payload.value), false);
      return undefined;
    }
  };

  const selectKind = () => {
    const s = spec();
    const minted = s?.delivery === "mint";
    payload.disabled = minted;
    payload.value = minted ? "" : JSON.stringify(s?.template ?? {}, null, 2);
    payload.placeholder = minted ? "{token, expires_in}: minted by the harness for the window" : "";
    renderTargets();
    parsed();
  };

  kind.addEventListener("change", selectKind);
  payload.addEventListener("input", () => parsed());
  onFramesChanged(renderTargets);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = parsed();
    if (value !== undefined) void send(spec(), target.value, value.value, feedback);
  });
  selectKind();
}

async function send(spec, wid, payload, feedback) {
  if (spec.delivery === "harness") {
    const out = await publishEvent(spec.kind, wid || null, payload);
    if (out.ok) feedback(`published ${spec.kind}`, true);
    else feedback(`${out.error.code}: ${out.error.message}`, false);
    return;
  }
  const frame = frameById(wid);
  if (!frame?.iframe || !frame.helloed) {
    feedback(
      `window ${wid || "(none)"} is not connected (closed, minimised or not yet helloed)`,
      false,
    );
    return;
  }
  // The harness records the event (and mints auth.refresh's token) before the page posts it.
  const out = await publishEvent(spec.kind, wid, payload);
  if (!out.ok) return feedback(`${out.error.code}: ${out.error.message}`, false);
  const sent = out.page_event.payload;
  desk().postNamedEvent(wid, spec.kind, sent);
  logEvent(`simulated ${spec.kind} → ${wid}`, {
    name: spec.kind,
    window_uuid: wid,
    payload: spec.delivery === "mint" ? { expires_in: sent.expires_in } : sent,
  });
  feedback(`sent ${spec.kind} to ${wid.slice(0, 8)}`, true);
}

/** `JSON.parse`'s message with the line and column where the text stops being JSON. */
function describeJsonError(error, text) {
  const message = String(error?.message ?? error);
  const at = jsonErrorPosition(text);
  return at === undefined ? message : `${message} (line ${at.line}, column ${at.column})`;
}
