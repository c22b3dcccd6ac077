// Chat attachments over real HTTP on SQLite and PostgreSQL, the bytes in a filesystem blob store,
// the model a fake OpenAI-compatible server: upload (counted in the storage quota), the size and
// per-turn limits, another user's attachment refused, and a turn whose model calls doc_read on
// the attachment the user sent, which the prompt listed by id and the message history shows.
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { chatHarness, readEvents } from "../helpers/chat.js";

useDialectCleanup();

type Body = Record<string, unknown>;
const code = (body: unknown) => (body as { detail: { code: string } }).detail.code;
const message = (body: unknown) => (body as { detail: { message: string } }).detail.message;

const NOTES = "# Trip notes\n\nPack the blue tent.\n\n## Food\n\nBring rice for four days.\n";

describe.each(DIALECTS)("chat attachments on $name", (d) => {
  const setup = async (limits: { maxBytes?: number; quotaBytes?: number } = {}) => {
    const handle = await d.open();
    const ch = await chatHarness(handle, { attachments: limits });
    const user = await ch.http.developer(null, ["aps:dev"]);
    const upload = async (
      pat: string,
      conversationId: string,
      name: string,
      type: string,
      bytes: string | Uint8Array,
    ) => {
      const u = new URL(`/api/v1/chat/conversations/${conversationId}/attachments`, ch.http.url);
      u.searchParams.set("name", name);
      const res = await fetch(u, {
        method: "POST",
        headers: { authorization: `Bearer ${pat}`, "content-type": type },
        body: bytes,
      });
      return { status: res.status, body: (await res.json()) as Body };
    };
    const create = async (pat: string) =>
      ((await ch.http.call(pat, "POST", "/api/v1/chat/conversations", { body: {} })).body as Body)
        .id as string;
    const turn = (pat: string, id: string, body: Body) =>
      ch.http.call(pat, "POST", `/api/v1/chat/conversations/${id}/turns`, { body });
    return { ...ch, handle, user, upload, create, turn };
  };

  it.skipIf(d.skip)(
    "uploads a file, counts it in the storage quota, and a turn's doc_read reads it",
    async () => {
      const { fake, user, upload, create, turn, handle, http, chat } = await setup();
      const id = await create(user.pat);
      const up = await upload(user.pat, id, "notes.md", "text/markdown", NOTES);
      expect(up.status).toBe(201);
      const attachmentId = up.body.id as string;
      expect(up.body).toEqual({
        id: attachmentId,
        name: "notes.md",
        media_type: "text/markdown",
        size_bytes: Buffer.byteLength(NOTES),
      });
      const usage = await handle.db
        .selectFrom("storage_usage")
        .select("bytes_used")
        .where("user_id", "=", String(user.userId))
        .executeTakeFirstOrThrow();
      expect(Number(usage.bytes_used)).toBe(Buffer.byteLength(NOTES));

      fake.enqueue(
        {
          toolCalls: [{ id: "call_1", name: "doc_read", args: { attachment_id: attachmentId } }],
        },
        { text: "Pack the blue tent and rice." },
      );
      const started = await turn(user.pat, id, {
        text: "What do my notes say?",
        attachments: [attachmentId],
      });
      expect(started.status).toBe(202);
      const turnId = (started.body as Body).turn_id as string;
      const read = await readEvents(`${http.url}/api/v1/chat/turns/${turnId}/events`, user.pat);
      const result = read.frames.find((f) => f.event === "tool.result");
      expect(result?.data).toMatchObject({ callId: "call_1", isError: false });
      expect(JSON.stringify(result?.data.output)).toContain("Pack the blue tent.");
      await chat.service.idle();

      // The prompt told the model which attachment exists, by name, type, size and id.
      const system = JSON.stringify(fake.requests[0]?.body);
      expect(system).toContain("notes.md");
      expect(system).toContain(`attachment_id: ${attachmentId}`);
      expect(system).toContain(`text/markdown, ${Buffer.byteLength(NOTES)} bytes`);

      const conv = await http.call(user.pat, "GET", `/api/v1/chat/conversations/${id}`);
      expect((conv.body as { messages: Body[] }).messages[0]).toMatchObject({
        role: "user",
        text: "What do my notes say?",
        attachments: [{ id: attachmentId, name: "notes.md", media_type: "text/markdown" }],
      });

      // Sent once: a second message naming it again is told the model can still read it.
      const again = await turn(user.pat, id, { text: "Again", attachments: [attachmentId] });
      expect(again.status).toBe(400);
      expect(message(again.body)).toContain("already sent");
    },
  );

  it.skipIf(d.skip)("refuses a file over the size limit with 413, storing nothing", async () => {
    const { user, upload, create, handle } = await setup({ maxBytes: 1024 });
    const id = await create(user.pat);
    const big = await upload(user.pat, id, "big.txt", "text/plain", new Uint8Array(2048));
    expect(big.status).toBe(413);
    expect(code(big.body)).toBe("payload_too_large");
    expect(message(big.body)).toContain("1024-byte limit");
    const rows = await handle.db.selectFrom("chat_attachments").selectAll().execute();
    expect(rows).toEqual([]);
  });

  it.skipIf(d.skip)("refuses an upload past the storage quota", async () => {
    const { user, upload, create } = await setup({ quotaBytes: 100 });
    const id = await create(user.pat);
    expect((await upload(user.pat, id, "a.txt", "text/plain", "x".repeat(80))).status).toBe(201);
    const over = await upload(user.pat, id, "b.txt", "text/plain", "x".repeat(80));
    expect(over.status).toBe(429);
    expect(code(over.body)).toBe("quota_exceeded");
  });

  it.skipIf(d.skip)(
    "refuses another user's attachment, another conversation's, and bad input with 400",
    async () => {
      const { http, user, upload, create, turn } = await setup();
      const other = await http.developer(null, ["aps:dev"]);
      const mine = await create(user.pat);
      const theirs = await create(other.pat);
      const theirFile = (await upload(other.pat, theirs, "t.csv", "text/csv", "a,b\n1,2\n")).body
        .id as string;

      // A name keeps only its last segment: no folders reach the model or the user.
      const pathName = await upload(user.pat, mine, "../../etc/x.txt", "text/plain", "x");
      expect(pathName.body).toMatchObject({ name: "x.txt" });

      // Uploading into another user's conversation is 404, like one that does not exist.
      const into = await upload(user.pat, theirs, "x.txt", "text/plain", "hi");
      expect(into.status).toBe(404);

      const refused = await turn(user.pat, mine, { text: "read it", attachments: [theirFile] });
      expect(refused.status).toBe(400);
      expect(message(refused.body)).toContain("is not one you uploaded to this conversation");

      const elsewhere = await create(user.pat);
      const inOther = (await upload(user.pat, elsewhere, "n.txt", "text/plain", "n")).body
        .id as string;
      const wrongConv = await turn(user.pat, mine, { text: "read it", attachments: [inOther] });
      expect(wrongConv.status).toBe(400);

      const noName = await fetch(`${http.url}/api/v1/chat/conversations/${mine}/attachments`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.pat}`, "content-type": "text/plain" },
        body: "x",
      });
      expect(noName.status).toBe(400);
      expect(((await noName.json()) as Body).detail).toMatchObject({ code: "validation_failed" });

      const noAuth = await fetch(
        `${http.url}/api/v1/chat/conversations/${mine}/attachments?name=a.txt`,
        { method: "POST", body: "x" },
      );
      expect(noAuth.status).toBe(401);

      const tooMany = await turn(user.pat, mine, {
        text: "many",
        attachments: Array.from({ length: 11 }, (_, i) => `id-${i}`),
      });
      expect(tooMany.status).toBe(400);
      expect(message(tooMany.body)).toContain("at most 10 attachments");
    },
  );
});
