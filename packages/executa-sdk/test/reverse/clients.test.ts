import { createServer, type IncomingMessage } from "node:http";
import { RpcError } from "@anna-ai/jsonrpc";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  AgentError,
  bindInvoke,
  definePlugin,
  emitProgress,
  HostCallError,
  ImageError,
  p,
  SamplingClient,
  SamplingError,
  StorageClient,
  StorageError,
  UploadError,
  type ToolContext,
} from "../../src/index.js";
import { startPlugin, type MemoryHost } from "../helpers/memory-host.js";

/** The body the `run` tool executes; each test sets it. */
let body: (ctx: ToolContext, args: { label: string }) => Promise<unknown> = () =>
  Promise.resolve(null);

const plugin = definePlugin({
  manifest: { name: "clients", version: "1.0.0", description: "Reverse client tests." },
  tools: {
    run: {
      description: "Runs the test's body.",
      parameters: { label: p.string({ default: "" }) },
      handler: (args, ctx) => body(ctx, args),
    },
  },
});

let running: MemoryHost | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function start(): MemoryHost {
  running = startPlugin(plugin);
  return running;
}

/** Records every request the host receives, in order. */
function recordRequests(
  host: MemoryHost["host"],
): { id: unknown; method: string; params: Record<string, unknown> }[] {
  const seen: { id: unknown; method: string; params: Record<string, unknown> }[] = [];
  host.observe((direction, message) => {
    if (direction === "in" && "method" in message && "id" in message) {
      seen.push({
        id: message.id,
        method: message.method,
        params: (message.params ?? {}) as Record<string, unknown>,
      });
    }
  });
  return seen;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe("reverse requests", () => {
  it("use random 32-hex string ids and stamp context.invoke_id, metadata.executa_invoke_id and metadata.tool", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    host.onRequest("sampling/createMessage", () => ({
      role: "assistant",
      content: { type: "text", text: "ok" },
    }));
    body = async (ctx) => {
      await ctx.sampling.createMessage({ prompt: "a", maxTokens: 5, metadata: { trace: "t1" } });
      await ctx.sampling.createMessage({ prompt: "b", maxTokens: 5 });
      return null;
    };
    await invoke("run", {}, { invoke_id: "inv-1" });
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      expect(request.id).toMatch(/^[0-9a-f]{32}$/);
      expect(request.params.context).toEqual({ invoke_id: "inv-1" });
      expect(request.params.metadata).toMatchObject({ executa_invoke_id: "inv-1", tool: "run" });
    }
    expect(seen[0]?.id).not.toBe(seen[1]?.id);
    expect(seen[0]?.params.metadata).toEqual({
      trace: "t1",
      executa_invoke_id: "inv-1",
      tool: "run",
    });
    expect(seen[0]?.params).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "a" } }],
      maxTokens: 5,
      includeContext: "none",
      _clientTimeoutS: 90,
    });
  });

  it("never mix invokes: concurrent handlers keep their own id across awaits, also through free-standing clients", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    host.onRequest("storage/get", async () => {
      await sleep(5);
      return { value: null, exists: false, etag: null };
    });
    body = async (_ctx, { label }) => {
      const storage = new StorageClient();
      for (let i = 0; i < 3; i++) {
        await sleep(label === "a" ? 3 : 1);
        await storage.get(`${label}-${i}`);
      }
      return label;
    };
    const results = await Promise.all([
      invoke("run", { label: "a" }, { invoke_id: "inv-a" }),
      invoke("run", { label: "b" }, { invoke_id: "inv-b" }),
      invoke("run", { label: "c" }, { invoke_id: "inv-c" }),
    ]);
    expect(results.map((r) => r.data)).toEqual(["a", "b", "c"]);
    expect(seen).toHaveLength(9);
    for (const request of seen) {
      const label = String(request.params.key).slice(0, 1);
      expect(request.params.context).toEqual({ invoke_id: `inv-${label}` });
      expect(request.params.metadata).toMatchObject({ executa_invoke_id: `inv-${label}` });
    }
  });

  it("bindInvoke stamps the id given in params for code outside a handler", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    host.onRequest("sampling/createMessage", () => ({
      role: "assistant",
      content: { type: "text", text: "ok" },
    }));
    body = async () => {
      await bindInvoke({ tool: "other", context: { invoke_id: "bound-1" } }, async () => {
        await sleep(1);
        await new SamplingClient().createMessage({ prompt: "x", maxTokens: 1 });
      });
      await bindInvoke({ invoke_id: "top-2" }, () =>
        new SamplingClient().createMessage({ prompt: "y", maxTokens: 1 }),
      );
      return null;
    };
    await invoke("run", {}, { invoke_id: "outer" });
    expect(seen.map((r) => r.params.context)).toEqual([
      { invoke_id: "bound-1" },
      { invoke_id: "top-2" },
    ]);
    expect(seen[0]?.params.metadata).toMatchObject({ tool: "other" });
  });

  it("emitProgress sends for the bound invoke and refuses without one", async () => {
    const { host, invoke } = start();
    const received: unknown[] = [];
    host.onNotification("executa/progress", (params) => void received.push(params));
    body = () => Promise.resolve(emitProgress("progress", { pct: 50 }));
    expect(await invoke("run", {}, { invoke_id: "inv-p" })).toMatchObject({ data: true });
    expect(emitProgress("progress", { pct: 1 })).toBe(false);
    await host.request("health");
    expect(received).toEqual([
      {
        type: "progress",
        data: { pct: 50 },
        context: { invoke_id: "inv-p" },
        metadata: { executa_invoke_id: "inv-p", tool: "run" },
      },
    ]);
  });

  it("omit context without an invoke id so a host can fall back to its only invoke", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    host.onRequest("storage/list", () => ({ items: [], next_cursor: null }));
    body = (ctx) => ctx.storage.list();
    await invoke("run");
    expect(seen[0]?.params).not.toHaveProperty("context");
    expect(seen[0]?.params.metadata).toEqual({ executa_invoke_id: "", tool: "run" });
  });
});

