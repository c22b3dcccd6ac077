// A turn as the page shows it, folded from its event frames (agent/src/turns/types.ts TurnEvent,
// as Nexus streams them at /api/v1/chat/turns/{id}/events). The frames are typed loosely on
// purpose: the server is the source of truth and adds event types over time, so a frame whose
// type this page does not know is kept out of the answer instead of breaking it; only its
// `notices` (a list of strings), when it has one, are shown.

export type TurnStatus = "running" | "completed" | "cancelled" | "failed" | "step_limit";

export interface ToolCallPart {
  kind: "tool";
  callId: string;
  name: string;
  input: unknown;
  /** Absent until the tool's result frame arrives. */
  result?: { output: unknown; isError: boolean; durationMs: number | null };
}

export type TurnPart = { kind: "text"; text: string } | ToolCallPart;

export interface TurnProgress {
  turnId: string;
  /** The SSE `id:` of the last frame folded in: where a reconnect resumes. */
  lastSeq: number;
  status: TurnStatus;
  /** Text and tool calls in the order the model produced them. */
  parts: TurnPart[];
  notices: string[];
  activatedApps: string[];
  error: { code: string; message: string } | null;
}

/** Notices kept per turn; a server that sends more is cut, with the cut said. */
export const MAX_NOTICES = 20;

export function emptyProgress(turnId: string): TurnProgress {
  return {
    turnId,
    lastSeq: 0,
    status: "running",
    parts: [],
    notices: [],
    activatedApps: [],
    error: null,
  };
}

const FINISHED: ReadonlySet<string> = new Set(["completed", "cancelled", "failed", "step_limit"]);

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

const NOTICES_CUT = "More notices were sent than this page shows.";

function addNotices(notices: string[], more: string[]): string[] {
  if (more.length === 0 || notices.at(-1) === NOTICES_CUT) return notices;
  const next = [...notices, ...more];
  if (next.length <= MAX_NOTICES) return next;
  return [...next.slice(0, MAX_NOTICES - 1), NOTICES_CUT];
}

/**
 * Folds one frame into the turn. Frames at or before `lastSeq` are ones already seen (a
 * reconnect that overlapped) and change nothing. Pure: returns a new object when anything changed.
 */
export function foldFrame(p: TurnProgress, seq: number, frame: unknown): TurnProgress {
  if (seq <= p.lastSeq || typeof frame !== "object" || frame === null) return p;
  const e = frame as Record<string, unknown>;
  const next: TurnProgress = { ...p, lastSeq: seq };
  next.notices = addNotices(p.notices, strings(e.notices));
  switch (e.type) {
    case "turn.started":
      next.activatedApps = strings(e.activatedApps);
      return next;
    case "notice":
      if (typeof e.message === "string") next.notices = addNotices(next.notices, [e.message]);
      return next;
    case "text.delta": {
      if (typeof e.text !== "string" || e.text === "") return next;
      const last = p.parts.at(-1);
      next.parts =
        last?.kind === "text"
          ? [...p.parts.slice(0, -1), { kind: "text", text: last.text + e.text }]
          : [...p.parts, { kind: "text", text: e.text }];
      return next;
    }
    case "tool.call":
      next.parts = [
        ...p.parts,
        { kind: "tool", callId: String(e.callId), name: String(e.name), input: e.input },
      ];
      return next;
    case "tool.result": {
      const result = {
        output: e.output,
        isError: e.isError === true,
        durationMs: typeof e.durationMs === "number" ? e.durationMs : null,
      };
      const at = p.parts.findIndex((x) => x.kind === "tool" && x.callId === String(e.callId));
      next.parts =
        at === -1
          ? [
              ...p.parts,
              { kind: "tool", callId: String(e.callId), name: String(e.name), input: null, result },
            ]
          : p.parts.map((x, i) => (i === at && x.kind === "tool" ? { ...x, result } : x));
      return next;
    }
    case "turn.finished": {
      next.status = FINISHED.has(String(e.status)) ? (e.status as TurnStatus) : "failed";
      const err = e.error as { code?: unknown; message?: unknown } | undefined;
      next.error =
        err && typeof err.message === "string"
          ? { code: typeof err.code === "string" ? err.code : "unknown", message: err.message }
          : null;
      return next;
    }
    default:
      // step.started, step.finished and types this page does not know yet: nothing to show.
      return next;
  }
}

/** The answer's text so far (every text part joined), e.g. for a screen reader's summary. */
export function answerText(p: Pick<TurnProgress, "parts">): string {
  return p.parts.map((x) => (x.kind === "text" ? x.text : "")).join("");
}
