// `executa mcp --http <port>`: Streamable HTTP on 127.0.0.1 only. Like the dev harness, it
// answers only its own loopback names (a DNS-rebound page carries a foreign Host) and refuses
// a browser Origin that is not one of them. One MCP session per client, each with its own
// Server over the shared plugin; sessions are bounded.
import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { PROTOCOL_ERRORS } from "@anna-ai/app-schema";
import { allowedHosts } from "../dev/guard/host-guard.js";

/** The endpoint path clients connect to. */
export const MCP_HTTP_PATH = "/mcp";
/** Open sessions at most; a client that never closes its sessions cannot grow memory forever. */
export const MAX_MCP_SESSIONS = 64;

export interface McpHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Why the request is refused before MCP sees it, or undefined to serve it. */
export function loopbackProblem(
  host: string | undefined,
  origin: string | undefined,
  port: number,
): string | undefined {
  const names = allowedHosts(port);
  const given = host?.toLowerCase();
  if (given === undefined || !names.has(given)) {
    return `this MCP server answers requests for ${[...names].join(", ")}, not Host ${given === undefined ? "(none)" : JSON.stringify(given)}; connect to http://127.0.0.1:${port}${MCP_HTTP_PATH}`;
  }
  // Non-browser clients send no Origin; a browser always does, and only our own pages pass.
  if (origin === undefined) return undefined;
  const allowed = [...names].map((name) => `http://${name}`);
  if (!allowed.includes(origin.toLowerCase())) {
    return `Origin ${JSON.stringify(origin)} may not call this MCP server; only pages served from ${allowed.join(", ")} may`;
  }
  return undefined;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: PROTOCOL_ERRORS.SERVER_ERROR.code, message },
      id: null,
    }),
  );
}

export async function serveMcpHttp(
  port: number,
  newServer: () => Server,
  onError: (error: unknown) => void,
): Promise<McpHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let actualPort = port;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const problem = loopbackProblem(req.headers.host, req.headers.origin, actualPort);
    if (problem !== undefined) return refuse(res, 403, problem);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== MCP_HTTP_PATH) {
      return refuse(res, 404, `no MCP endpoint at ${url.pathname}; use ${MCP_HTTP_PATH}`);
    }
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const transport = sessions.get(id);
      if (transport === undefined) {
        return refuse(res, 404, `unknown MCP session ${JSON.stringify(id)}; initialize a new one`);
      }
      return transport.handleRequest(req, res);
    }
    if (sessions.size >= MAX_MCP_SESSIONS) {
      return refuse(
        res,
        503,
        `${MAX_MCP_SESSIONS} MCP sessions are open; close one (DELETE ${MCP_HTTP_PATH}) first`,
      );
    }
    // No session id: only an initialize may open one (the transport refuses anything else).
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    const server = newServer();
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent)
        refuse(res, 500, "the MCP server failed on this request; see its stderr");
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", () => resolve());
  });
  actualPort = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}${MCP_HTTP_PATH}`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
