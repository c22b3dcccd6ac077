// The floor: the least a plugin can do to speak Executa NDJSON. No readline, no schema, no
// framework: scan stdin chunks for "\n", JSON.parse each line, answer with one write per frame.
// Tools: `echo` (returns its arguments), `reverse` (sends one `storage/get` to the host, times
// it, replies after the answer) and `flood` (writes one huge line without a newline, then a valid
// frame: the host must survive it with bounded memory).
import { performance } from "node:perf_hooks";

const MANIFEST = {
  name: "floor",
  version: "0.1.0",
  description: "Hand-written NDJSON echo plugin (benchmark floor).",
  tools: [
    { name: "echo", description: "Echo the arguments.", parameters: [] },
    { name: "reverse", description: "One reverse storage/get.", parameters: [] },
    { name: "flood", description: "One oversized line, then the reply.", parameters: [] },
  ],
  host_capabilities: ["aps.kv"],
};
const INITIALIZE_RESULT = {
  protocolVersion: "2.0",
  serverInfo: { name: "floor", version: "0.1.0" },
  capabilities: { storage: {} },
};
const FLOOD_CHUNK_BYTES = 1024 * 1024;

const reverseWaiters = new Map();
let reverseSeq = 0;

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function invoke(id, params) {
  const args = params.arguments ?? {};
  switch (params.tool) {
    case "echo":
      return send({ jsonrpc: "2.0", id, result: { success: true, data: args } });
    case "reverse": {
      const reverseId = `r${++reverseSeq}`;
      const startedMs = performance.now();
      reverseWaiters.set(reverseId, () => {
        const reverseMs = performance.now() - startedMs;
        send({ jsonrpc: "2.0", id, result: { success: true, data: { reverse_ms: reverseMs } } });
      });
      return send({
        jsonrpc: "2.0",
        id: reverseId,
        method: "storage/get",
        params: { key: "bench", scope: "tool", invoke_id: params.invoke_id },
      });
    }
    case "flood": {
      const chunk = Buffer.alloc(FLOOD_CHUNK_BYTES, 0x78);
      for (let left = args.bytes ?? 0; left > 0; left -= FLOOD_CHUNK_BYTES) {
        process.stdout.write(left >= FLOOD_CHUNK_BYTES ? chunk : chunk.subarray(0, left));
      }
      process.stdout.write("\n");
      return send({ jsonrpc: "2.0", id, result: { success: true, data: { survived: true } } });
    }
    default:
      return send({ jsonrpc: "2.0", id, error: { code: -32601, message: "unknown tool" } });
  }
}

function handle(message) {
  if (message.method === undefined) {
    const settle = reverseWaiters.get(message.id);
    reverseWaiters.delete(message.id);
    settle?.();
    return;
  }
  switch (message.method) {
    case "initialize":
      return send({ jsonrpc: "2.0", id: message.id, result: INITIALIZE_RESULT });
    case "describe":
      return send({ jsonrpc: "2.0", id: message.id, result: MANIFEST });
    case "invoke":
      return invoke(message.id, message.params);
    case "health":
      return send({ jsonrpc: "2.0", id: message.id, result: { status: "ready" } });
    case "shutdown":
      return send({ jsonrpc: "2.0", id: message.id, result: {} });
    default:
      if (message.id !== undefined) {
        send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32601, message: "Method not found" },
        });
      }
  }
}

let pending = [];
process.stdin.on("data", (chunk) => {
  let start = 0;
  let newline;
  while ((newline = chunk.indexOf(10, start)) !== -1) {
    let line = chunk.subarray(start, newline);
    if (pending.length > 0) {
      pending.push(line);
      line = Buffer.concat(pending);
      pending = [];
    }
    start = newline + 1;
    if (line.length === 0) continue;
    let message;
    try {
      message = JSON.parse(line.toString("utf8"));
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      continue;
    }
    handle(message);
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
process.stdin.on("end", () => process.exit(0));
