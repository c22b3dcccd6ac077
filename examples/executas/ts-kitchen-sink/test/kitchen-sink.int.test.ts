// ts-kitchen-sink run as the host runs it (`node dist/main.js`, raw NDJSON), with this test
// answering every reverse family.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { FakeKv } from "../../../../packages/executa-sdk/test/helpers/fake-kv.js";
import {
  startPutServer,
  type PutServer,
} from "../../../../packages/executa-sdk/test/helpers/put-server.js";
import { spawnNodePlugin } from "../../../../packages/executa-sdk/test/helpers/node-plugin.js";
import { type Frame, type PluginClient } from "@anna-ai/executa-test";

const MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));

function start(env: NodeJS.ProcessEnv = {}): PluginClient {
  const plugin = spawnNodePlugin(MAIN, { env: { KITCHEN_TOKEN: "", ...env } });
  onTestFinished(() => plugin.dispose());
  return plugin;
}

async function putServer(): Promise<PutServer> {
  const server = await startPutServer();
  onTestFinished(() => server.close());
  return server;
}

async function invoke(
  plugin: PluginClient,
  tool: string,
  args: Record<string, unknown> = {},
  context: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const invokeId = `inv-${tool}`;
  const response = await plugin.request("invoke", {
    tool,
    arguments: args,
    context: { invoke_id: invokeId, ...context },
  });
  if (response.message.error !== undefined)
    throw new Error(`invoke ${tool} failed: ${JSON.stringify(response.message.error)}`);
  return response.message.result as Record<string, unknown>;
}

function requests(plugin: PluginClient, method?: string): Frame[] {
  return plugin.frames.filter(
    (f) =>
      typeof f.message.method === "string" &&
      f.message.id !== undefined &&
      (method === undefined || f.message.method === method),
  );
}