describe("reverse errors", () => {
  it("map a wire error to the family's typed error with code, errorCode and data", async () => {
    const { host, invoke } = start();
    host.onRequest("storage/set", () => {
      throw new RpcError(-32023, "precondition failed", {
        errorCode: "STORAGE_PRECONDITION_FAILED",
        current: "e2",
      });
    });
    let caught: unknown;
    body = async (ctx) => {
      try {
        await ctx.storage.set("k", 1, { ifMatch: "e1" });
      } catch (error) {
        caught = error;
      }
      return null;
    };
    await invoke("run");
    expect(caught).toBeInstanceOf(StorageError);
    expect(caught).toBeInstanceOf(HostCallError);
    expect(caught).toMatchObject({
      code: -32023,
      errorCode: "STORAGE_PRECONDITION_FAILED",
      method: "storage/set",
      data: { current: "e2" },
    });
  });

  it("name a wire error without data.errorCode from the catalog", async () => {
    const { host, invoke } = start();
    host.onRequest("agent/session.create", () => {
      throw new RpcError(-32041, "not granted");
    });
    body = async (ctx) => ctx.agent.createSession().catch((error: unknown) => error);
    const result = await invoke("run");
    expect(result.data).toMatchObject({ code: -32041, errorCode: "AGENT_NOT_GRANTED" });
  });

  it("time out locally with the family's timeout code", async () => {
    const { host, invoke } = start();
    host.onRequest("sampling/createMessage", () => new Promise(() => undefined));
    host.onRequest("storage/get", () => new Promise(() => undefined));
    const errors: unknown[] = [];
    body = async (ctx) => {
      await ctx.sampling
        .createMessage({ prompt: "x", maxTokens: 1, timeoutMs: 20 })
        .catch((e: unknown) => errors.push(e));
      await ctx.storage.get("k", { timeoutMs: 20 }).catch((e: unknown) => errors.push(e));
      return null;
    };
    await invoke("run");
    expect(errors[0]).toBeInstanceOf(SamplingError);
    expect(errors[0]).toMatchObject({ code: -32005, errorCode: "SAMPLING_TIMEOUT" });
    expect(errors[1]).toBeInstanceOf(StorageError);
    expect(errors[1]).toMatchObject({ code: -32000, errorCode: "TIMEOUT" });
  });

  it("abort a pending call when the invoke's deadline passes", async () => {
    const { host, invoke } = start();
    host.onRequest("image/generate", () => new Promise(() => undefined));
    let caught: unknown;
    body = async (ctx) => {
      await ctx.image.generate({ prompt: "slow" }).catch((error: unknown) => (caught = error));
      return null;
    };
    await invoke("run", {}, { invoke_id: "inv-d", deadline_ms: Date.now() + 40 });
    expect(caught).toBeInstanceOf(ImageError);
    expect(caught).toMatchObject({ code: -32000, errorCode: "ABORTED", method: "image/generate" });
  });

  it("fail every family locally, without a frame, after a non-2.0 initialize", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    await host.request("initialize", { protocolVersion: "1.1" });
    body = async (ctx) => {
      const calls: Record<string, () => Promise<unknown>> = {
        sampling: () => ctx.sampling.createMessage({ prompt: "x", maxTokens: 1 }),
        agent: () => ctx.agent.createSession(),
        storage: () => ctx.storage.get("k"),
        files: () => ctx.files.list(),
        image: () => ctx.image.generate({ prompt: "x" }),
        upload: () => ctx.upload.confirm("k"),
        embeddings: () => ctx.embeddings.create({ input: "x" }),
      };
      const out: Record<string, unknown> = {};
      for (const [family, call] of Object.entries(calls)) {
        out[family] = await call().then(
          () => "sent",
          (error: HostCallError) => `${error.name} ${error.code} ${error.errorCode}`,
        );
      }
      ctx.progress("progress", {});
      return out;
    };
    const result = await invoke("run", {}, { invoke_id: "inv-1" });
    expect(result.data).toEqual({
      sampling: "SamplingError -32008 SAMPLING_NOT_NEGOTIATED",
      agent: "AgentError -32008 SAMPLING_NOT_NEGOTIATED",
      storage: "StorageError -32021 STORAGE_NOT_GRANTED",
      files: "StorageError -32021 STORAGE_NOT_GRANTED",
      image: "ImageError -32101 IMAGE_NOT_GRANTED",
      upload: "UploadError -32201 UPLOAD_NOT_GRANTED",
      embeddings: "EmbeddingsError -32507 EMBED_NOT_NEGOTIATED",
    });
    expect(seen).toEqual([]);
  });

  it("reject an inline upload over 8 MiB locally", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    let caught: unknown;
    body = async (ctx) => {
      await ctx.upload
        .inline({
          filename: "big.bin",
          mimeType: "application/octet-stream",
          content: new Uint8Array(8 * 1024 * 1024 + 1),
        })
        .catch((error: unknown) => (caught = error));
      return null;
    };
    await invoke("run");
    expect(caught).toBeInstanceOf(UploadError);
    expect(caught).toMatchObject({ code: -32204, errorCode: "UPLOAD_TOO_LARGE" });
    expect(seen).toEqual([]);
  });

  it("share one base between agent and sampling errors", () => {
    const error = new AgentError("x", {
      code: -32041,
      errorCode: "AGENT_NOT_GRANTED",
      method: "agent/session.create",
    });
    expect(error).toBeInstanceOf(SamplingError);
    expect(error).toBeInstanceOf(HostCallError);
    expect(
      new ImageError("x", { code: 1, errorCode: "X", method: "image/generate" }),
    ).not.toBeInstanceOf(SamplingError);
  });
});

