// ts-notes run as the host runs it: `node dist/main.js`, raw NDJSON on stdio, reverse requests
// answered by this test (storage by an in-memory KV with etags, sampling by a canned reply).
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { FakeKv } from "../../../../packages/executa-sdk/test/helpers/fake-kv.js";
import { spawnNodePlugin } from "../../../../packages/executa-sdk/test/helpers/node-plugin.js";
import { type Frame, type PluginClient } from "@anna-ai/executa-test";

const MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));

function start(env: NodeJS.ProcessEnv = {}): { plugin: PluginClient; kv: FakeKv } {
  const plugin = spawnNodePlugin(MAIN, { env: { NOTES_API_KEY: "", ...env } });
  onTestFinished(() => plugin.dispose());
  const kv = new FakeKv();
  kv.attach(plugin);
  return { plugin, kv };
}

async function invoke(
  plugin: PluginClient,
  tool: string,
  args: Record<string, unknown>,
  invokeId = `inv-${tool}`,
): Promise<Record<string, unknown>> {
  const response = await plugin.request("invoke", {
    tool,
    name: tool,
    arguments: args,
    invoke_id: invokeId,
    context: { invoke_id: invokeId, plugin_name: "ts-notes", deadline_ms: Date.now() + 60_000 },
  });
  if (response.message.error !== undefined)
    throw new Error(`invoke ${tool} failed: ${JSON.stringify(response.message.error)}`);
  return response.message.result as Record<string, unknown>;
}

function reverseRequests(plugin: PluginClient): Frame[] {
  return plugin.frames.filter((f) => typeof f.message.method === "string");
}

