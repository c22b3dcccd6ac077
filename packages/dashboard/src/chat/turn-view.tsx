// One turn on screen: the user's message, then the answer's text (Markdown) and tool cards in
// the order they came, the notices, and how it ended when it did not simply complete: the
// error line and Retry for a failed, cancelled or cut-short turn.
import type { ChatAttachment } from "../api/types";
import { AttachmentChips } from "./attachment-chips";
import { Markdown } from "./markdown";
import { ToolCard } from "./tool-card";
import type { TurnPart, TurnStatus } from "./turn-progress";

export interface TurnViewProps {
  userText: string;
  /** The files the message sent. */
  attachments?: readonly ChatAttachment[];
  parts: TurnPart[];
  notices: string[];
  /** Undefined while it is not known yet (a stored turn whose status is being asked for). */
  status: TurnStatus | undefined;
  error: { code: string; message: string } | null;
  /** The live turn: its answer is a polite live region, busy while it streams. */
  live: boolean;
  /** Offered for a turn that did not complete; absent while another turn runs. */
  onRetry?: (() => void) | undefined;
}

const ENDINGS: Partial<Record<TurnStatus, string>> = {
  cancelled: "Cancelled.",
  failed: "This turn failed",
  step_limit: "Stopped: the turn used every step it may.",
};

export function TurnView(props: TurnViewProps) {
  const { userText, attachments = [], parts, notices, status, error, live, onRetry } = props;
  const running = status === "running";
  const ending = status ? ENDINGS[status] : undefined;
  return (
    <li className="turn">
      <div className="bubble user">
        <span className="visually-hidden">You said: </span>
        <p className="prose">{userText}</p>
        {attachments.length > 0 && (
          <AttachmentChips
            label="Attached files"
            items={attachments.map((a) => ({ key: a.id, name: a.name, bytes: a.size_bytes }))}
          />
        )}
      </div>
      {notices.length > 0 && (
        <ul className="notices" aria-label="Notices">
          {notices.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      <div
        className={`bubble answer${running ? " streaming" : ""}`}
        aria-live={live ? "polite" : undefined}
        aria-busy={live ? running : undefined}
        aria-label="Anna's answer"
        role={live ? "region" : undefined}
      >
        {parts.map((p, i) =>
          p.kind === "text" ? (
            <Markdown key={i} text={p.text} />
          ) : (
            <ToolCard key={p.callId} call={p} turnRunning={running} />
          ),
        )}
        {running && parts.length === 0 && <p className="meta">Anna is thinking…</p>}
      </div>
      {ending && (
        <div className="turn-end">
          <p
            className={status === "cancelled" ? "meta" : "error"}
            role={live ? "alert" : undefined}
          >
            {status === "failed"
              ? `${ending}: ${error?.message ?? "the server gave no reason"}`
              : ending}
          </p>
          {onRetry && (
            <button type="button" onClick={onRetry} aria-label={`Retry: ${userText.slice(0, 60)}`}>
              Retry
            </button>
          )}
        </div>
      )}
    </li>
  );
}
