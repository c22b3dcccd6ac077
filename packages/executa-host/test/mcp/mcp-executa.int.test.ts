// A real MCP server (the official TS SDK, test/fixtures/mcp/fixture-server.mjs) run as a
// `type: "mcp"` executa through the pool: the host spawns the bridge, the bridge the server.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SamplingRequest } from "@anna-ai/app-schema";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { ExecutaHost } from "../../src/host/executa-host.js";
import { detectLaunchSpec } from "../../src/launch/detect.js";
import { LaunchError } from "../../src/launch/launch-error.js";
import type { RouterProgressEvent } from "../../src/router/progress.js";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import { createStaticGrantPolicy } from "../../src/services/grants.js";
import type { SamplingService } from "../../src/services/sampling-service.js";
import { eventually } from "../process/helpers.js";

const SERVER = fileURLToPath(new URL("../fixtures/mcp/fixture-server.mjs", import.meta.url));
const START_TIMEOUTS = { initializeMs: 10_000, describeMs: 20_000 };

const hosts: ExecutaHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function pluginDir(executaJson: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "anna-mcp-executa-"));
  writeFileSync(path.join(dir, "executa.json"), JSON.stringify(executaJson));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Harness {
  host: ExecutaHost;
  samplingCalls: SamplingRequest[];
  progress: RouterProgressEvent[];
}

async function startMcpExecuta(
  executaJson: Record<string, unknown>,
  samplingGrant: { maxCalls?: number } | null = {},
): Promise<Harness> {
  const samplingCalls: SamplingRequest[] = [];
  const progress: RouterProgressEvent[] = [];
  const sampling: SamplingService = {
    createMessage: (request) => {
      samplingCalls.push(request);
      return Promise.resolve({
        role: "assistant",
        content: { type: "text", text: "forty-two" },
        model: "host-model",
        stopReason: "endTurn",
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      });
    },
  };
  const router = new ReverseRpcRouter({
    services: { sampling },
    grants: createStaticGrantPolicy(samplingGrant === null ? {} : { sampling: samplingGrant }),
    onProgress: (event) => progress.push(event),
  });
  const host = new ExecutaHost({ router, timeouts: START_TIMEOUTS });
  hosts.push(host);
  const spec = await detectLaunchSpec(pluginDir(executaJson));
  host.register(spec, { userId: "alice" });
  return { host, samplingCalls, progress };
}

const STDIO = { tool_id: "fixture-mcp", type: "mcp", command: "node", args: [SERVER] };

