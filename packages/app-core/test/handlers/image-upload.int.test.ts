// image.* and upload.* over the executa-host offline services (synthetic images, synthetic upload)
// behind a loopback blob server.
import {
  createOfflineImageService,
  createOfflineUploadService,
  LoopbackBlobServer,
} from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CallResult } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

function result(out: CallResult): Record<string, unknown> {
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.result as Record<string, unknown>;
}

describe("image.* and upload.* on the offline services", () => {
  it("generates images and uploads inline bytes that can be fetched back", async () => {
    const blobServer = new LoopbackBlobServer();
    await blobServer.start();
    onTestFinished(() => blobServer.close());
    const { dispatcher, token } = await openDispatcher(
      { image: ["generate"], upload: ["inline"] },
      {
        services: {
          image: createOfflineImageService({ mode: "mock", blobServer }),
          upload: createOfflineUploadService({ mode: "synthetic", blobServer }),
        },
      },
    );
    const images = result(
      await dispatcher.call(token, "image", "generate", { prompt: "a red square", n: 2 }),
    );
    expect(images.images).toHaveLength(2);
    expect(
      await dispatcher.call(token, "image", "edit", { prompt: "x", image_ref: "u" }),
    ).toMatchObject({
      ok: false,
      error: { code: "permission_denied" },
    });
    const uploaded = result(
      await dispatcher.call(token, "upload", "inline", {
        bytes_b64: Buffer.from("hi there").toString("base64"),
        mime: "text/plain",
        filename: "note.txt",
      }),
    );
    const url = (uploaded.download_url ?? uploaded.url) as string;
    expect(await (await fetch(url)).text()).toBe("hi there");
    expect(await dispatcher.call(token, "upload", "inline", { mime: "text/plain" })).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
  });

  it("answers not_implemented when the host has no image service", async () => {
    const { dispatcher, token } = await openDispatcher({ image: ["*"] });
    expect(await dispatcher.call(token, "image", "generate", { prompt: "x" })).toMatchObject({
      ok: false,
      error: { code: "not_implemented" },
    });
  });
});
