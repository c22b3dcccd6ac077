// Delete in a conversation's head, asked twice: the first press shows what goes (every message,
// every attached file, the app windows opened beside it) with Delete and Keep; Escape keeps it.
// Deleted, the page goes back to the chat with no conversation open.
import { useEffect, useRef, useState } from "react";
import { useDeleteConversation } from "../api/chat";
import { ErrorNote } from "../components/status";
import { navigate } from "../router";

export function DeleteConversation({ id, title }: { id: string; title: string }) {
  const [asking, setAsking] = useState(false);
  const remove = useDeleteConversation();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);

  if (!asking)
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        Delete conversation
      </button>
    );
  return (
    <div
      className="confirm-delete"
      role="group"
      aria-label="Confirm deleting the conversation"
      onKeyDown={(event) => {
        if (event.key === "Escape") setAsking(false);
      }}
    >
      <p>
        Delete “{title}” with its messages, attached files and app windows? This cannot be undone.
      </p>
      <button
        ref={confirmRef}
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => remove.mutate(id, { onSuccess: () => navigate("/chat") })}
      >
        Delete
      </button>{" "}
      <button type="button" disabled={remove.isPending} onClick={() => setAsking(false)}>
        Keep it
      </button>
      <ErrorNote error={remove.error} />
    </div>
  );
}