describe("client wire shapes", () => {
  it("send storage calls with an explicit scope and snake_case fields", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    host.onRequest("storage/get", () => ({ value: { n: 1 }, exists: true, etag: "e1" }));
    host.onRequest("storage/set", () => ({ etag: "e2", size_bytes: 7 }));
    host.onRequest("storage/delete", () => ({ deleted: true }));
    host.onRequest("storage/list", () => ({ items: [{ key: "a" }], next_cursor: null }));
    body = async (ctx) => [
      await ctx.storage.get("a"),
      await ctx.storage.set("a", { n: 2 }, { ifMatch: "e1", ttlSeconds: 60, scope: "user" }),
      await ctx.storage.delete("a"),
      await ctx.storage.list({ prefix: "notes/", limit: 10 }),
    ];
    const result = await invoke("run");
    expect(result.data).toEqual([
      { value: { n: 1 }, exists: true, etag: "e1" },
      { etag: "e2", size_bytes: 7 },
      { deleted: true },
      { items: [{ key: "a" }], next_cursor: null },
    ]);
    expect(seen.map((r) => ({ method: r.method, ...r.params, metadata: undefined }))).toEqual([
      { method: "storage/get", key: "a", scope: "tool", metadata: undefined },
      {
        method: "storage/set",
        key: "a",
        value: { n: 2 },
        scope: "user",
        if_match: "e1",
        ttl_seconds: 60,
        metadata: undefined,
      },
      { method: "storage/delete", key: "a", scope: "tool", metadata: undefined },
      { method: "storage/list", scope: "tool", prefix: "notes/", limit: 10, metadata: undefined },
    ]);
  });

  it("normalise a storage miss that lacks exists and etag", async () => {
    const { host, invoke } = start();
    host.onRequest("storage/get", () => ({ value: null }));
    body = (ctx) => ctx.storage.get("missing");
    expect((await invoke("run")).data).toEqual({ value: null, exists: false, etag: null });
  });

  it("read agent runs answered as a bare frame array or as {run_id, frames}", async () => {
    const { host, invoke } = start();
    let call = 0;
    host.onRequest("agent/session.run", () =>
      call++ === 0
        ? [
            { event: "delta", text: "Hel" },
            { event: "delta", text: "lo" },
          ]
        : { run_id: "run_1", frames: [{ event: "final", text: "Done" }], final: { text: "Done" } },
    );
    body = async (ctx) => [
      await ctx.agent.run("aps_1", "hi"),
      await ctx.agent.run("aps_1", "again", { recursionLimit: 4 }),
    ];
    const [first, second] = (await invoke("run")).data as Record<string, unknown>[];
    expect(first).toMatchObject({
      text: "Hello",
      frames: [{ event: "delta" }, { event: "delta" }],
    });
    expect(second).toMatchObject({ run_id: "run_1", text: "Done" });
  });

  it("send the agent, image.edit and files calls with the fields the host reads", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    for (const method of [
      "agent/session.create",
      "agent/session.cancel",
      "agent/session.history",
      "agent/session.delete",
      "agent/complete",
      "image/edit",
      "files/delete",
    ]) {
      host.onRequest(method, () => ({ ok: method }));
    }
    host.onRequest("agent/session.run", () => [
      { event: "delta", text: "a" },
      { event: "final", text: "ab" },
    ]);
    host.onRequest("files/download_url", () => ({ get_url: "https://get", expires_at: 1 }));
    body = async (ctx) => {
      await ctx.agent.createSession({
        kind: "fixed",
        fixedClientId: "c1",
        label: "x",
        ttlSeconds: 60,
      });
      const frames: string[] = [];
      for await (const frame of ctx.agent.runFrames("aps_1", "go")) frames.push(frame.event);
      await ctx.agent.cancel("aps_1", "run_1");
      await ctx.agent.history("aps_1", { limit: 5 });
      await ctx.agent.delete("aps_1");
      await ctx.agent.complete({ prompt: "hi", maxTokens: 9 });
      await ctx.image.edit({ imageUrl: "https://img", prompt: "p", maskUrl: null });
      const link = await ctx.files.downloadUrl("a.txt", { ttlSeconds: 60 });
      await ctx.files.delete("a.txt", { scope: "user" });
      return { frames, url: link.url };
    };
    expect((await invoke("run")).data).toEqual({ frames: ["delta", "final"], url: "https://get" });
    const strip = ({ metadata: _m, context: _c, ...rest }: Record<string, unknown>) => rest;
    expect(seen.map((r) => [r.method, strip(r.params)])).toEqual([
      [
        "agent/session.create",
        { kind: "fixed", fixed_client_id: "c1", label: "x", ttl_seconds: 60 },
      ],
      ["agent/session.run", { app_session_uuid: "aps_1", content: "go" }],
      ["agent/session.cancel", { app_session_uuid: "aps_1", run_id: "run_1" }],
      ["agent/session.history", { app_session_uuid: "aps_1", limit: 5 }],
      ["agent/session.delete", { app_session_uuid: "aps_1" }],
      ["agent/complete", { messages: [{ role: "user", content: "hi" }], maxTokens: 9 }],
      [
        "image/edit",
        { prompt: "p", n: 1, image_url: "https://img", mask_url: null, _clientTimeoutS: 120 },
      ],
      ["files/download_url", { path: "a.txt", scope: "tool", ttl_seconds: 60 }],
      ["files/delete", { path: "a.txt", scope: "user" }],
    ]);
  });

  it("put bytes to the presigned URL between upload_begin and upload_complete", async () => {
    const received: { method?: string; type?: string; body: string }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          method: req.method,
          type: req.headers["content-type"],
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200, { ETag: '"abc123"' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { host, invoke } = start();
      const seen = recordRequests(host);
      host.onRequest("files/upload_begin", () => ({
        put_url: `http://127.0.0.1:${port}/obj`,
        headers: { "Content-Type": "text/plain" },
      }));
      host.onRequest("files/upload_complete", (params) => ({
        path: (params as { path: string }).path,
        etag: "final",
      }));
      body = (ctx) => ctx.files.put("notes/a.txt", "hello", "text/plain");
      expect((await invoke("run")).data).toEqual({ path: "notes/a.txt", etag: "final" });
      expect(received).toEqual([{ method: "PUT", type: "text/plain", body: "hello" }]);
      expect(seen.map((r) => r.method)).toEqual(["files/upload_begin", "files/upload_complete"]);
      expect(seen[0]?.params).toMatchObject({
        path: "notes/a.txt",
        scope: "tool",
        content_type: "text/plain",
        size_bytes: 5,
      });
      expect(seen[1]?.params).toMatchObject({
        path: "notes/a.txt",
        etag: '"abc123"',
        size_bytes: 5,
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("send image, upload and embeddings params the way the host reads them", async () => {
    const { host, invoke } = start();
    const seen = recordRequests(host);
    host.onRequest("image/generate", () => ({ images: [{ url: "https://x/1.png" }] }));
    host.onRequest("host/uploadFile", () => ({
      r2_key: "k",
      download_url: "https://x",
      size_bytes: 2,
      expires_at: "t",
    }));
    host.onRequest("embeddings/create", () => ({
      model: "m",
      data: [{ index: 0, embedding: [0.1] }],
    }));
    body = async (ctx) => {
      await ctx.image.generate({
        prompt: "cat",
        size: "512x512",
        referenceImageUrls: ["https://r"],
      });
      await ctx.upload.inline({ filename: "a.txt", mimeType: "text/plain", content: "hi" });
      await ctx.upload.negotiate({
        filename: "b.bin",
        mimeType: "application/octet-stream",
        sizeBytes: 10,
      });
      await ctx.embeddings.create({ input: "one" });
      return null;
    };
    await invoke("run");
    const strip = (params: Record<string, unknown>) => {
      const { metadata: _m, context: _c, ...rest } = params;
      return rest;
    };
    expect(seen.map((r) => [r.method, strip(r.params)])).toEqual([
      [
        "image/generate",
        {
          prompt: "cat",
          n: 1,
          size: "512x512",
          reference_image_urls: ["https://r"],
          _clientTimeoutS: 120,
        },
      ],
      [
        "host/uploadFile",
        {
          mode: "inline",
          filename: "a.txt",
          mime_type: "text/plain",
          purpose: "user_artifact",
          content_b64: "aGk=",
          _clientTimeoutS: 120,
        },
      ],
      [
        "host/uploadFile",
        {
          mode: "negotiate",
          filename: "b.bin",
          mime_type: "application/octet-stream",
          purpose: "user_artifact",
          expected_bytes: 10,
          size_bytes: 10,
          _clientTimeoutS: 120,
        },
      ],
      ["embeddings/create", { input: ["one"] }],
    ]);
  });
});
