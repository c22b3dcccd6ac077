import { RpcError } from "@anna-ai/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, p, SamplingError } from "../src/index.js";
import { startPlugin, type MemoryHost } from "./helpers/memory-host.js";

const plugin = definePlugin({
  manifest: {
    name: "demo",
    version: "0.3.0",
    description: "Runtime tests.",
    host_capabilities: ["llm.sample", "aps.kv", "llm.image.edit", "host.upload"],
  },
  tools: {
    echo: {
      description: "Echo.",
      parameters: { text: p.string() },
      handler: ({ text }) => ({ text }),
    },
    nothing: { description: "Returns undefined.", parameters: {}, handler: () => undefined },
    fail: {
      description: "Throws a plain error.",
      parameters: {},
      handler: () => {
        throw new Error("city not found");
      },
    },
    rpc_fail: {
      description: "Throws an RpcError.",
      parameters: {},
      handler: () => {
        throw new RpcError(-32000, "backend exploded", { errorCode: "BACKEND" });
      },
    },
    host_fail: {
      description: "Throws a host call error.",
      parameters: {},
      handler: () => {
        throw new SamplingError("quota", {
          code: -32002,
          errorCode: "SAMPLING_QUOTA_EXCEEDED",
          method: "sampling/createMessage",
        });
      },
    },
    caps: {
      description: "Reports the host's initialize capabilities.",
      parameters: {},
      handler: (_args, ctx) => ctx.hostCapabilities ?? "none",
    },
    whoami: {
      description: "Reports its context.",
      parameters: {},
      handler: (_args, ctx) => ({
        invokeId: ctx.invokeId,
        tool: ctx.tool,
        pluginName: ctx.pluginName,
        deadlineMs: ctx.deadlineMs,
        remaining: ctx.remainingMs() === Number.POSITIVE_INFINITY ? "infinite" : "finite",
      }),
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

describe("plugin runtime", () => {
  it("answers initialize with the offered 2.0, both serverInfo spellings and capabilities from the manifest", async () => {
    const { host } = start();
    const result = await host.request(
      "initialize",
      { protocolVersion: "2.0", capabilities: {} },
      { id: 0 },
    );
    const capabilities = {
      sampling: {},
      storage: { kv: true },
      image: {},
      "image.edit": {},
      upload: {},
    };
    expect(result).toEqual({
      protocolVersion: "2.0",
      serverInfo: { name: "demo", version: "0.3.0" },
      server_info: { name: "demo", version: "0.3.0" },
      capabilities,
      client_capabilities: capabilities,
    });
  });

  it("echoes another offered version and disables reverse clients", async () => {
    const { host, runtime } = start();
    const result = await host.request<Record<string, unknown>>("initialize", {
      protocolVersion: "2.1",
    });
    expect(result.protocolVersion).toBe("2.1");
    expect(runtime.channel.enabled).toBe(false);
  });

  it("answers 1.1 with clients off when initialize names no version", async () => {
    const { host, runtime } = start();
    const result = await host.request<Record<string, unknown>>("initialize", {});
    expect(result.protocolVersion).toBe("1.1");
    expect(runtime.channel.enabled).toBe(false);
  });

  it("hands the host's offered capabilities to handlers", async () => {
    const { host, invoke } = start();
    await host.request("initialize", {
      protocolVersion: "2.0",
      capabilities: { sampling: { responseFormat: ["json_object"] }, fileTransport: true },
    });
    expect(await invoke("caps")).toMatchObject({
      data: { sampling: { responseFormat: ["json_object"] }, fileTransport: true },
    });
  });

  it("keeps reverse clients enabled when no initialize arrives", async () => {
    const { host, runtime } = start();
    await host.request("describe");
    expect(runtime.channel.enabled).toBe(true);
  });

  it("returns the bare manifest for describe", async () => {
    const { host } = start();
    const manifest = await host.request<Record<string, unknown>>("describe");
    expect(manifest.name).toBe("demo");
    expect((manifest.tools as unknown[]).length).toBe(7);
  });

  it("wraps handler data in a success InvokeResult echoing the tool", async () => {
    const { invoke } = start();
    const result = await invoke("echo", { text: "hi" });
    expect(result).toMatchObject({ success: true, data: { text: "hi" }, tool: "echo" });
    expect(typeof result.duration_ms).toBe("number");
  });

  it("sends data null when the handler returns nothing", async () => {
    const { invoke } = start();
    expect(await invoke("nothing")).toMatchObject({ success: true, data: null });
  });

  it("selects the tool from params.name when params.tool is missing", async () => {
    const { host } = start();
    const result = await host.request("invoke", { name: "echo", arguments: { text: "x" } });
    expect(result).toMatchObject({ success: true, data: { text: "x" } });
  });

  it("answers an unknown tool with -32601", async () => {
    const { invoke } = start();
    await expect(invoke("nope")).rejects.toMatchObject({
      code: -32601,
      message: "Unknown tool: nope",
    });
  });

  it("answers bad arguments with -32602 naming the argument, before the handler runs", async () => {
    const { invoke } = start();
    await expect(invoke("echo", { text: 1 })).rejects.toMatchObject({
      code: -32602,
      data: { argument: "text" },
    });
    await expect(invoke("echo", { text: "a", extra: true })).rejects.toMatchObject({
      code: -32602,
      data: { argument: "extra" },
    });
  });

  it("answers non-object arguments with -32602", async () => {
    const { host } = start();
    await expect(
      host.request("invoke", { tool: "echo", arguments: "text=hi" }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("tolerates non-object params: no tool means -32601, not a crash", async () => {
    const { host } = start();
    await expect(host.request("invoke", "oops")).rejects.toMatchObject({ code: -32601 });
    await expect(host.request("invoke", null)).rejects.toMatchObject({ code: -32601 });
    expect(await host.request("health", [1, 2])).toEqual({
      status: "ready",
      message: "",
      details: {},
    });
  });

  it("reports a thrown error as an expected failure", async () => {
    const { invoke } = start();
    expect(await invoke("fail")).toMatchObject({
      success: false,
      error: "city not found",
      tool: "fail",
    });
  });

  it("keeps the host code of a host call error in the failure's data", async () => {
    const { invoke } = start();
    expect(await invoke("host_fail")).toMatchObject({
      success: false,
      error: "quota",
      data: { code: -32002, errorCode: "SAMPLING_QUOTA_EXCEEDED" },
    });
  });

  it("turns a thrown RpcError into a JSON-RPC error", async () => {
    const { invoke } = start();
    await expect(invoke("rpc_fail")).rejects.toMatchObject({
      code: -32000,
      message: "backend exploded",
      data: { errorCode: "BACKEND" },
    });
  });

  it("fills the context from params.context, with plugin name and deadline fallbacks", async () => {
    const { invoke, host } = start();
    expect(
      await invoke(
        "whoami",
        {},
        { invoke_id: "inv-1", plugin_name: "my-plugin", deadline_ms: Date.now() + 60_000 },
      ),
    ).toMatchObject({
      data: { invokeId: "inv-1", tool: "whoami", pluginName: "my-plugin", remaining: "finite" },
    });
    expect(await invoke("whoami")).toMatchObject({
      data: { invokeId: "", pluginName: "demo", deadlineMs: 0, remaining: "infinite" },
    });
    expect(
      await host.request("invoke", { tool: "whoami", invoke_id: "top-level", deadline_ms: 5 }),
    ).toMatchObject({
      data: { invokeId: "top-level", deadlineMs: 5, remaining: "finite" },
    });
  });

  it("answers shutdown with {} and unknown methods with -32601", async () => {
    const { host } = start();
    expect(await host.request("shutdown")).toEqual({});
    await expect(host.request("tools/list")).rejects.toMatchObject({ code: -32601 });
  });

  it("uses a custom health hook", async () => {
    const withHealth = definePlugin({
      manifest: { version: "1.0.0", description: "h" },
      tools: { t: { description: "t", parameters: {}, handler: () => 1 } },
      health: () => ({ status: "initializing", message: "warming up" }),
    });
    running = startPlugin(withHealth);
    expect(await running.host.request("health")).toEqual({
      status: "initializing",
      message: "warming up",
    });
  });
});
