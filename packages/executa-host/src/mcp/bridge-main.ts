// The process the host starts for a `type: "mcp"` executa (see launch/mcp-launch.ts):
//   node bridge-main.js <plugin dir> [-- <server argv>]
// stdout is the Executa protocol; the MCP server's stderr and the bridge's logs (JSON lines)
// go to stderr, which the host keeps in its stderr ring.
import * as path from "node:path";
import { RpcPeer, type Logger } from "@anna-ai/jsonrpc";
import { stdioTransport } from "@anna-ai/jsonrpc/node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { readExecutaJsonRaw } from "../launch/executa-json.js";
import { McpBridge } from "./mcp-bridge.js";
import { readMcpServerConfig, type McpServerConfig } from "./mcp-server-config.js";

/** Exit code when the MCP server cannot be reached or goes away: the host restarts the bridge. */
const EXIT_SERVER_GONE = 3;

const logger: Logger = {
  debug: () => {},
  info: (message, fields) => log("info", message, fields),
  warn: (message, fields) => log("warn", message, fields),
  error: (message, fields) => log("error", message, fields),
};

function log(level: string, message: string, fields?: Record<string, unknown>): void {
  process.stderr.write(
    JSON.stringify({ level, component: "mcp-bridge", message, ...fields }) + "\n",
  );
}

function clientTransport(config: McpServerConfig, dir: string): Transport {
  if (config.transport === "http") return new StreamableHTTPClientTransport(config.url);
  const [command, ...args] = config.command;
  const env: Record<string, string> = {};
  // The SDK passes only a few variables by default; the server gets what a plugin would.
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return new StdioClientTransport({
    command: command as string,
    args,
    env: { ...env, ...config.env },
    cwd: dir,
    stderr: "inherit",
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dir = path.resolve(argv[0] ?? ".");
  const dashDash = argv.indexOf("--");
  const explicit = dashDash === -1 ? undefined : argv.slice(dashDash + 1);
  const file = path.join(dir, "executa.json");
  const raw = await readExecutaJsonRaw(file).catch((error: unknown) => {
    if (explicit !== undefined) return {} as Record<string, unknown>;
    throw error;
  });
  const config = readMcpServerConfig(raw, file, explicit);
  const toolId = typeof raw.tool_id === "string" ? raw.tool_id : path.basename(dir);

  const peer = new RpcPeer(stdioTransport(), { name: `mcp-bridge ${toolId}`, logger });
  const client = new Client(
    { name: "anna-executa-host", version: "0.1.0" },
    { capabilities: { sampling: {} } },
  );
  let leaving = false;
  const leave = async (code: number) => {
    if (leaving) return;
    leaving = true;
    await client.close().catch(() => undefined);
    await peer.close().catch(() => undefined);
    process.exit(code);
  };
  const connected = client.connect(clientTransport(config, dir));
  // Handled here and awaited by describe/invoke: no unhandled rejection if nobody asks yet.
  connected.catch((error: unknown) => {
    logger.error("cannot connect to the MCP server", {
      server: config.transport === "http" ? config.url.href : config.command.join(" "),
      error: error instanceof Error ? error.message : String(error),
    });
    void leave(EXIT_SERVER_GONE);
  });
  client.onclose = () => {
    if (!leaving) logger.error("the MCP server closed the connection", {});
    void leave(EXIT_SERVER_GONE);
  };
  new McpBridge({ toolId, peer, client, connected, logger, onShutdown: () => void leave(0) });
  void peer.closed.then(() => leave(0));
  peer.start();
}

main().catch((error: unknown) => {
  log("error", "the MCP bridge could not start", {
    error: error instanceof Error ? error.message : String(error),
  });
  process.exit(2);
});
