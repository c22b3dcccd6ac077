// files.* over the executa-host memory files service and its loopback blob server (real HTTP on
// 127.0.0.1): upload_init → PUT → upload_finalize → download_url → GET.
import { createOfflineStorage } from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CallResult } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

function result(out: CallResult): Record<string, unknown> {
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.result as Record<string, unknown>;
}

describe("files.* on the memory files service", () => {
  it("round-trips an upload and a download, lists and deletes it", async () => {
    const offline = await createOfflineStorage({ mode: "memory" });
    onTestFinished(() => offline.close());
    const { dispatcher, token } = await openDispatcher(
      { files: ["*"] },
      { services: { storage: offline.storage, files: offline.files } },
    );
    const body = "hello, files";
    const init = result(
      await dispatcher.call(token, "files", "upload_init", {
        path: "reports/a.txt",
        content_type: "text/plain",
        size: body.length,
      }),
    );
    const put = await fetch(init.put_url as string, {
      method: "PUT",
      headers: init.headers as Record<string, string>,
      body,
    });
    expect(put.ok).toBe(true);
    expect(
      result(await dispatcher.call(token, "files", "upload_finalize", { path: "reports/a.txt" })),
    ).toMatchObject({ path: "reports/a.txt", size_bytes: body.length });
    const link = result(
      await dispatcher.call(token, "files", "download_url", { path: "reports/a.txt" }),
    );
    expect(await (await fetch(link.get_url as string)).text()).toBe(body);
    expect(
      result(await dispatcher.call(token, "files", "download", { path: "reports/a.txt" })),
    ).toMatchObject({ ok: true, filename: "a.txt" });
    expect(
      result(await dispatcher.call(token, "files", "list", { prefix: "reports/" })),
    ).toMatchObject({
      items: [{ path: "reports/a.txt", size_bytes: body.length, metadata: null, tags: null }],
    });
    expect(
      result(await dispatcher.call(token, "files", "delete", { path: "reports/a.txt" })),
    ).toEqual({
      deleted: true,
    });
    expect(
      await dispatcher.call(token, "files", "download_url", { path: "reports/a.txt" }),
    ).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(
      await dispatcher.call(token, "files", "upload_init", { content_type: "x", size: 1 }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", message: "path required" },
    });
  });
});
