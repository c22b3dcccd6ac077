// `POST /api/v1/copilot/app/image/{generate,edit}` over real HTTP on SQLite and PostgreSQL, the
// images model a fake provider speaking OpenAI's images API: a session token's generate answers
// blob-store URLs that serve the images and counts them under the session's app; no token, a
// PAT, a bad body and an `n` over the host cap are refused naming what is wrong; edit reads the
// generated image back from the blob store and sends it to the provider's /v1/images/edits.
import { createHash } from "node:crypto";
import type { FakeUploadedFile } from "@anna-ai/agent/test-kit";
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { copilotHttp } from "./copilot-harness.js";

useDialectCleanup();

const API = "/api/v1/copilot";
const IMAGE_MODEL = "fake-image-1";
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

async function refusal(res: Response) {
  const body = (await res.json()) as { detail: { code: string; message: string } };
  return { status: res.status, code: body.detail.code, message: body.detail.message };
}

describe.each(DIALECTS)("copilot image endpoints on $name", (d) => {
  it.skipIf(d.skip)(
    "generate answers signed URLs of stored images for a session token; bad calls are refused",
    async () => {
      const t = await copilotHttp(await d.open(), { imageModel: IMAGE_MODEL });
      const alice = await t.person();
      const minted = await t.post(`${API}/app/sessions`, {
        pat: alice.pat,
        app_slug: "pics",
        kind: "complete",
      });
      expect(minted.status).toBe(200);
      const token = ((await minted.json()) as { app_session_token: string }).app_session_token;
      const auth = { authorization: `Bearer ${token}` };

      const res = await t.post(
        `${API}/app/image/generate`,
        { prompt: "a fox in snow", n: 2, size: "512x512", metadata: { invoke_id: "local" } },
        auth,
      );
      expect(res.status).toBe(200);
      const result = (await res.json()) as { images: { url: string }[]; model: string };
      expect(result.model).toBe(IMAGE_MODEL);
      expect(result.images).toHaveLength(2);
      expect(t.fake.requests.at(-1)).toMatchObject({
        path: "/v1/images/generations",
        body: { model: IMAGE_MODEL, prompt: "a fox in snow", n: 2, size: "512x512" },
      });
      for (const image of result.images) {
        const bytes = await fetch(image.url);
        expect(bytes.status).toBe(200);
        expect([...new Uint8Array(await bytes.arrayBuffer()).slice(0, 4)]).toEqual(PNG_MAGIC);
      }
      const usage = await t.copilot.db
        .selectFrom("llm_usage")
        .select(["user_id", "app_id", "purpose", "images"])
        .execute();
      expect(usage.map((r) => [r.user_id, r.app_id, r.purpose, Number(r.images)])).toEqual([
        [String(alice.userId), "pics", "images", 2],
      ]);

      const calls = t.fake.requests.length;
      expect(
        await refusal(await t.post(`${API}/app/image/generate`, { prompt: "x" })),
      ).toMatchObject({ status: 401, code: "unauthenticated" });
      expect(
        await refusal(
          await t.post(
            `${API}/app/image/generate`,
            { prompt: "x" },
            {
              authorization: `Bearer ${alice.pat}`,
            },
          ),
        ),
      ).toMatchObject({ status: 401 });
      const noPrompt = await refusal(await t.post(`${API}/app/image/generate`, { n: 1 }, auth));
      expect(noPrompt).toMatchObject({ status: 400, code: "validation_failed" });
      expect(noPrompt.message).toMatch(/prompt/);
      const tooMany = await refusal(
        await t.post(`${API}/app/image/generate`, { prompt: "x", n: 9 }, auth),
      );
      expect(tooMany).toMatchObject({ status: 400, code: "validation_failed" });
      expect(tooMany.message).toMatch(/at most 8 images/);
      expect(t.fake.requests.length).toBe(calls);

      const edit = await t.post(
        `${API}/app/image/edit`,
        { image_url: result.images[0]!.url, prompt: "add a hat" },
        auth,
      );
      expect(edit.status).toBe(200);
      const edited = (await edit.json()) as { images: { url: string }[]; model: string };
      expect(edited.model).toBe(IMAGE_MODEL);
      expect(edited.images).toHaveLength(1);
      const original = Buffer.from(await (await fetch(result.images[0]!.url)).arrayBuffer());
      const sent = t.fake.requests.at(-1);
      expect(sent?.path).toBe("/v1/images/edits");
      expect(sent?.body).toMatchObject({ model: IMAGE_MODEL, prompt: "add a hat", n: 1 });
      expect((sent?.body as { image: FakeUploadedFile }).image).toMatchObject({
        sizeBytes: original.byteLength,
        sha256: createHash("sha256").update(original).digest("hex"),
      });
      const editedBytes = await fetch(edited.images[0]!.url);
      expect([...new Uint8Array(await editedBytes.arrayBuffer()).slice(0, 4)]).toEqual(PNG_MAGIC);

      // An image on a private address is refused before the provider sees anything; the code
      // travels with the answer, so a dev tool gives the plugin -32314 again.
      const before = t.fake.requests.length;
      const internal = await t.post(
        `${API}/app/image/edit`,
        { image_url: "http://10.0.0.7/cat.png", prompt: "add a hat" },
        auth,
      );
      expect(await internal.json()).toMatchObject({
        detail: { error_code: "IMAGE_REFERENCE_FETCH_FAILED", rpc_code: -32314 },
      });
      expect(t.fake.requests.length).toBe(before);
    },
  );
});
