// `anna-app executa mcp`: serve one Executa as an MCP server, so any MCP client runs it. This
// module holds only the flag table, so `--help` stays instant; the implementation loads on run.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";
import { SERVICE_FLAGS } from "../executa-dev/service-flags.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa mcp";

export const spec: CommandSpec = {
  name: NAME,
  summary: "Serve an Executa as an MCP server (stdio, or Streamable HTTP on 127.0.0.1)",
  description:
    "Starts the plugin as executa dev does and serves its tools as MCP tools: tools/list from " +
    "describe, tools/call as invoke (a tool failure is isError, a JSON-RPC error stays an MCP " +
    "error), the plugin's executa/progress as notifications/progress. The plugin's " +
    "sampling/createMessage goes to the MCP client when it advertises sampling, else to the " +
    "service the flags choose (off by default, --mock-sampling); the other families get " +
    "executa dev's offline services. stdout is the MCP stream; plugin stderr and messages go to " +
    "stderr. With --http <port>, serves http://127.0.0.1:<port>/mcp, answering only loopback " +
    "Host names and refusing foreign browser Origins. Exit codes: 0 the client closed the " +
    "session (or Ctrl-C), 1 the plugin did not start, 2 usage or launch error.",
  flags: [
    {
      name: "dir",
      type: "string",
      value: "<dir>",
      description: "Plugin folder (default: the current directory)",
    },
    {
      name: "spec",
      type: "string",
      value: "<spec>",
      description: "Launch spec: 'tool_id=…,type=python|node|go|binary|mcp,command=…,dir=…'",
    },
    {
      name: "plugin",
      type: "string",
      value: "<file>",
      description: "Pick one entry in a folder that holds several plugins",
    },
    {
      name: "http",
      type: "string",
      value: "<port>",
      description: "Serve Streamable HTTP on 127.0.0.1:<port> (0: a free port) instead of stdio",
    },
    ...SERVICE_FLAGS,
  ],
  examples: [
    "anna-app executa mcp --dir examples/executas/ts-notes",
    "anna-app executa mcp --dir ./my-plugin --http 3000",
    "anna-app executa mcp --dir ./my-plugin --mock-sampling fixtures/sampling.jsonl",
    "anna-app executa mcp --spec 'tool_id=my-tool,type=node,command=\"node dist/server.js\"'",
    "anna-app executa mcp --dir examples/executas/go-multi --plugin credential_plugin.go",
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const { runExecutaMcp } = await import("../executa-mcp/run.js");
  return runExecutaMcp(args, io);
}

export const command: CommandModule = { spec, run };