describe("ts-notes", () => {
  it("negotiates v2 and describes four tools with its capabilities and optional credential", async () => {
    const { plugin } = start();
    const init = await plugin.request(
      "initialize",
      { protocolVersion: "2.0", capabilities: { sampling: {} } },
      0,
    );
    expect(init.message.result).toMatchObject({
      protocolVersion: "2.0",
      serverInfo: { name: "ts-notes", version: "0.1.0" },
      capabilities: { sampling: {}, storage: { kv: true } },
    });
    const manifest = (await plugin.request("describe")).message.result as Record<string, unknown>;
    expect((manifest.tools as { name: string }[]).map((t) => t.name)).toEqual([
      "add_note",
      "list_notes",
      "summarize_notes",
      "echo",
    ]);
    expect(manifest.host_capabilities).toEqual(["llm.sample", "aps.kv"]);
    expect(manifest.credentials).toEqual([
      expect.objectContaining({ name: "NOTES_API_KEY", required: false, sensitive: true }),
    ]);
  });

  it("adds notes to tool-scoped storage and lists them back, filtered by tag", async () => {
    const { plugin, kv } = start();
    const first = await invoke(plugin, "add_note", { text: "buy milk", tags: ["errands"] });
    const second = await invoke(plugin, "add_note", { text: "call mum" });
    expect(first).toMatchObject({ success: true, data: { count: 1 } });
    expect(second).toMatchObject({ success: true, data: { count: 2 } });
    const all = await invoke(plugin, "list_notes", {});
    expect((all.data as { notes: { text: string }[] }).notes.map((n) => n.text)).toEqual([
      "buy milk",
      "call mum",
    ]);
    expect(all.data).toMatchObject({ total: 2 });
    const errands = await invoke(plugin, "list_notes", { tag: "errands" });
    expect((errands.data as { notes: { text: string }[] }).notes.map((n) => n.text)).toEqual([
      "buy milk",
    ]);
    expect(kv.calls.every((c) => c.params.scope === "tool")).toBe(true);
    expect(
      reverseRequests(plugin).every(
        (f) => typeof f.message.id === "string" && /^[0-9a-f]{32}$/.test(f.message.id),
      ),
    ).toBe(true);
  });

  it("retries the stats update with a fresh etag when the host answers -32023", async () => {
    const { plugin, kv } = start();
    await invoke(plugin, "add_note", { text: "one" });
    let conflicts = 0;
    // Another writer bumps the stats right after the plugin read them, once.
    kv.afterGet = (scope, key) => {
      if (key === "meta/stats" && conflicts === 0) {
        conflicts += 1;
        kv.touch(scope, key, { count: 5, last_added_at: null });
      }
    };
    const result = await invoke(plugin, "add_note", { text: "two" });
    expect(result).toMatchObject({ success: true, data: { count: 6 } });
    const statSets = kv.calls.filter(
      (c) => c.method === "storage/set" && c.params.key === "meta/stats",
    );
    expect(statSets).toHaveLength(3);
    expect(statSets[1]?.params.if_match).not.toBe(statSets[2]?.params.if_match);
  });

  it("keeps counts right under concurrent adds, each reverse call tagged with its own invoke", async () => {
    const { plugin, kv } = start();
    // APS has no if-none-match: concurrent *first* writes cannot be serialised, so seed the record.
    await invoke(plugin, "add_note", { text: "seed" });
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((label) =>
        invoke(plugin, "add_note", { text: label }, `inv-${label}`),
      ),
    );
    expect(results.every((r) => r.success === true)).toBe(true);
    expect(kv.entries.get("tool:meta/stats")?.value).toMatchObject({ count: 5 });
    for (const frame of reverseRequests(plugin)) {
      const params = frame.message.params as {
        context: { invoke_id: string };
        metadata: { executa_invoke_id: string; tool: string };
      };
      expect(params.metadata).toEqual({
        executa_invoke_id: params.context.invoke_id,
        tool: "add_note",
      });
    }
    const sets = kv.calls.filter(
      (c) => c.method === "storage/set" && c.params.key === "meta/stats",
    );
    expect(sets.length).toBeGreaterThanOrEqual(5);
  });

  it("summarises notes through sampling", async () => {
    const { plugin } = start();
    let sampled: Record<string, unknown> | undefined;
    plugin.onRequest("sampling/createMessage", (params) => {
      sampled = params;
      return {
        result: {
          role: "assistant",
          content: { type: "text", text: "You have two errands." },
          model: "mock-1",
          stopReason: "endTurn",
        },
      };
    });
    await invoke(plugin, "add_note", { text: "buy milk" });
    await invoke(plugin, "add_note", { text: "post letter" });
    const result = await invoke(plugin, "summarize_notes", { max_tokens: 100 });
    expect(result).toMatchObject({
      success: true,
      data: { summary: "You have two errands.", note_count: 2, model: "mock-1" },
    });
    expect(sampled).toMatchObject({
      maxTokens: 100,
      includeContext: "none",
      metadata: { executa_invoke_id: "inv-summarize_notes" },
    });
    expect(JSON.stringify(sampled?.messages)).toContain("1. buy milk\\n2. post letter");
  });

  it("does not call sampling when there is nothing to summarise", async () => {
    const { plugin } = start();
    const result = await invoke(plugin, "summarize_notes", {});
    expect(result).toMatchObject({ success: true, data: { note_count: 0 } });
    expect(reverseRequests(plugin).map((f) => f.message.method)).not.toContain(
      "sampling/createMessage",
    );
  });

  it("reports a sampling failure as an expected tool failure carrying the host code", async () => {
    const { plugin } = start();
    plugin.onRequest("sampling/createMessage", () => ({
      error: {
        code: -32001,
        message: "sampling not granted",
        data: { errorCode: "SAMPLING_NOT_GRANTED" },
      },
    }));
    await invoke(plugin, "add_note", { text: "x" });
    const result = await invoke(plugin, "summarize_notes", {});
    expect(result).toMatchObject({
      success: false,
      error: "sampling not granted",
      data: { code: -32001, errorCode: "SAMPLING_NOT_GRANTED" },
    });
  });

  it("echoes without any host call and previews the credential from the context, else the environment", async () => {
    const { plugin } = start({ NOTES_API_KEY: "env-key-123456789" });
    const fromContext = await plugin.request("invoke", {
      tool: "echo",
      arguments: { text: "hi" },
      context: { invoke_id: "e1", credentials: { NOTES_API_KEY: "ctx-key-abcdefgh" } },
    });
    expect(fromContext.message.result).toMatchObject({
      success: true,
      data: { text: "hi", api_key: "ctx-…efgh" },
    });
    const fromEnv = await invoke(plugin, "echo", { text: "hi" });
    expect(fromEnv).toMatchObject({ data: { api_key: "env-…6789" } });
    expect(reverseRequests(plugin)).toEqual([]);
    expect(plugin.stderr).not.toContain("ctx-key-abcdefgh");
  });

  it("rejects bad arguments with -32602 and empty notes as a tool failure", async () => {
    const { plugin } = start();
    const bad = await plugin.request("invoke", { tool: "add_note", arguments: { text: 42 } });
    expect(bad.message.error).toMatchObject({ code: -32602, data: { argument: "text" } });
    expect(await invoke(plugin, "add_note", { text: "   " })).toMatchObject({
      success: false,
      error: "a note needs some text",
    });
  });
});
