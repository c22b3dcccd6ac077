// go-hello (protocol 2.0, Go stdlib) built once with `go build -o`, then driven over raw NDJSON.
// Skipped with a message when `go` is not installed (CI installs golang-go).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needs } from "../../support/toolchains.js";
import {
  exampleDir,
  goBuild,
  goTestBinary,
  GO_BUILD_TIMEOUT_MS,
  pluginEnv,
  run,
  startPlugin,
} from "./example-plugins.js";
import type { GoBuild } from "./example-plugins.js";
import type { JsonObject, PluginClient } from "@anna-ai/executa-test";

const EXAMPLE = "go-hello";
const HEX32 = /^[0-9a-f]{32}$/;
const go = needs("go");

describe.skipIf(go.skip)(`go-hello example${go.reason}`, () => {
  let build: GoBuild | undefined;
  let testBinary: string | undefined;

  beforeAll(async () => {
    build = await goBuild(EXAMPLE, { "go-hello": ["."] });
    testBinary = await goTestBinary(EXAMPLE, build.outDir);
  }, GO_BUILD_TIMEOUT_MS);
  afterAll(() => build?.cleanup());

  function start(env: NodeJS.ProcessEnv = pluginEnv({}, ["GREETING_PREFIX"])): PluginClient {
    const binary = build?.binaries["go-hello"];
    if (!binary) throw new Error("go-hello was not built");
    return startPlugin(binary, [], exampleDir(EXAMPLE), env);
  }

  async function startInitialized(offer = "2.0"): Promise<PluginClient> {
    const plugin = start();
    const init = await plugin.request("initialize", { protocolVersion: offer }, 0);
    expect(init.message.result).toMatchObject({ protocolVersion: offer });
    return plugin;
  }

  it("answers initialize and describe like published v2 plugins", async () => {
    const plugin = start();
    const init = await plugin.request(
      "initialize",
      { protocolVersion: "2.0", client_capabilities: { sampling: {} } },
      0,
    );
    expect(init.message).toEqual({
      jsonrpc: "2.0",
      id: 0,
      result: {
        protocolVersion: "2.0",
        serverInfo: { name: "go-hello", version: "0.1.0" },
        client_capabilities: { sampling: {}, storage: {} },
        capabilities: { storage: { kv: true } },
      },
    });
    const manifest = (await plugin.request("describe")).message.result as JsonObject;
    expect(manifest).not.toHaveProperty("name");
    expect(manifest.host_capabilities).toEqual(["llm.sample", "aps.kv"]);
    expect((manifest.tools as { name: string }[]).map((t) => t.name)).toEqual([
      "greet",
      "ask",
      "remember",
    ]);
    expect((await plugin.request("health")).message.result).toEqual({ status: "ok" });
  });

  it("greets with the GREETING_PREFIX credential, falling back to the environment", async () => {
    const fromContext = start(pluginEnv({ GREETING_PREFIX: "Howdy" }));
    const frame = await fromContext.invoke(
      "greet",
      { name: "Ann" },
      { credentials: { GREETING_PREFIX: "Hi" } },
      "g-1",
    );
    expect(frame.message).toEqual({
      jsonrpc: "2.0",
      id: "g-1",
      result: {
        success: true,
        tool: "greet",
        data: { greeting: "Hi, Ann!", prefix_source: "context" },
      },
    });
    const fromEnv = await fromContext.invoke("greet", { name: "Bo" }, {});
    expect(fromEnv.message.result).toMatchObject({
      data: { greeting: "Howdy, Bo!", prefix_source: "env" },
    });
  });

  it("rejects unknown tools with -32601 and bad arguments with -32602", async () => {
    const plugin = start();
    expect((await plugin.invoke("wave", {}, {})).message.error).toMatchObject({ code: -32601 });
    expect(
      (await plugin.invoke("greet", { name: "A", mood: "happy" }, {})).message.error,
    ).toMatchObject({ code: -32602 });
    expect((await plugin.invoke("greet", {}, {})).message.error).toMatchObject({ code: -32602 });
  });

  it("asks the host through sampling/createMessage with a 32-hex string id and invoke metadata", async () => {
    const plugin = await startInitialized();
    const result = plugin.invoke("ask", { question: "Why?" }, { invoke_id: "inv-ask" });
    const request = await plugin.nextReverse("sampling/createMessage");
    expect(request.message.id).toMatch(HEX32);
    expect(request.message.params).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Why?" } }],
      maxTokens: 256,
      includeContext: "none",
      metadata: { executa_invoke_id: "inv-ask", tool: "ask" },
      context: { invoke_id: "inv-ask" },
    });
    plugin.reply(request.message.id, {
      role: "assistant",
      content: { type: "text", text: "Because." },
      model: "m",
    });
    expect((await result).message.result).toMatchObject({
      success: true,
      data: { answer: "Because.", model: "m" },
    });
  });

  it("uses integer ids for storage and ignores an answer whose id changed type", async () => {
    const plugin = await startInitialized();
    const result = plugin.invoke(
      "remember",
      { key: "colour", value: "teal" },
      { invoke_id: "inv-mem" },
    );
    const set = await plugin.nextReverse("storage/set");
    expect(typeof set.message.id).toBe("number");
    expect(set.message.params).toMatchObject({
      key: "memory/colour",
      value: "teal",
      scope: "tool",
    });
    plugin.reply(String(set.message.id), { etag: "wrong" }); // a stringified integer id matches nothing
    await plugin.waitForStderr(/unmatched response/);
    plugin.reply(set.message.id, { etag: "e1", generation: 1, size_bytes: 6 });
    const get = await plugin.nextReverse("storage/get");
    expect(get.message.id).toBe((set.message.id as number) + 1);
    plugin.reply(get.message.id, { value: "teal", exists: true, etag: "e1" });
    expect((await result).message.result).toMatchObject({
      success: true,
      data: { key: "memory/colour", value: "teal", exists: true, etag: "e1" },
    });
  });

  it("reports a reverse-call error as success:false", async () => {
    const plugin = await startInitialized();
    const result = plugin.invoke("ask", { question: "?" }, { invoke_id: "inv-denied" });
    const request = await plugin.nextReverse("sampling/createMessage");
    plugin.replyError(request.message.id, {
      code: -32009,
      message: "user denied",
      data: { errorCode: "SAMPLING_USER_DENIED" },
    });
    expect((await result).message.result).toMatchObject({
      success: false,
      error: expect.stringContaining("-32009") as unknown,
    });
  });

  it("keeps its clients off when the host does not offer exactly 2.0", async () => {
    const plugin = await startInitialized("2.1");
    const frame = await plugin.invoke("ask", { question: "?" }, { invoke_id: "i" });
    expect(frame.message.result).toMatchObject({
      success: false,
      error: expect.stringContaining("-32008") as unknown,
    });
    expect(plugin.frames.some((f) => f.message.method === "sampling/createMessage")).toBe(false);
  });

  it("serves invokes on goroutines: greet answers while ask waits on the host", async () => {
    const plugin = await startInitialized();
    const slow = plugin.invoke("ask", { question: "?" }, { invoke_id: "inv-1" }, 1);
    const sampling = await plugin.nextReverse("sampling/createMessage");
    const fast = await plugin.invoke("greet", { name: "Cy" }, { invoke_id: "inv-2" }, 2);
    expect(fast.message.result).toMatchObject({ success: true });
    plugin.reply(sampling.message.id, {
      role: "assistant",
      content: { type: "text", text: "late" },
      model: "m",
    });
    const late = await slow;
    expect(plugin.frames.indexOf(fast)).toBeLessThan(plugin.frames.indexOf(late));
  });

  it("exits 0 on stdin EOF", async () => {
    const plugin = start();
    await plugin.request("describe");
    expect(await plugin.close()).toEqual({ code: 0, signal: null });
  });

  it("passes its own go test suite (compiled once with go test -c)", async () => {
    if (!testBinary) throw new Error("the go test binary was not built");
    const result = await run(testBinary, ["-test.v"], exampleDir(EXAMPLE), pluginEnv(), 20_000);
    expect(result.stdout).toMatch(/^--- PASS: TestRememberUsesIntegerReverseIds/m);
    expect(result.stdout).toMatch(/^PASS$/m);
    expect(result.code).toBe(0);
  });
});
