// Deleting chat conversations and waiting attachments over real HTTP on SQLite and PostgreSQL,
// the bytes in a filesystem blob store, the model a fake OpenAI-compatible server: a deleted
// conversation takes its turns, messages, frames and attachments with it (bytes gone, quota given
// back); another user's is 404 and stays; an unsent attachment can be removed, a sent one not;
// cookie deletes follow the CSRF rules.
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { chatHarness, readEvents } from "../helpers/chat.js";

useDialectCleanup();

type Body = Record<string, unknown>;
const code = (body: unknown) => (body as { detail: { code: string } }).detail.code;

describe.each(DIALECTS)("deleting chat conversations on $name", (d) => {
  const setup = async () => {
    const handle = await d.open();
    const ch = await chatHarness(handle, { attachments: {} });
    const user = await ch.http.developer(null, ["aps:dev"]);
    const upload = async (pat: string, conversationId: string, name: string, text: string) => {
      const u = new URL(`/api/v1/chat/conversations/${conversationId}/attachments`, ch.http.url);
      u.searchParams.set("name", name);
      const res = await fetch(u, {
        method: "POST",
        headers: { authorization: `Bearer ${pat}`, "content-type": "text/plain" },
        body: text,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as Body).id as string;
    };
    const create = async (pat: string) =>
      ((await ch.http.call(pat, "POST", "/api/v1/chat/conversations", { body: {} })).body as Body)
        .id as string;
    const rows = async (table: "chat_turns" | "chat_messages" | "chat_attachments", id: string) =>
      (
        await handle.db
          .selectFrom(table)
          .select("conversation_id")
          .where("conversation_id", "=", id)
          .execute()
      ).length;
    const usage = async (userId: number) =>
      Number(
        (
          await handle.db
            .selectFrom("storage_usage")
            .select("bytes_used")
            .where("user_id", "=", String(userId))
            .executeTakeFirst()
        )?.bytes_used ?? 0,
      );
    const blobKeys = async (id: string) =>
      (
        await handle.db
          .selectFrom("chat_attachments")
          .select("blob_key")
          .where("conversation_id", "=", id)
          .execute()
      ).map((r) => r.blob_key);
    return { ...ch, handle, user, upload, create, rows, usage, blobKeys };
  };

  it.skipIf(d.skip)(
    "deletes a conversation with its turns, messages and attachments, their bytes and quota",
    async () => {
      const { http, fake, chat, user, upload, create, rows, usage, blobKeys, blobs, handle } =
        await setup();
      const id = await create(user.pat);
      const sent = await upload(user.pat, id, "sent.txt", "sent with the message");
      const waiting = await upload(user.pat, id, "waiting.txt", "still in the composer");
      fake.enqueue({ text: "Noted." });
      const started = await http.call(user.pat, "POST", `/api/v1/chat/conversations/${id}/turns`, {
        body: { text: "Keep this", attachments: [sent] },
      });
      expect(started.status).toBe(202);
      const turnId = (started.body as Body).turn_id as string;
      await readEvents(`${http.url}/api/v1/chat/turns/${turnId}/events`, user.pat);
      await chat.service.idle();
      const keys = await blobKeys(id);
      expect(keys).toHaveLength(2);
      for (const key of keys) expect(await blobs?.read(key)).toBeDefined();
      expect(await usage(user.userId)).toBeGreaterThan(0);
      expect(await rows("chat_messages", id)).toBe(2);

      // Another user cannot delete it, or tell it from one that does not exist.
      const other = await http.developer(null, ["aps:dev"]);
      const theirs = await http.call(other.pat, "DELETE", `/api/v1/chat/conversations/${id}`);
      expect([theirs.status, code(theirs.body)]).toEqual([404, "not_found"]);
      expect(await rows("chat_turns", id)).toBe(1);

      const gone = await http.call(user.pat, "DELETE", `/api/v1/chat/conversations/${id}`);
      expect(gone).toMatchObject({ status: 200, body: { deleted: true } });
      expect(await rows("chat_turns", id)).toBe(0);
      expect(await rows("chat_messages", id)).toBe(0);
      expect(await rows("chat_attachments", id)).toBe(0);
      const frames = await handle.db
        .selectFrom("chat_turn_events")
        .select("seq")
        .where("turn_id", "=", turnId)
        .execute();
      expect(frames).toEqual([]);
      for (const key of keys) expect(await blobs?.read(key)).toBeUndefined();
      expect(await usage(user.userId)).toBe(0);
      expect(waiting).not.toBe(sent);

      const again = await http.call(user.pat, "GET", `/api/v1/chat/conversations/${id}`);
      expect(again.status).toBe(404);
      const twice = await http.call(user.pat, "DELETE", `/api/v1/chat/conversations/${id}`);
      expect(twice.status).toBe(404);
      const list = await http.call(user.pat, "GET", "/api/v1/chat/conversations");
      expect((list.body as { items: Body[] }).items).toEqual([]);
    },
  );

  it.skipIf(d.skip)(
    "removes an attachment before it is sent, not after; others' are 404",
    async () => {
      const { http, fake, chat, user, upload, create, usage, blobKeys, blobs } = await setup();
      const id = await create(user.pat);
      const keep = await upload(user.pat, id, "keep.txt", "kept");
      const drop = await upload(user.pat, id, "drop.txt", "dropped bytes");
      const [dropKey] = (await blobKeys(id)).filter((k) => k.endsWith(drop));
      const before = await usage(user.userId);

      const other = await http.developer(null, ["aps:dev"]);
      const path = `/api/v1/chat/conversations/${id}/attachments/${drop}`;
      const theirs = await http.call(other.pat, "DELETE", path);
      expect(theirs.status).toBe(404);

      const removed = await http.call(user.pat, "DELETE", path);
      expect(removed).toMatchObject({ status: 200, body: { deleted: true } });
      expect(await blobs?.read(dropKey ?? "")).toBeUndefined();
      expect(await usage(user.userId)).toBe(before - Buffer.byteLength("dropped bytes"));
      expect((await http.call(user.pat, "DELETE", path)).status).toBe(404);
      const unknown = await http.call(
        user.pat,
        "DELETE",
        `/api/v1/chat/conversations/${id}/attachments/no-such-id`,
      );
      expect(unknown.status).toBe(404);

      fake.enqueue({ text: "Got it." });
      const started = await http.call(user.pat, "POST", `/api/v1/chat/conversations/${id}/turns`, {
        body: { text: "Here", attachments: [keep] },
      });
      expect(started.status).toBe(202);
      await chat.service.idle();
      const sent = await http.call(
        user.pat,
        "DELETE",
        `/api/v1/chat/conversations/${id}/attachments/${keep}`,
      );
      expect([sent.status, code(sent.body)]).toEqual([409, "attachment_sent"]);
      expect((sent.body as { detail: { message: string } }).detail.message).toContain(
        "delete the conversation",
      );
    },
  );

  it.skipIf(d.skip)("needs a user, and a cookie delete follows the CSRF rules", async () => {
    const { h, create, user } = await setup();
    const id = await create(user.pat);
    const anon = await h.req("DELETE", `/api/v1/chat/conversations/${id}`);
    expect(anon.status).toBe(401);

    const cookie = await h.signup("deleter@example.com");
    const made = await h.req("POST", "/api/v1/chat/conversations", { cookie, body: {} });
    const mine = ((await made.json()) as Body).id as string;
    const evil = await h.req("DELETE", `/api/v1/chat/conversations/${mine}`, {
      cookie,
      headers: { origin: "https://evil.example" },
    });
    expect([evil.status, code(await evil.json())]).toEqual([403, "csrf_rejected"]);
    const ok = await h.req("DELETE", `/api/v1/chat/conversations/${mine}`, { cookie });
    expect(ok.status).toBe(200);
  });
});