describe("ts-kitchen-sink", () => {
  it("declares every capability and thirteen tools", async () => {
    const plugin = start();
    const init = await plugin.request("initialize", { protocolVersion: "2.0" }, 0);
    expect(
      Object.keys((init.message.result as { capabilities: object }).capabilities).sort(),
    ).toEqual(["agent", "embed", "embeddings", "image", "sampling", "storage", "upload"].sort());
    const manifest = (await plugin.request("describe")).message.result as {
      tools: { name: string }[];
      host_capabilities: string[];
    };
    expect(manifest.tools.map((t) => t.name)).toEqual([
      "structured_summary",
      "remember",
      "save_file",
      "agent_task",
      "draw",
      "publish_artifact",
      "embed",
      "long_task",
      "big_report",
      "search_web",
      "read_page",
      "account_token",
      "credentials_check",
    ]);
    expect(manifest.host_capabilities).toEqual([
      "llm.sample",
      "llm.agent.auto",
      "aps.kv",
      "aps.files",
      "llm.image",
      "host.upload",
      "llm.embed",
      "web.search",
      "web.fetch",
    ]);
  });

  it("search_web sends web/search and lists title, URL and snippet", async () => {
    const plugin = start();
    plugin.onRequest("web/search", () => ({
      result: {
        results: [{ title: "T", url: "https://t.example/", snippet: "s", score: 0.9 }],
        provider_tier: "basic",
        quota_consumed: 0,
      },
    }));
    const result = await invoke(plugin, "search_web", { query: "tides", max_results: 2 });
    expect(result).toMatchObject({
      success: true,
      data: {
        provider_tier: "basic",
        results: [{ title: "T", url: "https://t.example/", snippet: "s" }],
      },
    });
    expect(requests(plugin, "web/search")[0]?.message.params).toMatchObject({
      query: "tides",
      max_results: 2,
    });
  });

  it("read_page sends web/fetch and reports each page's own outcome", async () => {
    const plugin = start();
    plugin.onRequest("web/fetch", (params) => ({
      result: {
        pages: (params as { urls: string[] }).urls.map((url, i) =>
          i === 0
            ? { url, ok: true, title: "A", content: "hello", truncated: false }
            : { url, ok: false, error: "SSRF_BLOCKED" },
        ),
        quota_consumed: 0,
      },
    }));
    const result = await invoke(plugin, "read_page", {
      urls: ["https://a.example/", "http://10.0.0.1/"],
      max_chars: 100,
    });
    expect(result).toMatchObject({
      success: true,
      data: {
        pages: [
          { url: "https://a.example/", ok: true, title: "A", content: "hello" },
          { url: "http://10.0.0.1/", ok: false, error: "SSRF_BLOCKED", content: null },
        ],
      },
    });
    expect(requests(plugin, "web/fetch")[0]?.message.params).toMatchObject({
      urls: ["https://a.example/", "http://10.0.0.1/"],
      max_chars: 100,
      format: "text",
      context: { invoke_id: "inv-read_page" },
    });
  });

  it("account_token lists accounts, gets a token and returns only a redacted preview", async () => {
    const plugin = start();
    plugin.onRequest("credentials/listAccounts", () => ({
      result: {
        accounts: [
          {
            account_id: "g1",
            email: null,
            label: null,
            is_default: true,
            status: "active",
            scopes: [],
          },
          {
            account_id: "g2",
            email: null,
            label: null,
            is_default: false,
            status: "active",
            scopes: [],
          },
        ],
      },
    }));
    plugin.onRequest("credentials/getToken", (params) => ({
      result: {
        access_token: "ya29.secret-token-7777",
        account_id: (params as { account_id?: string }).account_id ?? "g1",
        expires_at: "2030-01-01T00:00:00.000Z",
      },
    }));
    const result = await invoke(plugin, "account_token", { account: "g2" });
    expect(result).toMatchObject({
      success: true,
      data: {
        accounts: [
          { account_id: "g1", is_default: true },
          { account_id: "g2", is_default: false },
        ],
        account_id: "g2",
        preview: "ya29…7777",
      },
    });
    expect(JSON.stringify(result)).not.toContain("secret-token");
    expect(requests(plugin, "credentials/getToken")[0]?.message.params).toMatchObject({
      provider: "google",
      account_id: "g2",
    });
  });

  it("asks sampling for a JSON Schema answer with a json_object fallback and parses it", async () => {
    const plugin = start();
    plugin.onRequest("sampling/createMessage", () => ({
      result: {
        role: "assistant",
        content: {
          type: "text",
          text: '{"summary":"short","keywords":["a"],"sentiment":"neutral"}',
        },
        _meta: {
          responseFormat: {
            requested: "json_schema",
            applied: "json_schema",
            structuredValid: true,
            downgraded: false,
          },
        },
      },
    }));
    const result = await invoke(plugin, "structured_summary", { text: "Some text." });
    expect(result).toMatchObject({
      success: true,
      data: { parsed: { summary: "short", keywords: ["a"], sentiment: "neutral" } },
    });
    const params = requests(plugin, "sampling/createMessage")[0]?.message.params as Record<
      string,
      unknown
    >;
    expect(params).toMatchObject({
      responseFormat: {
        type: "json_schema",
        json_schema: { name: "summary_analysis", strict: true },
      },
      onUnsupported: "json_object",
      metadata: { executa_invoke_id: "inv-structured_summary", tool: "structured_summary" },
    });
  });

  it("keeps the raw text when the model's answer is not JSON", async () => {
    const plugin = start();
    plugin.onRequest("sampling/createMessage", () => ({
      result: {
        role: "assistant",
        content: { type: "text", text: "not json" },
      },
    }));
    expect(await invoke(plugin, "structured_summary", { text: "x" })).toMatchObject({
      data: { parsed: null, raw: "not json" },
    });
  });

  it("round-trips a value through storage set/get/list/delete", async () => {
    const plugin = start();
    const kv = new FakeKv();
    kv.attach(plugin);
    const result = await invoke(plugin, "remember", { key: "colour", value: "green" });
    expect(result).toMatchObject({
      success: true,
      data: { read: "green", keys: ["kv/colour"], deleted: true },
    });
    expect(kv.calls.map((c) => c.method)).toEqual([
      "storage/set",
      "storage/get",
      "storage/list",
      "storage/delete",
    ]);
    expect(kv.calls[0]?.params).toMatchObject({ ttl_seconds: 3600, scope: "tool" });
  });

  it("saves a file with upload_begin → PUT → upload_complete and returns its download URL", async () => {
    const plugin = start();
    const server = await putServer();
    plugin.onRequest("files/upload_begin", (params) => ({
      result: {
        put_url: server.url(`/put/${String(params.path)}`),
        headers: { "Content-Type": "text/plain" },
        expires_at: "soon",
      },
    }));
    plugin.onRequest("files/upload_complete", (params) => ({
      result: {
        path: params.path,
        etag: params.etag,
        size_bytes: params.size_bytes,
      },
    }));
    plugin.onRequest("files/download_url", () => ({
      result: {
        get_url: "https://files.example/report.txt",
        expires_at: "soon",
      },
    }));
    plugin.onRequest("files/list", () => ({
      result: {
        items: [{ path: "reports/today.txt", size_bytes: 5 }],
        next_cursor: null,
      },
    }));
    const result = await invoke(plugin, "save_file", {
      path: "reports/today.txt",
      content: "hello",
    });
    expect(result).toMatchObject({
      success: true,
      data: {
        stored: { path: "reports/today.txt", etag: '"etag-1"', size_bytes: 5 },
        url: "https://files.example/report.txt",
        files: ["reports/today.txt"],
      },
    });
    expect(server.received).toEqual([
      {
        method: "PUT",
        path: "/put/reports/today.txt",
        contentType: "text/plain",
        authorization: undefined,
        body: "hello",
      },
    ]);
    expect(requests(plugin).map((f) => f.message.method)).toEqual([
      "files/upload_begin",
      "files/upload_complete",
      "files/download_url",
      "files/list",
    ]);
  });

  it("runs an agent turn, a completion, and always deletes the session", async () => {
    const plugin = start();
    plugin.onRequest("agent/session.create", () => ({
      result: {
        app_session_uuid: "aps_123",
        thread_id: "t1",
        granted_tools: ["*"],
      },
    }));
    plugin.onRequest("agent/session.run", () => ({
      result: {
        run_id: "run_1",
        frames: [
          { event: "delta", text: "Plan: " },
          { event: "tool_call", name: "search", args: {}, call_id: "c1" },
          { event: "final", text: "Plan: rest." },
        ],
      },
    }));
    plugin.onRequest("agent/complete", () => ({
      result: {
        role: "assistant",
        content: { type: "text", text: "Rest." },
      },
    }));
    plugin.onRequest("agent/session.delete", () => ({ result: { deleted: true } }));
    const result = await invoke(plugin, "agent_task", { task: "Plan my week" });
    expect(result).toMatchObject({
      success: true,
      data: { session: "aps_123", answer: "Plan: rest.", frames: 3 },
    });
    expect(requests(plugin).map((f) => f.message.method)).toEqual([
      "agent/session.create",
      "agent/session.run",
      "agent/complete",
      "agent/session.delete",
    ]);
    expect(requests(plugin, "agent/session.create")[0]?.message.params).toMatchObject({
      kind: "agent",
      agent_submode: "auto",
      label: "kitchen-sink",
    });
    expect(requests(plugin, "agent/session.run")[0]?.message.params).toMatchObject({
      app_session_uuid: "aps_123",
      content: "Plan my week",
    });
  });

  it("deletes the agent session even when the run fails", async () => {
    const plugin = start();
    plugin.onRequest("agent/session.create", () => ({ result: { app_session_uuid: "aps_9" } }));
    plugin.onRequest("agent/session.run", () => ({
      error: {
        code: -32047,
        message: "run too large",
        data: { errorCode: "AGENT_RUN_TOO_LARGE" },
      },
    }));
    plugin.onRequest("agent/session.delete", () => ({ result: {} }));
    const result = await invoke(plugin, "agent_task", { task: "x" });
    expect(result).toMatchObject({
      success: false,
      data: { code: -32047, errorCode: "AGENT_RUN_TOO_LARGE" },
    });
    expect(requests(plugin).map((f) => f.message.method)).toContain("agent/session.delete");
  });

  it("generates an image", async () => {
    const plugin = start();
    plugin.onRequest("image/generate", () => ({
      result: {
        images: [{ url: "https://img/1.png", mimeType: "image/png", width: 512, height: 512 }],
        model: "mock-image",
      },
    }));
    const result = await invoke(plugin, "draw", { prompt: "a lighthouse", size: "512x512" });
    expect(result).toMatchObject({
      success: true,
      data: { images: [{ url: "https://img/1.png" }], model: "mock-image" },
    });
    expect(requests(plugin, "image/generate")[0]?.message.params).toMatchObject({
      prompt: "a lighthouse",
      n: 1,
      size: "512x512",
      _clientTimeoutS: 120,
    });
  });

  it("uploads inline and through negotiate → PUT → confirm", async () => {
    const plugin = start();
    const server = await putServer();
    plugin.onRequest("host/uploadFile", (params) => {
      if (params.mode === "inline") {
        return {
          result: {
            r2_key: "k-inline",
            download_url: `https://dl/${Buffer.from(String(params.content_b64), "base64").toString()}`,
            size_bytes: 5,
            expires_at: "t",
          },
        };
      }
      if (params.mode === "negotiate")
        return {
          result: {
            r2_key: "k-put",
            put_url: server.url("/upload"),
            headers: { "Content-Type": "text/plain" },
            expires_in: 300,
          },
        };
      return {
        result: {
          r2_key: params.r2_key,
          download_url: "https://dl/confirmed",
          size_bytes: 5,
          expires_at: "t",
        },
      };
    });
    const result = await invoke(plugin, "publish_artifact", { content: "hello" });
    expect(result).toMatchObject({
      success: true,
      data: { inline: "https://dl/hello", presigned: "https://dl/confirmed", r2_key: "k-put" },
    });
    expect(
      requests(plugin, "host/uploadFile").map((f) => (f.message.params as { mode: string }).mode),
    ).toEqual(["inline", "negotiate", "confirm"]);
    expect(server.received).toMatchObject([
      { method: "PUT", contentType: "text/plain", authorization: undefined, body: "hello" },
    ]);
  });

  it("creates embeddings", async () => {
    const plugin = start();
    plugin.onRequest("embeddings/create", (params) => ({
      result: {
        object: "list",
        model: "anna-managed-v1",
        data: (params.input as string[]).map((_, index) => ({ index, embedding: [0, 1, 2] })),
      },
    }));
    const result = await invoke(plugin, "embed", { texts: ["a", "b"] });
    expect(result).toMatchObject({
      success: true,
      data: { model: "anna-managed-v1", dimensions: [3, 3] },
    });
  });

  it("reports progress notifications tied to the invoke", async () => {
    const plugin = start();
    const result = await invoke(plugin, "long_task", { steps: 3 });
    expect(result).toMatchObject({ success: true, data: { steps: 3 } });
    const progress = plugin.frames.filter((f) => f.message.method === "executa/progress");
    expect(progress.map((f) => f.message.params)).toEqual(
      [1, 2, 3].map((step) => ({
        type: "tool_update",
        data: { step, total: 3 },
        context: { invoke_id: "inv-long_task" },
        metadata: { executa_invoke_id: "inv-long_task", tool: "long_task" },
      })),
    );
    expect(progress.every((f) => f.message.id === undefined)).toBe(true);
  });

  it("returns a 1 MiB report through file transport", async () => {
    const plugin = start();
    const response = await plugin.request("invoke", { tool: "big_report", arguments: {} });
    expect(typeof response.fileTransport).toBe("string");
    expect(existsSync(response.fileTransport as string)).toBe(false);
    expect(
      (response.message.result as { data: { size: number; report: string } }).data.report.length,
    ).toBe(1024 * 1024);
  });

  it("reads the credential from the invoke context first, then the environment, and shows only a preview", async () => {
    const plugin = start({ KITCHEN_TOKEN: "env-token-0000" });
    expect(
      await invoke(
        plugin,
        "credentials_check",
        {},
        { credentials: { KITCHEN_TOKEN: "ctx-token-9999" } },
      ),
    ).toMatchObject({
      data: { from_context: true, preview: "ctx-…9999" },
    });
    expect(await invoke(plugin, "credentials_check")).toMatchObject({
      data: { from_context: false, preview: "env-…0000" },
    });
  });

  it("fails host calls locally, as expected failures, after a non-2.0 initialize", async () => {
    const plugin = start();
    await plugin.request("initialize", { protocolVersion: "1.1" }, 0);
    expect(await invoke(plugin, "draw", { prompt: "x" })).toMatchObject({
      success: false,
      data: { code: -32101, errorCode: "IMAGE_NOT_GRANTED" },
    });
    expect(requests(plugin)).toEqual([]);
  });
});
