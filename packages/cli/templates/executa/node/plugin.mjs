#!/usr/bin/env node
// {{display_name}} — an Anna Executa plugin (protocol 2.0) in plain JavaScript, no dependencies.
//
// A long-running process speaking JSON-RPC 2.0 over stdio: one JSON object per line on stdin,
// one per line on stdout. stdout belongs to the protocol, so logs go to stderr.
//
//   anna-app executa dev --dir . --invoke hello --args '{"name":"Ada"}'
//   echo '{"jsonrpc":"2.0","id":1,"method":"describe"}' | node plugin.mjs
//   npm test
import { createInterface } from "node:readline";

const VERSION = "0.1.0";
// The host offers "2.0" in `initialize`; plugins answer with the version they speak.
const PROTOCOL_VERSION = "2.0";

// The bare manifest `describe` returns. The identity is the tool_id in executa.json
// ({{tool_id}}), not `name`.
const MANIFEST = {
  name: "{{slug}}",
  display_name: "{{display_name}}",
  version: VERSION,
  description: "{{display_name}}: says hello.",
  tools: [
    {
      name: "hello",
      description: "Greet someone by name.",
      parameters: [{ name: "name", type: "string", description: "Who to greet.", required: true }],
    },
  ],
  credentials: [
    {
      name: "HELLO_GREETING",
      display_name: "Greeting",
      description: "The word to greet with. Defaults to Hello.",
      required: false,
      sensitive: false,
    },
  ],
};

/** An error answered as a JSON-RPC error frame instead of a tool result. */
class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "RpcError";
    this.code = code;
  }
}

/** Logs are JSON lines on stderr: stdout is reserved for protocol frames. */
function log(msg, fields = {}) {
  process.stderr.write(JSON.stringify({ level: "info", msg, ...fields }) + "\n");
}

/** The value the host sent with this invoke wins; the environment is the local-dev fallback. */
function credential(credentials, name) {
  if (credentials[name]) return { value: String(credentials[name]), source: "context" };
  if (process.env[name]) return { value: process.env[name], source: "env" };
  return { value: undefined, source: "default" };
}

const TOOLS = {
  hello: {
    parameters: ["name"],
    run({ name }, credentials) {
      if (typeof name !== "string" || name.trim() === "") {
        throw new RpcError(-32602, "Invalid params for hello: name must be a non-empty string");
      }
      const greeting = credential(credentials, "HELLO_GREETING");
      return {
        success: true,
        data: {
          message: `${greeting.value ?? "Hello"}, ${name}!`,
          greeting_source: greeting.source,
        },
      };
    },
  },
};

async function invoke(params) {
  const toolName = params.tool || params.name || "";
  const tool = Object.hasOwn(TOOLS, toolName) ? TOOLS[toolName] : undefined;
  if (tool === undefined) throw new RpcError(-32601, `Unknown tool: ${toolName}`);
  const args = params.arguments ?? {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new RpcError(-32602, "arguments must be an object");
  }
  const unknown = Object.keys(args).filter((key) => !tool.parameters.includes(key));
  if (unknown.length > 0) {
    throw new RpcError(-32602, `Invalid params for ${toolName}: unknown ${unknown.join(", ")}`);
  }
  const credentials = params.context?.credentials ?? {};
  return { tool: toolName, ...(await tool.run(args, credentials)) };
}

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
}

/** Answers one request. Returns false when the plugin should exit. */
async function handle(message) {
  const { id, method } = message;
  if (method === undefined || id === undefined || id === null) return true; // response or notification
  const params = message.params ?? {};
  if (typeof params !== "object" || Array.isArray(params)) {
    send({ id, error: { code: -32602, message: "params must be an object" } });
    return true;
  }
  try {
    switch (method) {
      case "initialize":
        send({
          id,
          result: {
            protocolVersion: PROTOCOL_VERSION,
            serverInfo: { name: "{{slug}}", version: VERSION },
            capabilities: {},
          },
        });
        return true;
      case "describe":
        send({ id, result: MANIFEST });
        return true;
      case "invoke":
        send({ id, result: await invoke(params) });
        return true;
      case "health":
        send({ id, result: { status: "healthy", version: VERSION } });
        return true;
      case "shutdown":
        send({ id, result: {} });
        return false;
      default:
        send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
        return true;
    }
  } catch (error) {
    if (error instanceof RpcError) {
      send({ id, error: { code: error.code, message: error.message } });
    } else {
      // A bug in a tool must not kill the plugin.
      log("request failed", { method, error: String(error) });
      send({ id, error: { code: -32603, message: `Internal error: ${error}` } });
    }
    return true;
  }
}

/** Exits once everything written to stdout has been flushed. */
function exit() {
  process.stdout.write("", () => process.exit(0));
}

// The host's SIGTERM is a normal stop, not a crash.
process.on("SIGTERM", () => process.exit(0));
log("{{slug}} started", { version: VERSION });

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    send({ id: null, error: { code: -32700, message: `Parse error: ${error.message}` } });
    return;
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    send({ id: null, error: { code: -32600, message: "Invalid request" } });
    return;
  }
  // Requests are served concurrently; answers go out as they finish.
  void handle(message).then((keepRunning) => {
    if (!keepRunning) {
      log("shutdown requested, exiting");
      exit();
    }
  });
});
lines.on("close", () => {
  log("stdin closed, exiting");
  exit();
});
