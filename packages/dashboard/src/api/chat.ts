// The chat API (nexus/src/routes/chat.ts) through the query layer: the conversations list,
// one conversation with its messages and how its turns ended, and the writes (new conversation,
// send, cancel, delete). The live answer is the turn stream's
// (chat/use-turn-stream.ts), not a query.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, seg, upload } from "./client";
import type { ChatAttachment, ConversationDetail, ChatConversation } from "./types";

/** What the composer sends: the text and the files chosen for it. */
export interface Outgoing {
  text: string;
  files: readonly File[];
}

/**
 * Uploads the files to the conversation, then starts the turn that sends them. The files go up
 * only now, at Send, so a chip removed before sending never reaches the server.
 */
async function sendTurn(conversationId: string, outgoing: Outgoing) {
  const attachments: ChatAttachment[] = [];
  for (const file of outgoing.files) {
    attachments.push(
      await upload<ChatAttachment>(
        `/chat/conversations/${seg(conversationId)}/attachments?name=${seg(file.name)}`,
        file,
      ),
    );
  }
  try {
    const turn = await api<{ turn_id: string }>(
      "POST",
      `/chat/conversations/${seg(conversationId)}/turns`,
      {
        text: outgoing.text,
        ...(attachments.length > 0 ? { attachments: attachments.map((a) => a.id) } : {}),
      },
    );
    return { turnId: turn.turn_id, attachments };
  } catch (error) {
    // The message did not go: its files would wait on the server, unseen, holding quota. The
    // composer keeps them, so the next Send uploads them again.
    await Promise.allSettled(attachments.map((a) => deleteAttachment(conversationId, a.id)));
    throw error;
  }
}

/** Removes an attachment that no message sent yet (its bytes and quota go too). */
export function deleteAttachment(conversationId: string, attachmentId: string) {
  return api<{ deleted: true }>(
    "DELETE",
    `/chat/conversations/${seg(conversationId)}/attachments/${seg(attachmentId)}`,
  );
}

/** Conversations the list shows (the server's page maximum). */
export const CONVERSATIONS_SHOWN = 100;
/** Messages per request, and requests per conversation: past 2,000 the oldest are left out. */
const MESSAGES_PAGE = 500;
const MESSAGE_PAGES_MAX = 4;

const conversationsKey = ["chat", "conversations"] as const;
const conversationKey = (id: string) => ["chat", "conversation", id] as const;

export function useConversations() {
  return useQuery({
    queryKey: conversationsKey,
    queryFn: () =>
      api<{ items: ChatConversation[]; next_cursor: string | null }>(
        "GET",
        `/chat/conversations?limit=${CONVERSATIONS_SHOWN}`,
      ),
  });
}

/** The conversation with its messages, oldest first; `truncated` when older ones were left out. */
export function useConversation(id: string) {
  return useQuery({
    queryKey: conversationKey(id),
    queryFn: async () => {
      let page = await api<ConversationDetail>(
        "GET",
        `/chat/conversations/${seg(id)}?limit=${MESSAGES_PAGE}`,
      );
      let { messages, turns } = page;
      for (let i = 1; i < MESSAGE_PAGES_MAX && page.next_after !== null; i++) {
        page = await api<ConversationDetail>(
          "GET",
          `/chat/conversations/${seg(id)}?after=${page.next_after}&limit=${MESSAGES_PAGE}`,
        );
        messages = [...messages, ...page.messages];
        // A turn cut by a page boundary is listed on both pages.
        turns = [
          ...turns,
          ...page.turns.filter((t) => !turns.some((u) => u.turn_id === t.turn_id)),
        ];
      }
      return { ...page, messages, turns, truncated: page.next_after !== null };
    },
  });
}

export function useNewConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ id: string }>("POST", "/chat/conversations", {}),
    onSuccess: () => client.invalidateQueries({ queryKey: conversationsKey }),
  });
}

/** A new conversation with its first message sent; resolves with both ids. */
export function useStartConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (outgoing: Outgoing) => {
      const { id } = await api<{ id: string }>("POST", "/chat/conversations", {});
      return { id, ...(await sendTurn(id, outgoing)) };
    },
    onSuccess: () => client.invalidateQueries({ queryKey: conversationsKey }),
  });
}

export function useSendMessage(conversationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (outgoing: Outgoing) => sendTurn(conversationId, outgoing),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: conversationKey(conversationId) }),
        // The first message names the conversation and every turn moves it to the top.
        client.invalidateQueries({ queryKey: conversationsKey }),
      ]),
  });
}

/**
 * Deletes the conversation with its turns and attachments (the server closes its app windows);
 * the list forgets it and its cached messages go.
 */
export function useDeleteConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ deleted: true }>("DELETE", `/chat/conversations/${seg(id)}`),
    onSuccess: (_answer, id) => {
      client.removeQueries({ queryKey: conversationKey(id) });
      return client.invalidateQueries({ queryKey: conversationsKey });
    },
  });
}

export function useCancelTurn() {
  return useMutation({
    mutationFn: (turnId: string) => api<unknown>("POST", `/chat/turns/${seg(turnId)}/cancel`),
  });
}

/** After a turn ends: its stored messages and the list's order are the server's again. */
export function useTurnFinished(conversationId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: conversationKey(conversationId) }),
      client.invalidateQueries({ queryKey: conversationsKey }),
    ]);
}
