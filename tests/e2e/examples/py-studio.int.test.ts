// py-studio (protocol 2.0, Python stdlib) driven as a real child process over raw NDJSON.
// The test plays the host: it answers each reverse request the way the platform documents.

import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { onTestFinished, describe, expect, it } from "vitest";
import { needs } from "../../support/toolchains.js";
import { exampleDir, pluginEnv, run, startPython } from "./example-plugins.js";
import { startPutServer } from "./put-server.js";
import type { Frame, JsonObject, PluginClient, ReverseAnswer } from "@anna-ai/executa-test";

const EXAMPLE = "py-studio";
const HEX32 = /^[0-9a-f]{32}$/;
const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;

async function startStudio(offer: string | null = "2.0"): Promise<PluginClient> {
  const plugin = startPython(EXAMPLE, "studio_plugin.py");
  if (offer !== null) {
    const init = await plugin.request(
      "initialize",
      { protocolVersion: offer, client_capabilities: {} },
      0,
    );
    expect(init.message.result).toMatchObject({ protocolVersion: offer });
  }
  return plugin;
}

/** Answers reverse requests from a table and records them; unknown methods get -32601. */
function fakeHost(
  plugin: PluginClient,
  answers: Record<string, (params: JsonObject) => ReverseAnswer>,
): Frame[] {
  const calls: Frame[] = [];
  plugin.answerReverse((method, params, frame) => {
    calls.push(frame);
    const answer = answers[method];
    return answer
      ? answer(params)
      : { error: { code: -32601, message: `Method not found: ${method}` } };
  });
  return calls;
}

function expectStamped(frame: Frame, invokeId: string, tool: string): void {
  expect(frame.message.id).toMatch(HEX32);
  const params = frame.message.params as JsonObject;
  expect(params.metadata).toMatchObject({ executa_invoke_id: invokeId, tool });
  expect(params.context).toMatchObject({ invoke_id: invokeId });
}

const completion = (text: string) => ({
  result: {
    role: "assistant",
    content: { type: "text", text },
    model: "test-model",
    stopReason: "endTurn",
    usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
  },
});

const python = needs("python3");

