// A tool call as a card: its name and state in the summary line, collapsed by default; opened,
// the arguments and the result (or the error) as JSON. Durations come from the live stream;
// a call read back from the stored conversation has none, and the card says so.
import type { ToolCallPart } from "./turn-progress";

/** Longest JSON shown per field; a bigger argument or result is cut, saying how much was. */
const MAX_JSON_CHARS = 20_000;

function json(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= MAX_JSON_CHARS) return text;
  return `${text.slice(0, MAX_JSON_CHARS)}\n… (${text.length - MAX_JSON_CHARS} more characters not shown)`;
}

function stateOf(call: ToolCallPart, turnRunning: boolean): { label: string; css: string } {
  if (!call.result) {
    return turnRunning
      ? { label: "running", css: "running" }
      : { label: "no result", css: "error" };
  }
  return call.result.isError ? { label: "error", css: "error" } : { label: "done", css: "done" };
}

export function ToolCard({ call, turnRunning }: { call: ToolCallPart; turnRunning: boolean }) {
  const state = stateOf(call, turnRunning);
  const duration = call.result?.durationMs;
  return (
    <details className={`tool-card tool-${state.css}`} aria-label={`Tool call ${call.name}`}>
      <summary>
        <span className="tool-name">{call.name}</span>
        <span className={`badge tool-state-${state.css}`}>{state.label}</span>
        {duration !== undefined && duration !== null && (
          <span className="meta">{formatDuration(duration)}</span>
        )}
      </summary>
      <div className="tool-body">
        <h3>Arguments</h3>
        <pre>{json(call.input)}</pre>
        {call.result && (
          <>
            <h3>{call.result.isError ? "Error" : "Result"}</h3>
            <pre className={call.result.isError ? "error-output" : undefined}>
              {json(call.result.output)}
            </pre>
            {call.result.durationMs === null && (
              <p className="meta">Duration not recorded for earlier turns.</p>
            )}
          </>
        )}
      </div>
    </details>
  );
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
