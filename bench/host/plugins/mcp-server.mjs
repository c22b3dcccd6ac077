// The MCP baseline: an @modelcontextprotocol/sdk stdio server with the same tools as the floor
// plugin. `reverse` makes one server → client request (`roots/list`, which the bench client
// answers instantly) and times it; `flood` writes one huge line straight to stdout before the
// SDK writes the tool result.
import { performance } from "node:perf_hooks";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const FLOOD_CHUNK_BYTES = 1024 * 1024;

const server = new McpServer({ name: "bench-mcp", version: "0.1.0" });

server.registerTool(
  "echo",
  { description: "Echo the text.", inputSchema: { text: z.string() } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);

server.registerTool("reverse", { description: "One reverse roots/list." }, async () => {
  const startedMs = performance.now();
  await server.server.listRoots();
  const reverseMs = performance.now() - startedMs;
  return { content: [{ type: "text", text: JSON.stringify({ reverse_ms: reverseMs }) }] };
});

server.registerTool(
  "flood",
  { description: "One oversized line, then the reply.", inputSchema: { bytes: z.number() } },
  ({ bytes }) => {
    const chunk = Buffer.alloc(FLOOD_CHUNK_BYTES, 0x78);
    for (let left = bytes; left > 0; left -= FLOOD_CHUNK_BYTES) {
      process.stdout.write(left >= FLOOD_CHUNK_BYTES ? chunk : chunk.subarray(0, left));
    }
    process.stdout.write("\n");
    return { content: [{ type: "text", text: JSON.stringify({ survived: true }) }] };
  },
);

await server.connect(new StdioServerTransport());
