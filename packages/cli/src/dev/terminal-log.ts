// The terminal's account of an `anna-app dev` session: one line per Host API call (refusals
// highlighted with the fix the error names, as the panel shows them), per live reload and per
// executa restart. Heartbeats that pass are left out, as the panel hides them by default: one
// every 10 s per window would bury everything else.
import type { Style } from "../cli/style.js";
import type { CallEntry, DevActivity, DevPanel } from "./dev-panel.js";

/** Arguments in a call's line are cut here; the panel has the full payload. */
const ARGS_MAX_CHARS = 60;

export function followActivity(
  panel: DevPanel,
  write: (line: string) => void,
  style: Style,
): () => void {
  return panel.onActivity((activity) => {
    const line = activityLine(activity, style);
    if (line !== undefined) write(`${style.dim(clock(Date.now()))} ${line}\n`);
  });
}

/** The line for one happening, or `undefined` for what the terminal leaves out. */
export function activityLine(activity: DevActivity, style: Style): string | undefined {
  if (activity.kind === "call") return callLine(activity.entry, style);
  const data = (activity.data ?? {}) as Record<string, unknown>;
  switch (activity.event) {
    case "reload":
      return "bundle changed: windows reloaded";
    case "executa_restarted":
      return `executa ${String(data["tool_id"])}: source changed, restarts on its next call`;
    case "fixture_replay":
      return `replayed ${String(data["file"])}: ${String(data["matched"])} match, ${String(data["differed"])} differ, ${String(data["skipped"])} skipped`;
    default:
      return undefined;
  }
}

function callLine(entry: CallEntry, style: Style): string | undefined {
  const name = `${entry.ns}.${entry.method}`;
  if (name === "window.heartbeat" && entry.outcome === "allowed") return undefined;
  const head = `${name} ${entry.outcome} ${entry.ms} ms`;
  if (entry.outcome === "allowed") {
    const args = cut(JSON.stringify(entry.args ?? {}));
    const line = `${style.green(head)} ${args}`;
    return entry.warning === undefined ? line : `${line}\n  ${style.yellow(`! ${entry.warning}`)}`;
  }
  const paint = entry.outcome === "denied" ? style.yellow : style.red;
  const why = `${entry.error?.code ?? "error"}: ${entry.error?.message ?? ""}`;
  return paint(style.bold(`${head} → ${why}`));
}

function cut(text: string): string {
  return text.length > ARGS_MAX_CHARS ? `${text.slice(0, ARGS_MAX_CHARS - 1)}…` : text;
}

function clock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}