describe.skipIf(python.skip)(`py-studio example${python.reason}`, () => {
  it("answers initialize with serverInfo, client_capabilities and capabilities", async () => {
    const plugin = await startStudio(null);
    const { message } = await plugin.request(
      "initialize",
      {
        protocolVersion: "2.0",
        client_capabilities: { sampling: {} },
        client_info: { name: "t", version: "0" },
      },
      0,
    );
    expect(message.result).toEqual({
      protocolVersion: "2.0",
      serverInfo: { name: "py-studio", version: "0.1.0" },
      client_capabilities: expect.objectContaining({
        sampling: {},
        agent: { submodes: ["auto"] },
        upload: {},
        image: {},
      }),
      capabilities: { storage: { kv: true, files: true } },
    });
    const describeFrame = await plugin.request("describe");
    const manifest = describeFrame.message.result as JsonObject;
    expect(manifest).not.toHaveProperty("name");
    expect(manifest.host_capabilities).toEqual(
      expect.arrayContaining([
        "llm.sample",
        "llm.agent.auto",
        "aps.kv",
        "aps.files",
        "llm.image",
        "host.upload",
        "llm.embed",
      ]),
    );
  });

  it("keeps its reverse clients off when the host offers anything but exactly 2.0", async () => {
    const plugin = await startStudio("2.1");
    const sampling = await plugin.invoke("summarize", { text: "x" }, { invoke_id: "i1" });
    expect(sampling.message.error).toMatchObject({
      code: -32008,
      data: { errorCode: "SAMPLING_NOT_NEGOTIATED" },
    });
    const storage = await plugin.invoke("note_list", {}, { invoke_id: "i2" });
    expect(storage.message.error).toMatchObject({ code: -32021 });
    const upload = await plugin.invoke(
      "share_text",
      { filename: "a.txt", text: "a" },
      { invoke_id: "i3" },
    );
    expect(upload.message.error).toMatchObject({ code: -32201 });
    const embed = await plugin.invoke("embed", { texts: ["a"] }, { invoke_id: "i4" });
    expect(embed.message.error).toMatchObject({ code: -32507 });
    expect(plugin.frames.filter((f) => typeof f.message.method === "string")).toEqual([]);
  });

  it("leaves its reverse clients on when the host sends no initialize at all", async () => {
    const plugin = await startStudio(null);
    fakeHost(plugin, { "sampling/createMessage": () => completion("ok") });
    const frame = await plugin.invoke("summarize", { text: "x" }, { invoke_id: "i1" });
    expect(frame.message.result).toMatchObject({ success: true, data: { summary: "ok" } });
  });

  it("sends sampling/createMessage with a 32-hex id, invoke metadata and MCP-shaped messages", async () => {
    const plugin = await startStudio();
    const result = plugin.invoke(
      "summarize",
      { text: "A long story.", max_tokens: 50 },
      { invoke_id: "inv-s" },
      "call-1",
    );
    const request = await plugin.nextReverse("sampling/createMessage");
    expectStamped(request, "inv-s", "summarize");
    expect(request.message.params).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Summarize:\nA long story." } }],
      maxTokens: 50,
      includeContext: "none",
      systemPrompt: expect.any(String) as unknown,
    });
    plugin.reply(request.message.id, completion("Short.").result);
    const response = await result;
    expect(response.message).toEqual({
      jsonrpc: "2.0",
      id: "call-1",
      result: {
        success: true,
        tool: "summarize",
        data: {
          summary: "Short.",
          model: "test-model",
          usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
        },
      },
    });
  });

  it("asks for structured output with a json_schema responseFormat and parses the text itself", async () => {
    const plugin = await startStudio();
    const calls = fakeHost(plugin, {
      "sampling/createMessage": () => completion('{"title":"T","keywords":["a","b"]}'),
    });
    const frame = await plugin.invoke("extract", { text: "Some text" }, { invoke_id: "inv-x" });
    expect(frame.message.result).toMatchObject({
      success: true,
      data: { fields: { title: "T", keywords: ["a", "b"] }, structured: true },
    });
    expect(calls[0]?.message.params).toMatchObject({
      responseFormat: {
        type: "json_schema",
        json_schema: { name: "extraction", strict: true, schema: { type: "object" } },
      },
      onUnsupported: "json_object",
    });
  });

  it("passes a reverse-call error through as the invoke's error, code and data intact", async () => {
    const plugin = await startStudio();
    fakeHost(plugin, {
      "sampling/createMessage": () => ({
        error: {
          code: -32001,
          message: "sampling not granted",
          data: { errorCode: "SAMPLING_NOT_GRANTED" },
        },
      }),
    });
    const frame = await plugin.invoke("summarize", { text: "x" }, { invoke_id: "inv-e" });
    expect(frame.message.error).toEqual({
      code: -32001,
      message: "sampling not granted",
      data: { errorCode: "SAMPLING_NOT_GRANTED" },
    });
  });

  it("re-reads and retries storage/set after a -32023 precondition failure", async () => {
    const plugin = await startStudio();
    let version = 1;
    let sets = 0;
    const calls = fakeHost(plugin, {
      "storage/get": () => ({
        result: { value: [{ text: "old" }], exists: true, etag: `e${version}` },
      }),
      "storage/set": (params) => {
        sets += 1;
        if (sets === 1) {
          version += 1; // someone else wrote in between
          return {
            error: {
              code: -32023,
              message: "precondition failed",
              data: { errorCode: "PRECONDITION_FAILED" },
            },
          };
        }
        expect(params.if_match).toBe(`e${version}`);
        return { result: { etag: "e3", generation: 3, size_bytes: 40 } };
      },
    });
    const frame = await plugin.invoke(
      "note_add",
      { notebook: "ideas", text: "new" },
      { invoke_id: "inv-n" },
    );
    expect(frame.message.result).toMatchObject({
      success: true,
      data: { count: 2, etag: "e3", attempts: 2 },
    });
    expect(calls.map((c) => c.message.method)).toEqual([
      "storage/get",
      "storage/set",
      "storage/get",
      "storage/set",
    ]);
    expect(calls[1]?.message.params).toMatchObject({
      key: "notebooks/ideas",
      scope: "tool",
      if_match: "e1",
    });
    for (const call of calls) expectStamped(call, "inv-n", "note_add");
  });

  it("lists and deletes notebooks with storage/list and storage/delete", async () => {
    const plugin = await startStudio();
    const calls = fakeHost(plugin, {
      "storage/list": () => ({
        result: {
          items: [{ key: "notebooks/ideas" }, { key: "notebooks/todo" }],
          next_cursor: null,
        },
      }),
      "storage/delete": () => ({ result: { deleted: true } }),
    });
    const list = await plugin.invoke("note_list", {}, { invoke_id: "inv-l" });
    expect(list.message.result).toMatchObject({
      data: { notebooks: ["ideas", "todo"], next_cursor: null },
    });
    const removed = await plugin.invoke(
      "note_delete",
      { notebook: "ideas" },
      { invoke_id: "inv-d" },
    );
    expect(removed.message.result).toMatchObject({ data: { deleted: true } });
    expect(calls.map((c) => c.message.params)).toEqual([
      expect.objectContaining({ scope: "tool", prefix: "notebooks/" }),
      expect.objectContaining({ scope: "tool", key: "notebooks/ideas" }),
    ]);
  });

  it("saves a file: upload_begin, HTTP PUT, upload_complete with the ETag, then download_url", async () => {
    const storage = await startPutServer();
    onTestFinished(() => storage.close());
    const plugin = await startStudio();
    const calls = fakeHost(plugin, {
      "files/upload_begin": (p) => ({
        result: {
          upload_id: "u1",
          put_url: storage.urlFor(String(p.path)),
          headers: { "x-amz-meta-test": "1" },
          expires_at: 1,
        },
      }),
      "files/upload_complete": (p) => ({
        result: { path: p.path, etag: p.etag, size_bytes: p.size_bytes },
      }),
      "files/download_url": (p) => ({
        result: { get_url: `https://files.test/${String(p.path)}`, expires_at: 2 },
      }),
    });
    const frame = await plugin.invoke(
      "save_file",
      { path: "reports/today.txt", text: "hello drive" },
      { invoke_id: "inv-f" },
    );
    const stored = storage.uploads.get("/reports/today.txt");
    expect(stored?.body.toString()).toBe("hello drive");
    expect(stored?.contentType).toBe("text/plain");
    expect(frame.message.result).toMatchObject({
      success: true,
      data: {
        path: "reports/today.txt",
        scope: "user",
        etag: stored?.etag,
        download_url: "https://files.test/reports/today.txt",
      },
    });
    expect(calls.map((c) => c.message.method)).toEqual([
      "files/upload_begin",
      "files/upload_complete",
      "files/download_url",
    ]);
    expect(calls[0]?.message.params).toMatchObject({
      scope: "user",
      size_bytes: 11,
      content_type: "text/plain",
    });
    expect(calls[1]?.message.params).toMatchObject({ etag: stored?.etag });
  });

  it("runs an agent session (create, run, delete) and a one-shot agent/complete", async () => {
    const plugin = await startStudio();
    const calls = fakeHost(plugin, {
      "agent/session.create": () => ({
        result: {
          app_session_uuid: "aps_123",
          thread_id: "th_1",
          expires_in: 600,
          granted_tools: ["*"],
        },
      }),
      "agent/session.run": () => ({
        result: {
          run_id: "run_1",
          frames: [
            { event: "run_meta", run_id: "run_1" },
            { event: "delta", text: "Step 1. " },
            { event: "tool_call", name: "search_web", args: {}, call_id: "c1" },
            { event: "tool_result", call_id: "c1", ok: true, data: {} },
            { event: "final", text: "Step 1. Step 2." },
          ],
        },
      }),
      "agent/session.delete": () => ({ result: { deleted: true } }),
      "agent/complete": () => completion("42"),
    });
    const plan = await plugin.invoke("plan", { goal: "my week" }, { invoke_id: "inv-a" });
    expect(plan.message.result).toMatchObject({
      success: true,
      data: {
        plan: "Step 1. Step 2.",
        frames: 5,
        tool_calls: ["search_web"],
        thread_id: "th_1",
        run_id: "run_1",
      },
    });
    expect(calls.map((c) => c.message.method)).toEqual([
      "agent/session.create",
      "agent/session.run",
      "agent/session.delete",
    ]);
    expect(calls[0]?.message.params).toMatchObject({ kind: "agent", agent_submode: "auto" });
    expect(calls[1]?.message.params).toMatchObject({
      app_session_uuid: "aps_123",
      content: "my week",
    });
    const complete = await plugin.invoke(
      "ask_complete",
      { prompt: "6*7?" },
      { invoke_id: "inv-c" },
    );
    expect(complete.message.result).toMatchObject({ data: { answer: "42" } });
  });

  it("generates images and embeds texts", async () => {
    const plugin = await startStudio();
    const calls = fakeHost(plugin, {
      "image/generate": (p) => ({
        result: {
          images: Array.from({ length: Number(p.n) }, (_, i) => ({
            url: `https://img.test/${i}.png`,
            mimeType: "image/png",
          })),
          model: "img-model",
        },
      }),
      "embeddings/create": (p) => ({
        result: {
          object: "list",
          model: "anna-managed-v1",
          data: (p.input as string[]).map((_, index) => ({ index, embedding: [0.1, 0.2, 0.3] })),
          usage: { prompt_tokens: 2, total_tokens: 2 },
          _meta: { dimensions: 3 },
        },
      }),
    });
    const poster = await plugin.invoke("poster", { prompt: "Mars", n: 2 }, { invoke_id: "inv-i" });
    expect(poster.message.result).toMatchObject({
      data: { urls: ["https://img.test/0.png", "https://img.test/1.png"], count: 2 },
    });
    expect(calls[0]?.message.params).toMatchObject({ prompt: "Mars", n: 2, size: "1024x1024" });
    const embed = await plugin.invoke("embed", { texts: ["a", "b"] }, { invoke_id: "inv-m" });
    expect(embed.message.result).toMatchObject({
      data: { model: "anna-managed-v1", count: 2, dimensions: 3 },
    });
    expect(calls[1]?.message.params).toMatchObject({ input: ["a", "b"] });
  });

  it("uploads through host/uploadFile inline, and negotiate, PUT and confirm", async () => {
    const storage = await startPutServer();
    onTestFinished(() => storage.close());
    const plugin = await startStudio();
    const envelope = (key: string, size: number, mode: string) => ({
      r2_key: key,
      download_url: `https://r2.test/${key}`,
      url: `https://r2.test/${key}`,
      size_bytes: size,
      expires_at: "2030-01-01T00:00:00Z",
      _meta: { mode },
    });
    const calls = fakeHost(plugin, {
      "host/uploadFile": (p) => {
        if (p.mode === "inline") {
          const size = Buffer.from(String(p.content_b64), "base64").length;
          return { result: envelope("k-inline", size, "inline") };
        }
        if (p.mode === "negotiate") {
          return {
            result: {
              r2_key: "k-put",
              put_url: storage.urlFor("k-put"),
              headers: { "Content-Type": "text/plain" },
            },
          };
        }
        return {
          result: envelope(
            String(p.r2_key),
            storage.uploads.get("/k-put")?.body.length ?? -1,
            "confirm",
          ),
        };
      },
    });
    const inline = await plugin.invoke(
      "share_text",
      { filename: "a.txt", text: "inline!" },
      { invoke_id: "inv-u1" },
    );
    expect(inline.message.result).toMatchObject({
      data: { r2_key: "k-inline", size_bytes: 7, download_url: "https://r2.test/k-inline" },
    });
    expect(calls[0]?.message.params).toMatchObject({
      mode: "inline",
      filename: "a.txt",
      mime_type: "text/plain",
      purpose: "user_artifact",
    });
    const presigned = await plugin.invoke(
      "share_text",
      { filename: "b.txt", text: "presigned!", mode: "presigned" },
      { invoke_id: "inv-u2" },
    );
    expect(storage.uploads.get("/k-put")?.body.toString()).toBe("presigned!");
    expect(presigned.message.result).toMatchObject({ data: { r2_key: "k-put", size_bytes: 10 } });
    expect(calls.slice(1).map((c) => (c.message.params as JsonObject).mode)).toEqual([
      "negotiate",
      "confirm",
    ]);
  });

  it("sends a reverse request over 512 KiB through __file_transport (a pointer with no method)", async () => {
    const plugin = await startStudio();
    const result = plugin.invoke("big_upload", { size_kib: 600 }, { invoke_id: "inv-big" });
    const request = await plugin.nextReverse("host/uploadFile");
    expect(request.fileTransport).toMatch(/executa-msg-.*\.json$/);
    expect(request.fileTransport?.startsWith(tmpdir())).toBe(true);
    expect(request.pointer).toEqual({
      jsonrpc: "2.0",
      id: request.message.id,
      __file_transport: request.fileTransport,
    });
    expect(request.line.length).toBeLessThan(300);
    expect(existsSync(request.fileTransport ?? "")).toBe(false); // read once, then deleted
    expectStamped(request, "inv-big", "big_upload");
    const body = Buffer.from(String((request.message.params as JsonObject).content_b64), "base64");
    expect(body.length).toBe(600 * 1024);
    plugin.reply(request.message.id, {
      download_url: "https://r2.test/big",
      r2_key: "big",
      size_bytes: body.length,
    });
    const response = await result;
    expect(response.message.result).toMatchObject({
      success: true,
      data: { size_bytes: 600 * 1024, sha256: createHash("sha256").update(body).digest("hex") },
    });
  });

  it("returns a ~1 MiB result through __file_transport", async () => {
    const plugin = await startStudio();
    const frame = await plugin.invoke("big_result", { size_kib: 1024 }, { invoke_id: "inv-r" }, 77);
    expect(frame.pointer).toEqual({
      jsonrpc: "2.0",
      id: 77,
      __file_transport: frame.fileTransport,
    });
    expect(frame.fileTransport).toMatch(/executa-msg-.*\.json$/);
    const data = (frame.message.result as { data: { blob: string; sha256: string; bytes: number } })
      .data;
    expect(data.bytes).toBe(1024 * 1024);
    expect(JSON.stringify(frame.message).length).toBeGreaterThan(FILE_TRANSPORT_THRESHOLD_BYTES);
    expect(createHash("sha256").update(data.blob).digest("hex")).toBe(data.sha256);
  });

  it("emits executa/progress notifications correlated by context.invoke_id before answering", async () => {
    const plugin = await startStudio();
    const frame = await plugin.invoke("long_task", { steps: 3 }, { invoke_id: "inv-p" });
    expect(frame.message.result).toMatchObject({ success: true, data: { steps: 3 } });
    const progress = plugin.frames.filter((f) => f.message.method === "executa/progress");
    expect(progress.map((f) => f.message.params)).toEqual(
      [1, 2, 3].map((step) =>
        expect.objectContaining({
          type: "tool_update",
          data: { step, total: 3 },
          context: { invoke_id: "inv-p" },
        }),
      ),
    );
    expect(progress.every((f) => !("id" in f.message))).toBe(true);
    expect(plugin.frames.indexOf(progress[2] as Frame)).toBeLessThan(plugin.frames.indexOf(frame));
  });

  it("serves invokes concurrently: a later invoke answers while an earlier one waits on the host", async () => {
    const plugin = await startStudio();
    const slow = plugin.invoke("summarize", { text: "x" }, { invoke_id: "inv-slow" }, 1);
    const sampling = await plugin.nextReverse("sampling/createMessage");
    const fast = await plugin.invoke(
      "context_report",
      {},
      { invoke_id: "inv-fast", plugin_name: "studio", deadline_ms: 0 },
      2,
    );
    expect(fast.message.result).toMatchObject({
      data: {
        invoke_id: "inv-fast",
        plugin_name: "studio",
        context_keys: ["deadline_ms", "invoke_id", "plugin_name"],
      },
    });
    plugin.reply(sampling.message.id, completion("late").result);
    const late = await slow;
    expect(late.message.result).toMatchObject({ data: { summary: "late" } });
    expect(plugin.frames.indexOf(fast)).toBeLessThan(plugin.frames.indexOf(late));
  });

  it("exits 0 on stdin EOF even with a reverse call still waiting", async () => {
    const plugin = await startStudio();
    void plugin.invoke("summarize", { text: "x" }, { invoke_id: "inv-eof" }).catch(() => undefined);
    await plugin.nextReverse("sampling/createMessage");
    expect(await plugin.close()).toEqual({ code: 0, signal: null });
  });

  it("passes its own unittest suite", async () => {
    const result = await run(
      "python3",
      ["-m", "unittest"],
      exampleDir(EXAMPLE),
      pluginEnv(),
      20_000,
    );
    expect(result.stderr).toMatch(/OK/);
    expect(result.code).toBe(0);
  });
});
