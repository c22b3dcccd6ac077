// The chat: the signed-in person's conversations, newest first, beside the open one. `/chat`
// (and `/` when signed in) opens none: a message typed there starts a new conversation.
// Loaded lazily (app.tsx), so the Markdown renderer is not in the first page load's JavaScript.
// Beside the conversation, the desk of app windows (windows/app-desk.tsx).
import { Suspense, lazy } from "react";
import { useConversations, useNewConversation, useStartConversation } from "../api/chat";
import { seg } from "../api/client";
import { Composer } from "../chat/composer";
import { ConversationView, followTurn } from "../chat/conversation-view";
import { ErrorNote, Loading, PageTitle, formatDate } from "../components/status";
import { Link, navigate } from "../router";
import "../chat/chat.css";

// The window host loads after the conversation: the chat is usable before the desk is.
const AppDesk = lazy(() => import("../windows/app-desk").then((m) => ({ default: m.AppDesk })));

export function ChatPage({ conversationId }: { conversationId: string | null }) {
  return (
    <div className="chat">
      <ConversationList current={conversationId} />
      {conversationId === null ? (
        <StartConversation />
      ) : (
        <ConversationView key={conversationId} id={conversationId} />
      )}
      <Suspense fallback={null}>
        <AppDesk conversationId={conversationId} />
      </Suspense>
    </div>
  );
}

function ConversationList({ current }: { current: string | null }) {
  const list = useConversations();
  const create = useNewConversation();
  return (
    <nav className="conversations" aria-label="Conversations">
      <button
        type="button"
        className="primary"
        disabled={create.isPending}
        onClick={() =>
          create.mutate(undefined, { onSuccess: (c) => navigate(`/chat/${seg(c.id)}`) })
        }
      >
        New conversation
      </button>
      <ErrorNote error={create.error ?? list.error} />
      {list.isPending ? (
        <Loading what="your conversations" />
      ) : list.data?.items.length === 0 ? (
        <p className="meta">No conversations yet.</p>
      ) : (
        <ul className="plain">
          {list.data?.items.map((c) => (
            <li key={c.id}>
              <Link
                to={`/chat/${seg(c.id)}`}
                className={c.id === current ? "current" : undefined}
                aria-current={c.id === current ? "page" : undefined}
              >
                <span className="conversation-title">{c.title ?? "New conversation"}</span>
                <span className="meta">{formatDate(c.updated_at)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

/**
 * No conversation open: the first message creates one, starts its turn and goes there, where
 * the conversation's running turn is followed like after a reload.
 */
function StartConversation() {
  const start = useStartConversation();
  return (
    <section className="conversation">
      <div className="conversation-head">
        <PageTitle>Chat</PageTitle>
      </div>
      <div className="chat-log">
        <p>
          Ask Anna anything. Type <kbd>#</kbd> to bring in one of your apps, <kbd>@</kbd> for one of
          your executas. <Link to="/store">Find apps in the App Store</Link>.
        </p>
      </div>
      <ErrorNote error={start.error} />
      <Composer
        busy={start.isPending}
        onSend={(outgoing) =>
          start.mutate(outgoing, {
            onSuccess: ({ id, turnId, attachments }) => {
              followTurn(id, { turnId, userText: outgoing.text, attachments });
              navigate(`/chat/${seg(id)}`);
            },
          })
        }
      />
    </section>
  );
}
