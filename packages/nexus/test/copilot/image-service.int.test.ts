// Images on the server: plugins' `image/generate` and a window's `image.generate` through the
// gateway's images model (a fake provider speaking OpenAI's images wire format over HTTP), the
// images kept in the blob store and answered as signed URLs that serve the bytes, usage counted
// per user and app; `image/edit` on the provider's edit endpoint.
import type { ImageGrant, ServiceContext } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { installApp, putAppVersion } from "../../src/runtime/app-catalog-writes.js";
import { readAppFolder } from "../../src/runtime/load-app-folder.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { sessionCookie } from "../helpers/harness.js";
import { FOCUS_FLOW } from "../helpers/runtime.js";
import { copilotHttp } from "./copilot-harness.js";

useDialectCleanup();

const IMAGE_MODEL = "fake-image-1";
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

function pluginCtx(userId: number): ServiceContext<ImageGrant> {
  return {
    userId: String(userId),
    toolId: "tool-painter-00000001",
    invokeId: "inv_img",
    pluginName: "Painter",
    tool: "paint",
    deadlineMs: Number.POSITIVE_INFINITY,
    signal: new AbortController().signal,
    grant: { generate: true },
  };
}

describe.each(DIALECTS)("images on the server, $name", (d) => {
  it.skipIf(d.skip)(
    "image/generate stores the images and answers URLs that serve them; edit goes to the provider",
    async () => {
      const t = await copilotHttp(await d.open(), { imageModel: IMAGE_MODEL });
      const alice = await t.person();
      const result = await t.copilot.image.generate(
        { prompt: "a lighthouse at dusk", n: 2, size: "512x512" },
        pluginCtx(alice.userId),
      );
      expect(result.model).toBe(IMAGE_MODEL);
      expect(result.images).toHaveLength(2);
      expect(t.fake.requests.at(-1)).toMatchObject({
        path: "/v1/images/generations",
        body: { model: IMAGE_MODEL, prompt: "a lighthouse at dusk", n: 2, size: "512x512" },
      });
      for (const image of result.images) {
        expect(image.url).toMatch(new RegExp(`^${t.url}/`));
        const res = await fetch(image.url);
        expect(res.status).toBe(200);
        expect([...new Uint8Array(await res.arrayBuffer()).slice(0, 4)]).toEqual(PNG_MAGIC);
      }
      const usage = await t.copilot.db
        .selectFrom("llm_usage")
        .select(["user_id", "tool_id", "purpose", "images"])
        .execute();
      expect(usage).toEqual([
        {
          user_id: String(alice.userId),
          tool_id: "tool-painter-00000001",
          purpose: "images",
          images: 2,
        },
      ]);
      const edited = await t.copilot.image.edit(
        { prompt: "make it night", image_url: result.images[0]!.url, n: 1 },
        pluginCtx(alice.userId),
      );
      expect(edited.images).toHaveLength(1);
      expect(t.fake.requests.at(-1)).toMatchObject({
        path: "/v1/images/edits",
        body: { prompt: "make it night", n: 1 },
      });
      const after = await t.copilot.db
        .selectFrom("llm_usage")
        .select(["images"])
        .where("purpose", "=", "images")
        .execute();
      expect(after.map((r) => Number(r.images))).toEqual([2, 1]);
    },
  );

  it.skipIf(d.skip)("without an images model, image/generate names what to configure", async () => {
    const t = await copilotHttp(await d.open());
    const alice = await t.person();
    const err = await t.copilot.image
      .generate({ prompt: "a cat", n: 1 }, pluginCtx(alice.userId))
      .then(
        () => undefined,
        (e: unknown) => e as { code: number; message: string; data: unknown },
      );
    expect(err).toMatchObject({ code: -32109, data: { errorCode: "IMAGE_NO_MODEL_AVAILABLE" } });
    expect(err?.message).toMatch(/ANNA_IMAGES_MODEL/);
    expect(t.fake.requests).toEqual([]);
  });

  it.skipIf(d.skip)(
    "a window's image.generate and image.edit reach the same service, accounted under its app",
    async () => {
      const t = await copilotHttp(await d.open(), { runtime: true, imageModel: IMAGE_MODEL });
      const folder = await readAppFolder(FOCUS_FLOW);
      const manifest = {
        ...folder.manifest,
        ui: {
          ...folder.manifest.ui,
          host_api: { ...folder.manifest.ui?.host_api, image: ["generate", "edit"] },
        },
      } as typeof folder.manifest;
      const { appId } = await putAppVersion(t.copilot.db, { ...folder, manifest }, t.h.clock.now());
      const signup = await t.post("/api/v1/auth/signup", {
        email: "img@example.com",
        password: "correct horse battery",
      });
      const cookie = sessionCookie(signup);
      const me = (await (await fetch(`${t.url}/api/v1/me`, { headers: { cookie } })).json()) as {
        id: number;
      };
      await installApp(
        t.copilot.db,
        { userId: me.id, appId, version: folder.version },
        t.h.clock.now(),
      );
      const opened = await fetch(`${t.url}/api/v1/anna-apps/runtime/windows?app_id=${appId}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: t.url },
        body: JSON.stringify({ view: "main" }),
      });
      const win = (await opened.json()) as { window: { window_uuid: string }; token: string };
      const rpc = async (method: string, args: unknown) =>
        (await (
          await t.post(
            "/api/v1/anna-apps/runtime/rpc",
            { id: method, window_uuid: win.window.window_uuid, ns: "image", method, args },
            { "x-anna-app-token": win.token },
          )
        ).json()) as {
          ok: boolean;
          result?: { images: { url: string }[] };
          error?: { code: string; message: string };
        };
      const made = await rpc("generate", { prompt: "a fox" });
      expect(made.ok, JSON.stringify(made)).toBe(true);
      expect(made.result!.images).toHaveLength(1);
      expect((await fetch(made.result!.images[0]!.url)).status).toBe(200);
      const edit = await rpc("edit", { prompt: "blue", image_ref: made.result!.images[0]!.url });
      expect(edit.ok, JSON.stringify(edit)).toBe(true);
      expect(edit.result!.images).toHaveLength(1);
      expect(t.fake.requests.at(-1)?.path).toBe("/v1/images/edits");
      expect(
        await t.copilot.db
          .selectFrom("llm_usage")
          .select(["app_id", "purpose", "images"])
          .execute(),
      ).toEqual([
        { app_id: `app:${appId}`, purpose: "images", images: 1 },
        { app_id: `app:${appId}`, purpose: "images", images: 1 },
      ]);
    },
  );
});
