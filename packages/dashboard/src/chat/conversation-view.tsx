// One conversation: its turns read back from the server, the running turn following its stream
// (use-turn-stream.ts), the composer, and Cancel while a turn runs. The log keeps the newest
// line in view while an answer grows, unless the reader scrolled up to read something older;
// the answer's box has a minimum height from the start, so the first words move nothing.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import {
  type Outgoing,
  useCancelTurn,
  useConversation,
  useSendMessage,
  useTurnFinished,
} from "../api/chat";
import type { ChatAttachment, TurnInfo } from "../api/types";
import { ErrorNote, Loading, PageTitle } from "../components/status";
import { ActivatedApps } from "../windows/activated-apps";
import { Composer } from "./composer";
import { DeleteConversation } from "./delete-conversation";
import { type StoredTurn, turnsOf } from "./history";
import { TurnView } from "./turn-view";
import { useTurnStream } from "./use-turn-stream";

/** How close to the bottom (px) still counts as "reading the newest line". */
const STICK_TO_BOTTOM_PX = 48;

interface LiveTurn {
  turnId: string;
  /** What was sent, shown before the stored conversation has it. */
  userText: string;
  attachments?: ChatAttachment[];
}

/**
 * Turns started on another page of this tab (the first message typed on `/chat`), to follow
 * from their first frame when their conversation opens, even if they ended in between.
 */
const handedOver = new Map<string, LiveTurn>();

export function followTurn(conversationId: string, turn: LiveTurn): void {
  handedOver.set(conversationId, turn);
}

export function ConversationView({ id }: { id: string }) {
  const conversation = useConversation(id);
  const send = useSendMessage(id);
  const [live, setLive] = useState<LiveTurn | null>(() => {
    const turn = handedOver.get(id) ?? null;
    handedOver.delete(id);
    return turn;
  });
  const log = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  // After a reload the server says which turn is still running: follow it.
  const runningId = conversation.data?.running_turn_id ?? null;
  useEffect(() => {
    if (runningId !== null && live?.turnId !== runningId)
      setLive({ turnId: runningId, userText: "" });
  }, [runningId, live?.turnId]);

  const turns = conversation.data ? turnsOf(conversation.data.messages) : [];
  const infoOf = new Map(conversation.data?.turns.map((t) => [t.turn_id, t]));

  const [liveRunning, setLiveRunning] = useState(false);
  const busy = send.isPending || liveRunning;
  const start = (outgoing: Outgoing) => {
    atBottom.current = true;
    send.mutate(outgoing, {
      onSuccess: (r) =>
        setLive({ turnId: r.turnId, userText: outgoing.text, attachments: r.attachments }),
    });
  };
  // A retry sends the text again; the files it had stay in the conversation for the model.
  const retry = (text: string) => start({ text, files: [] });

  const onLogScroll = () => {
    const el = log.current;
    if (el)
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
  };
  const keepNewestInView = () => {
    const el = log.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  };
  useLayoutEffect(keepNewestInView, [conversation.data]);

  if (conversation.isPending) return <Loading what="the conversation" />;
  if (conversation.error) return <ErrorNote error={conversation.error} />;
  const { title, truncated } = conversation.data;
  const liveStored = live ? turns.find((t) => t.turnId === live.turnId) : undefined;

  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <div className="conversation-head">
        <PageTitle>
          <span id="conversation-title">{title ?? "New conversation"}</span>
        </PageTitle>
        <DeleteConversation id={id} title={title ?? "New conversation"} />
      </div>
      <div className="chat-log" ref={log} onScroll={onLogScroll} tabIndex={0} aria-label="Messages">
        {truncated && <p className="meta">Older messages are not shown.</p>}
        {turns.length === 0 && !live && <p className="meta">No messages yet. Say hello.</p>}
        <ol className="turns">
          {turns
            .filter((t) => t.turnId !== live?.turnId)
            .map((t) => (
              <StoredTurnView
                key={t.turnId}
                turn={t}
                info={infoOf.get(t.turnId)}
                onRetry={busy ? undefined : () => retry(t.userText)}
              />
            ))}
          {live && (
            <LiveTurnView
              key={live.turnId}
              conversationId={id}
              turnId={live.turnId}
              userText={liveStored?.userText || live.userText}
              attachments={liveStored?.attachments ?? live.attachments ?? []}
              onRunning={setLiveRunning}
              onChange={keepNewestInView}
              onRetry={busy ? undefined : retry}
            />
          )}
        </ol>
      </div>
      <ErrorNote error={send.error} />
      <Composer busy={busy} onSend={start} />
    </section>
  );
}

function StoredTurnView({
  turn,
  info,
  onRetry,
}: {
  turn: StoredTurn;
  info: TurnInfo | undefined;
  onRetry: (() => void) | undefined;
}) {
  const status = info?.status;
  return (
    <TurnView
      userText={turn.userText}
      attachments={turn.attachments}
      parts={turn.parts}
      notices={[]}
      status={status}
      error={info?.error ?? null}
      live={false}
      onRetry={status && status !== "completed" && status !== "running" ? onRetry : undefined}
    />
  );
}

function LiveTurnView(props: {
  conversationId: string;
  turnId: string;
  userText: string;
  attachments: readonly ChatAttachment[];
  onRunning: (running: boolean) => void;
  onChange: () => void;
  onRetry: ((text: string) => void) | undefined;
}) {
  const { conversationId, turnId, userText, attachments, onRunning, onChange, onRetry } = props;
  const { progress, streamError } = useTurnStream(turnId);
  const cancel = useCancelTurn();
  const finished = useTurnFinished(conversationId);
  const running = progress.status === "running" && streamError === null;

  useEffect(() => {
    onRunning(running);
    return () => onRunning(false);
  }, [running, onRunning]);
  useEffect(() => {
    if (progress.status !== "running") void finished();
    // Only the end of the turn matters here, not every frame.
  }, [progress.status, turnId]);
  useLayoutEffect(onChange, [progress, onChange]);

  return (
    <>
      <TurnView
        userText={userText}
        attachments={attachments}
        parts={progress.parts}
        notices={progress.notices}
        status={progress.status}
        error={progress.error}
        live
        onRetry={onRetry && userText !== "" ? () => onRetry(userText) : undefined}
      />
      <ActivatedApps appIds={progress.activatedApps} conversationId={conversationId} />
      {running && (
        <li className="turn-controls">
          <button
            type="button"
            className="danger"
            onClick={() => cancel.mutate(turnId)}
            disabled={cancel.isPending}
          >
            Cancel
          </button>
          <span className="meta" role="status">
            Anna is answering…
          </span>
        </li>
      )}
      {streamError && (
        <li>
          <p className="error" role="alert">
            {streamError}
          </p>
        </li>
      )}
      {cancel.error !== null && (
        <li>
          <ErrorNote error={cancel.error} />
        </li>
      )}
    </>
  );
}
