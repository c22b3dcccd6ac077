// `anna-app executa mcp` as a real process, driven by the official MCP SDK client over stdio and
// over Streamable HTTP: the example executas' tools listed and called, the plugin's sampling
// answered by the client's own model.
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  McpError,
  type CreateMessageRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { CLI, example, tempDir } from "../executa-dev/helpers.js";

const python = needs("python3");

interface Connected {
  client: Client;
  sampled: CreateMessageRequest["params"][];
}

/** A client that answers sampling like a model would, when `sampling` is true. */
async function connect(transport: Transport, sampling = true): Promise<Connected> {
  const sampled: CreateMessageRequest["params"][] = [];
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: sampling ? { sampling: {} } : {} },
  );
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      sampled.push(request.params);
      return {
        role: "assistant",
        content: { type: "text", text: "the client's model summarised it" },
        model: "client-model",
        stopReason: "endTurn",
      };
    });
  }
  await client.connect(transport);
  onTestFinished(() => client.close());
  return { client, sampled };
}

function stdio(dir: string, extra: string[] = []): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "executa", "mcp", "--dir", dir, ...extra],
    // An empty config folder: no saved account turns sampling real behind the test's back.
    env: { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: tempDir("mcp-config-") },
    stderr: "pipe",
  });
}

async function serveHttp(dir: string): Promise<URL> {
  const child = spawn(process.execPath, [CLI, "executa", "mcp", "--dir", dir, "--http", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, XDG_CONFIG_HOME: tempDir("mcp-config-") },
  });
  onTestFinished(() => void child.kill("SIGTERM"));
  return new Promise<URL>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${seen}`)), 20_000);
    child.stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(new URL(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`executa mcp exited with ${code}: ${seen}`)));
  });
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((block) => block.text ?? "").join("");
}

describe("anna-app executa mcp (TypeScript example ts-notes)", () => {
  it("lists tools, calls them and routes sampling to the client over stdio", async () => {
    const { client, sampled } = await connect(stdio(example("ts-notes")));
    const { tools } = await client.listTools();
    const addNote = tools.find((tool) => tool.name === "add_note");
    expect(addNote?.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
      required: ["text"],
    });
    const added = await client.callTool({ name: "add_note", arguments: { text: "buy milk" } });
    expect(added.isError).toBeUndefined();
    expect(added.structuredContent).toMatchObject({ count: 1 });
    const summary = await client.callTool({ name: "summarize_notes", arguments: {} });
    expect(summary.structuredContent).toMatchObject({
      summary: "the client's model summarised it",
      note_count: 1,
      model: "client-model",
    });
    expect(sampled).toHaveLength(1);
    expect(sampled[0]?.systemPrompt).toContain("summarise personal notes");
    expect(JSON.stringify(sampled[0]?.messages)).toContain("buy milk");
  });

  it("answers a tool failure with isError and bad arguments with an MCP error", async () => {
    const { client } = await connect(stdio(example("ts-notes")));
    const failed = await client.callTool({ name: "add_note", arguments: { text: "   " } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain("a note needs some text");
    const error = await client.callTool({ name: "echo", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });

  it("falls back to the offline sampling service for a client without sampling", async () => {
    const { client } = await connect(stdio(example("ts-notes")), false);
    await client.callTool({ name: "add_note", arguments: { text: "call mum" } });
    const summary = await client.callTool({ name: "summarize_notes", arguments: {} });
    expect(summary.isError).toBe(true);
    expect(textOf(summary)).toMatch(/sampling/i);
  });

  it("serves Streamable HTTP on 127.0.0.1 with sampling on the call's stream", async () => {
    const url = await serveHttp(example("ts-notes"));
    const { client, sampled } = await connect(new StreamableHTTPClientTransport(url));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "add_note",
      "echo",
      "list_notes",
      "summarize_notes",
    ]);
    await client.callTool({ name: "add_note", arguments: { text: "water plants" } });
    const summary = await client.callTool({ name: "summarize_notes", arguments: {} });
    expect(summary.structuredContent).toMatchObject({
      summary: "the client's model summarised it",
    });
    expect(sampled).toHaveLength(1);
  });

  it("refuses a foreign Host or browser Origin before MCP sees the request", async () => {
    const url = await serveHttp(example("ts-notes"));
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    // fetch sets Host itself: send the rebinding case through node:http.
    const { request } = await import("node:http");
    const rebound = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        { method: "POST", headers: { ...headers, host: "evil.example" } },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(rebound.status).toBe(403);
    expect(rebound.text).toContain('not Host \\"evil.example\\"');
    const foreign = await fetch(url, {
      method: "POST",
      headers: { ...headers, origin: "http://evil.example" },
      body,
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain("may not call this MCP server");
  });
});

describe.skipIf(python.skip)(
  `anna-app executa mcp (Python example py-studio)${python.reason}`,
  () => {
    it("calls a Python tool whose sampling the client answers", async () => {
      const { client, sampled } = await connect(stdio(example("py-studio")));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("summarize");
      const result = await client.callTool({
        name: "summarize",
        arguments: { text: "A long text about rivers and the sea." },
      });
      expect(result.isError).toBeUndefined();
      expect(JSON.stringify(result.structuredContent ?? textOf(result))).toContain(
        "the client's model summarised it",
      );
      expect(sampled).toHaveLength(1);
    });
  },
);
