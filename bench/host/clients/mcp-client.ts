// The MCP baseline's host side: the TypeScript SDK's Client over StdioClientTransport, ready after
// `initialize` (inside connect) and `tools/list`. Server → client `roots/list` is answered at once.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ChildEnv } from "../child-env.js";
import { pluginPath } from "../paths.js";
import type { BenchClient } from "./bench-client.js";

/** The SDK's default request timeout is 60 s; a flood that kills the transport must fail sooner. */
const FLOOD_TIMEOUT_MS = 30_000;

interface TextResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}

function firstText(result: unknown): string {
  const { content, isError } = result as TextResult;
  const text = content[0]?.text;
  if (isError === true || text === undefined)
    throw new Error(`tool failed: ${JSON.stringify(result)}`);
  return text;
}

class McpBenchClient implements BenchClient {
  readonly #client: Client;
  readonly #transport: StdioClientTransport;
  readonly pid: number;

  constructor(client: Client, transport: StdioClientTransport) {
    this.#client = client;
    this.#transport = transport;
    this.pid = transport.pid ?? -1;
  }

  async echo(text: string): Promise<string> {
    return firstText(await this.#client.callTool({ name: "echo", arguments: { text } }));
  }

  async reverse(): Promise<number> {
    const text = firstText(await this.#client.callTool({ name: "reverse", arguments: {} }));
    return (JSON.parse(text) as { reverse_ms: number }).reverse_ms;
  }

  async flood(bytes: number): Promise<void> {
    firstText(
      await this.#client.callTool({ name: "flood", arguments: { bytes } }, undefined, {
        timeout: FLOOD_TIMEOUT_MS,
      }),
    );
  }

  async close(): Promise<void> {
    await this.#client.close();
    await this.#transport.close();
  }
}

export async function launchMcp(env: ChildEnv): Promise<BenchClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [pluginPath("mcp-server.mjs")],
    env: { ...env },
    stderr: "inherit",
  });
  const client = new Client(
    { name: "bench-mcp-client", version: "0.1.0" },
    { capabilities: { roots: {} } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  await client.connect(transport);
  await client.listTools();
  return new McpBenchClient(client, transport);
}
