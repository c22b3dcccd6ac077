// Host upload over real HTTP on SQLite and PostgreSQL: negotiate → PUT to the presigned URL →
// confirm into the filesystem blob store, inline uploads, the per-file and MIME limits, keys that
// only their owner may confirm, and the user's storage quota the files count against.
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { copilotHttp, type CopilotHttp } from "./copilot-harness.js";

useDialectCleanup();

const UP = "/api/v1/copilot/app/upload";
const LIMITS = { maxFileBytes: 1024, quotaBytes: 1500 };

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function refusal(res: Response) {
  const body = (await res.json()) as {
    detail: Record<string, unknown> & { code: string; message: string };
  };
  return { status: res.status, ...body.detail };
}

async function uploader(t: CopilotHttp, invokeId = "inv-1") {
  const p = await t.person();
  const token = await t.familyToken("upload", p.userId, "tool-notes", invokeId);
  return { ...p, auth: { authorization: `Bearer ${token}` } };
}

async function usedBytes(t: CopilotHttp, userId: number): Promise<number> {
  const row = await t.copilot.db
    .selectFrom("storage_usage")
    .select("bytes_used")
    .where("user_id", "=", String(userId))
    .executeTakeFirst();
  return Number(row?.bytes_used ?? 0);
}

describe.each(DIALECTS)("host upload on $name", (d) => {
  it.skipIf(d.skip)(
    "negotiate, PUT and confirm store the file, counted once against the quota",
    async () => {
      const t = await copilotHttp(await d.open(), { uploadLimits: LIMITS });
      const alice = await uploader(t);
      const neg = await json(
        await t.post(
          `${UP}/negotiate`,
          { filename: "notes/report.txt", mime_type: "text/plain", size_bytes: 1000 },
          alice.auth,
        ),
      );
      expect(neg).toMatchObject({
        _meta: { mode: "presigned-put" },
        headers: { "Content-Type": "text/plain" },
      });
      expect(neg.r2_key).toMatch(
        new RegExp(
          `^exec-uploads/nexus/${alice.userId}/tool-notes/inv-1/user_artifact/\\d+_[0-9a-f]+_report\\.txt$`,
        ),
      );
      // Nothing PUT yet: confirm says what to do.
      expect(
        await refusal(await t.post(`${UP}/confirm`, { r2_key: neg.r2_key }, alice.auth)),
      ).toMatchObject({ status: 404, error_code: "UPLOAD_NOT_FOUND" });
      const bytes = "x".repeat(1000);
      const put = await fetch(neg.put_url as string, {
        method: "PUT",
        headers: neg.headers as Record<string, string>,
        body: bytes,
      });
      expect(put.status).toBeLessThan(300);
      const done = await json(await t.post(`${UP}/confirm`, { r2_key: neg.r2_key }, alice.auth));
      expect(done).toMatchObject({
        r2_key: neg.r2_key,
        mime_type: "text/plain",
        size_bytes: 1000,
        bytes: 1000,
        _meta: { mode: "confirm" },
      });
      expect(await (await fetch(done.download_url as string)).text()).toBe(bytes);
      expect(await usedBytes(t, alice.userId)).toBe(1000);
      // A second confirm answers again but counts nothing more.
      await json(await t.post(`${UP}/confirm`, { r2_key: neg.r2_key }, alice.auth));
      expect(await usedBytes(t, alice.userId)).toBe(1000);

      // Over the quota: refused before a URL is issued, and inline before anything is stored.
      const over = await refusal(
        await t.post(
          `${UP}/negotiate`,
          { filename: "b.txt", mime_type: "text/plain", size_bytes: 600 },
          alice.auth,
        ),
      );
      expect(over).toMatchObject({
        status: 429,
        code: "quota_exceeded",
        error_code: "UPLOAD_QUOTA_EXCEEDED",
      });
      expect(over.message).toMatch(/1500-byte storage quota \(1000 used\)/);
      const inlineOver = await t.post(
        `${UP}/inline`,
        {
          filename: "c.txt",
          mime_type: "text/plain",
          content_b64: Buffer.from("y".repeat(600)).toString("base64"),
        },
        alice.auth,
      );
      expect(await refusal(inlineOver)).toMatchObject({ status: 429, code: "quota_exceeded" });
      expect(await usedBytes(t, alice.userId)).toBe(1000);
    },
  );

  it.skipIf(d.skip)(
    "size and type limits, and another user's key, are refused with what would be right",
    async () => {
      const t = await copilotHttp(await d.open(), { uploadLimits: LIMITS });
      const alice = await uploader(t);
      const bob = await uploader(t, "inv-9");
      const big = await refusal(
        await t.post(
          `${UP}/negotiate`,
          { filename: "big.bin", mime_type: "application/octet-stream", size_bytes: 4096 },
          alice.auth,
        ),
      );
      expect(big).toMatchObject({ status: 413, code: "payload_too_large" });
      expect(big.message).toMatch(/4096 bytes is over the 1024-byte per-file limit/);
      const svg = await refusal(
        await t.post(
          `${UP}/negotiate`,
          { filename: "a.svg", mime_type: "image/svg+xml" },
          alice.auth,
        ),
      );
      expect(svg).toMatchObject({
        status: 415,
        code: "unsupported_media_type",
        error_code: "UPLOAD_MIME_REJECTED",
      });
      // Undeclared size: the presigned PUT itself refuses more than the per-file limit.
      const neg = await json(
        await t.post(`${UP}/negotiate`, { filename: "a.txt", mime_type: "text/plain" }, alice.auth),
      );
      const tooMuch = await fetch(neg.put_url as string, {
        method: "PUT",
        headers: neg.headers as Record<string, string>,
        body: "z".repeat(2000),
      });
      expect(tooMuch.status).toBe(413);
      await fetch(neg.put_url as string, {
        method: "PUT",
        headers: neg.headers as Record<string, string>,
        body: "ok",
      });
      // Bob cannot confirm Alice's key; Alice can.
      const stolen = await refusal(await t.post(`${UP}/confirm`, { r2_key: neg.r2_key }, bob.auth));
      expect(stolen).toMatchObject({
        status: 400,
        code: "validation_failed",
        reason: "KEY_NOT_OWNED",
      });
      expect(await usedBytes(t, bob.userId)).toBe(0);
      expect(
        await json(await t.post(`${UP}/confirm`, { r2_key: neg.r2_key }, alice.auth)),
      ).toMatchObject({ size_bytes: 2 });
      // Without a credential, or with a token of another family, nothing is accepted.
      expect(
        (await t.post(`${UP}/negotiate`, { filename: "a.txt", mime_type: "text/plain" })).status,
      ).toBe(401);
      const sampling = await t.familyToken("sampling", alice.userId, "tool-notes", "inv-1");
      expect(
        (
          await t.post(
            `${UP}/negotiate`,
            { filename: "a.txt", mime_type: "text/plain" },
            { authorization: `Bearer ${sampling}` },
          )
        ).status,
      ).toBe(403);
    },
  );

  it.skipIf(d.skip)(
    "an app window uploads inline; the bytes come back from the download URL",
    async () => {
      const t = await copilotHttp(await d.open(), { uploadLimits: LIMITS });
      const alice = await t.person();
      const win = await t.windowToken(alice.userId, "42", "win_up");
      // Uploads need no manifest grant here: the window token alone names user, app and window.
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      const res = await json(
        await t.post(
          `${UP}/inline`,
          {
            filename: "dot.png",
            mime_type: "image/PNG",
            content_b64: png.toString("base64"),
            purpose: "image_input",
          },
          { "x-anna-app-token": win },
        ),
      );
      expect(res).toMatchObject({
        mime_type: "image/png",
        size_bytes: 7,
        _meta: { mode: "inline" },
      });
      expect(res.r2_key).toMatch(
        new RegExp(`^exec-uploads/nexus/${alice.userId}/app%3A42/win_up/image_input/`),
      );
      expect(Buffer.from(await (await fetch(res.download_url as string)).arrayBuffer())).toEqual(
        png,
      );
      expect(await usedBytes(t, alice.userId)).toBe(7);
      const bad = await refusal(
        await t.post(
          `${UP}/inline`,
          { filename: "x", mime_type: "text/plain", content_b64: "***" },
          { "x-anna-app-token": win },
        ),
      );
      expect(bad).toMatchObject({ status: 400, code: "validation_failed" });
    },
  );
});