describe("type: mcp executas", () => {
  it("describes the MCP tools with their input schemas mapped to Anna parameters", async () => {
    const { host } = await startMcpExecuta(STDIO);
    const manifest = await host.describe("alice", "fixture-mcp");
    expect(manifest.host_capabilities).toEqual(["llm.sample"]);
    expect(manifest.description).toBe("Fixture tools for the Anna MCP bridge tests");
    const echo = manifest.tools.find((tool) => tool.name === "echo");
    expect(echo?.description).toBe("Repeat a text");
    expect(echo?.parameters).toEqual([
      { name: "text", type: "string", required: true, description: "What to repeat" },
      { name: "times", type: "integer", required: false, default: 1 },
      { name: "style", type: "string", required: false, enum: ["plain", "loud"] },
      { name: "tags", type: "array", required: false, items: { type: "string" } },
    ]);
    // anyOf has no parameter-list form: the JSON Schema is passed through whole.
    const pick = manifest.tools.find((tool) => tool.name === "pick");
    expect(pick?.parameters).toEqual({
      type: "object",
      properties: { choice: { anyOf: [{ type: "string" }, { type: "integer" }] } },
    });
  });

  it("calls tools: text and structured results, and isError as a tool failure", async () => {
    const { host } = await startMcpExecuta(STDIO);
    const echo = await host.invoke("alice", "fixture-mcp", "echo", { text: "hi", times: 2 });
    expect(echo).toMatchObject({ ok: true, data: "hi hi" });
    const add = await host.invoke("alice", "fixture-mcp", "add", { a: 2, b: 3 });
    expect(add).toMatchObject({ ok: true, data: { sum: 5 } });
    const fail = await host.invoke("alice", "fixture-mcp", "fail", {});
    expect(fail).toMatchObject({ ok: false, kind: "tool_failed", error: "disk full" });
    const unknown = await host.invoke("alice", "fixture-mcp", "nope", {});
    expect(unknown.ok).toBe(false);
    if (!unknown.ok && unknown.kind === "rpc_error") {
      expect(unknown.error.code).toBe(-32601);
      expect(unknown.error.message).toContain("Unknown tool: nope");
    } else {
      throw new Error(`expected a -32601 rpc_error, got ${JSON.stringify(unknown)}`);
    }
  });

  it("serves the server's sampling requests with the host's sampling service", async () => {
    const { host, samplingCalls } = await startMcpExecuta(STDIO);
    const outcome = await host.invoke("alice", "fixture-mcp", "ask", { question: "meaning?" });
    expect(outcome).toMatchObject({ ok: true, data: "model said: forty-two" });
    expect(samplingCalls).toHaveLength(1);
    expect(samplingCalls[0]?.maxTokens).toBe(50);
    expect(samplingCalls[0]?.messages[0]).toEqual({
      role: "user",
      content: { type: "text", text: "meaning?" },
    });
  });

  it("refuses sampling the user did not grant, as for any plugin", async () => {
    const { host, samplingCalls } = await startMcpExecuta(STDIO, null);
    const outcome = await host.invoke("alice", "fixture-mcp", "ask", { question: "meaning?" });
    expect(outcome.ok).toBe(false);
    if (outcome.ok || outcome.kind !== "tool_failed") throw new Error("expected a tool failure");
    expect(outcome.error).toMatch(/^sampling failed: .*sampling/i);
    expect(samplingCalls).toHaveLength(0);
  });

  it("maps MCP progress to executa/progress and host cancellation to MCP cancellation", async () => {
    const cancelFile = path.join(pluginDir({}), "cancelled.txt");
    const { host, progress } = await startMcpExecuta({
      ...STDIO,
      env: { MCP_FIXTURE_CANCEL_FILE: cancelFile },
    });
    const controller = new AbortController();
    const pending = host.invoke(
      "alice",
      "fixture-mcp",
      "wait_for_cancel",
      {},
      {
        signal: controller.signal,
      },
    );
    await eventually(() => progress.length > 0, "the server reported progress", 15_000);
    expect(progress[0]).toMatchObject({
      tool: "wait_for_cancel",
      type: "progress",
      data: { progress: 1, total: 10, message: "started" },
    });
    controller.abort(new Error("user pressed stop"));
    const outcome = await pending;
    expect(outcome).toMatchObject({ ok: false, kind: "rpc_error" });
    await eventually(() => existsSync(cancelFile), "the MCP server saw the cancellation", 10_000);
    expect(readFileSync(cancelFile, "utf8")).toContain("user pressed stop");
    // The bridge and the server are still serving.
    const echo = await host.invoke("alice", "fixture-mcp", "echo", { text: "still here" });
    expect(echo).toMatchObject({ ok: true, data: "still here" });
  });

  it("connects to a Streamable HTTP server named by url", async () => {
    const child = spawn(process.execPath, [SERVER, "--http"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    onTestFinished(() => void child.kill());
    const port = await new Promise<number>((resolve, reject) => {
      let seen = "";
      child.stderr.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /listening (\d+)/.exec(seen);
        if (match) resolve(Number(match[1]));
      });
      child.once("exit", (code) =>
        reject(new Error(`fixture server exited with ${code}: ${seen}`)),
      );
    });
    const { host, samplingCalls } = await startMcpExecuta({
      tool_id: "fixture-mcp",
      type: "mcp",
      url: `http://127.0.0.1:${port}/mcp`,
    });
    const echo = await host.invoke("alice", "fixture-mcp", "echo", { text: "over http" });
    expect(echo).toMatchObject({ ok: true, data: "over http" });
    const ask = await host.invoke("alice", "fixture-mcp", "ask", { question: "http?" });
    expect(ask).toMatchObject({ ok: true, data: "model said: forty-two" });
    expect(samplingCalls).toHaveLength(1);
  });

  it("rejects an executa.json with neither command nor url before spawning anything", async () => {
    const dir = pluginDir({ tool_id: "broken", type: "mcp" });
    const error = await detectLaunchSpec(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LaunchError);
    expect((error as LaunchError).message).toMatch(/needs "command".*or "url"/);
  });
});
