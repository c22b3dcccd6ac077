import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { spawnNodePlugin } from "./helpers/node-plugin.js";
import { type PluginClient } from "@anna-ai/executa-test";

const PROBE = fileURLToPath(new URL("./fixtures/probe-plugin.mjs", import.meta.url));

function spawnProbe(): PluginClient {
  const plugin = spawnNodePlugin(PROBE);
  onTestFinished(() => plugin.dispose());
  return plugin;
}

describe("serve() over real stdio", () => {
  it("keeps stdout for protocol frames: console.log and console.info go to stderr", async () => {
    const plugin = spawnProbe();
    const response = await plugin.request("invoke", { tool: "shout", arguments: { text: "hey" } });
    expect(response.message.result).toMatchObject({ success: true, data: { shouted: "HEY" } });
    await plugin.request("health");
    expect(plugin.garbage).toEqual([]);
    expect(plugin.stderr).toContain("console.log from the handler: hey");
    expect(plugin.stderr).toContain("console.info from the handler");
  });

  it("answers a non-JSON line with -32700 and id null, then keeps serving", async () => {
    const plugin = spawnProbe();
    const parseError = plugin.waitFor(
      (f) => f.message.error !== undefined && f.message.id === null,
      "the -32700 answer",
    );
    plugin.sendLine("this is not json");
    expect((await parseError).message.error).toMatchObject({ code: -32700 });
    const response = await plugin.request("invoke", {
      tool: "echo",
      arguments: { text: "still here" },
    });
    expect(response.message.result).toMatchObject({ success: true, data: { text: "still here" } });
  });

  it("skips blank lines and answers a JSON value that is not an object with -32600", async () => {
    const plugin = spawnProbe();
    const invalid = plugin.waitFor(
      (f) => f.message.error !== undefined && f.message.id === null,
      "the -32600 answer",
    );
    plugin.sendLine("");
    plugin.sendLine("   ");
    plugin.sendLine("[1,2,3]");
    expect((await invalid).message.error).toMatchObject({ code: -32600 });
    await plugin.request("health");
    expect(plugin.frames.filter((f) => f.message.error !== undefined)).toHaveLength(1);
  });

  it("exits 0 on stdin EOF even with an invoke pending", async () => {
    const plugin = spawnProbe();
    plugin.send({
      jsonrpc: "2.0",
      id: "pending-1",
      method: "invoke",
      params: { tool: "wait", arguments: {} },
    });
    await plugin.request("health");
    expect(await plugin.close()).toEqual({ code: 0, signal: null });
    expect(plugin.frames.some((f) => f.message.id === "pending-1")).toBe(false);
  });

  it("exits 0 on SIGTERM while an invoke runs", async () => {
    const plugin = spawnProbe();
    void plugin.request("invoke", { tool: "wait", arguments: {} }).catch(() => undefined);
    await plugin.request("health");
    plugin.signal("SIGTERM");
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
  });

  it("answers shutdown with {} and then exits 0 by itself", async () => {
    const plugin = spawnProbe();
    const response = await plugin.request("shutdown");
    expect(response.message.result).toEqual({});
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
  });

  it("sends a 1 MiB result through file transport in the temp directory", async () => {
    const plugin = spawnProbe();
    const bytes = 1024 * 1024;
    const response = await plugin.request("invoke", { tool: "big", arguments: { bytes } });
    expect(response.fileTransport).toBeDefined();
    expect(
      response.fileTransport?.startsWith(tmpdir()) || response.fileTransport?.startsWith("/tmp"),
    ).toBe(true);
    expect(existsSync(response.fileTransport as string)).toBe(false);
    const result = response.message.result as { success: boolean; data: { blob: string } };
    expect(result.success).toBe(true);
    expect(result.data.blob.length).toBe(bytes);
    const small = await plugin.request("invoke", { tool: "big", arguments: { bytes: 10 } });
    expect(small.fileTransport).toBeUndefined();
  });

  it("sends the 1 MiB result inline when the host's initialize declines file transport", async () => {
    const plugin = spawnProbe();
    await plugin.request(
      "initialize",
      { protocolVersion: "2.0", capabilities: { fileTransport: false } },
      0,
    );
    const response = await plugin.request("invoke", {
      tool: "big",
      arguments: { bytes: 1024 * 1024 },
    });
    expect(response.fileTransport).toBeUndefined();
    expect((response.message.result as { data: { blob: string } }).data.blob.length).toBe(
      1024 * 1024,
    );
  });

  it("makes reverse requests with string ids and the invoke stamped, and reads the host's reply", async () => {
    const plugin = spawnProbe();
    plugin.onRequest("sampling/createMessage", (params) => ({
      result: {
        role: "assistant",
        content: {
          type: "text",
          text: `echo: ${JSON.stringify((params.messages as unknown[])[0])}`,
        },
      },
    }));
    await plugin.request(
      "initialize",
      { protocolVersion: "2.0", capabilities: { sampling: {} } },
      0,
    );
    const response = await plugin.request("invoke", {
      tool: "ask",
      arguments: { prompt: "hi" },
      context: { invoke_id: "abc123" },
    });
    expect(response.message.result).toMatchObject({
      success: true,
      data: { text: expect.stringContaining('"text":"hi"') as unknown },
    });
    const reverse = plugin.frames.find((f) => f.message.method === "sampling/createMessage");
    expect(reverse?.message.id).toMatch(/^[0-9a-f]{32}$/);
    expect(reverse?.message.params).toMatchObject({
      context: { invoke_id: "abc123" },
      metadata: { executa_invoke_id: "abc123", tool: "ask" },
    });
  });

  it("fails every reverse family locally with its code after a non-2.0 initialize", async () => {
    const plugin = spawnProbe();
    const init = await plugin.request("initialize", { protocolVersion: "1.1" }, 0);
    expect(init.message.result).toMatchObject({ protocolVersion: "1.1" });
    const response = await plugin.request("invoke", {
      tool: "families",
      arguments: {},
      context: { invoke_id: "i1" },
    });
    expect((response.message.result as { data: unknown }).data).toEqual({
      sampling: {
        ok: false,
        code: -32008,
        errorCode: "SAMPLING_NOT_NEGOTIATED",
        name: "SamplingError",
      },
      agent: { ok: false, code: -32008, errorCode: "SAMPLING_NOT_NEGOTIATED", name: "AgentError" },
      storage: { ok: false, code: -32021, errorCode: "STORAGE_NOT_GRANTED", name: "StorageError" },
      files: { ok: false, code: -32021, errorCode: "STORAGE_NOT_GRANTED", name: "StorageError" },
      image: { ok: false, code: -32101, errorCode: "IMAGE_NOT_GRANTED", name: "ImageError" },
      upload: { ok: false, code: -32201, errorCode: "UPLOAD_NOT_GRANTED", name: "UploadError" },
      embeddings: {
        ok: false,
        code: -32507,
        errorCode: "EMBED_NOT_NEGOTIATED",
        name: "EmbeddingsError",
      },
    });
    expect(plugin.frames.filter((f) => typeof f.message.method === "string")).toEqual([]);
  });
});
