// Tests for the {{slug}} plugin: each one starts the built plugin (dist/main.js) over stdio,
// like the host does. Run: npm test (it builds first).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const PLUGIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
// A plugin that does not answer within this long has hung: fail instead of waiting.
const TIMEOUT_MS = 10_000;

/** Writes the requests, closes stdin, returns the answers by id. */
async function runPlugin(requests, env = {}) {
  const childEnv = { ...process.env, ...env };
  if (env.HELLO_GREETING === undefined) delete childEnv.HELLO_GREETING;
  const child = spawn(process.execPath, [PLUGIN], {
    env: childEnv,
    stdio: ["pipe", "pipe", "ignore"],
    timeout: TIMEOUT_MS,
  });
  const answers = new Map();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line);
    answers.set(answer.id, answer);
  });
  for (const request of requests) child.stdin.write(JSON.stringify(request) + "\n");
  child.stdin.end();
  const [code] = await once(child, "close");
  assert.equal(code, 0, "the plugin exits 0 on stdin EOF");
  return answers;
}

function invoke(id, tool, args, credentials) {
  const context = { invoke_id: `inv-${id}`, ...(credentials ? { credentials } : {}) };
  return {
    jsonrpc: "2.0",
    id,
    method: "invoke",
    params: { tool, name: tool, arguments: args, invoke_id: `inv-${id}`, context },
  };
}

test("initialize, describe and health answer; stdin EOF exits 0", async () => {
  const answers = await runPlugin([
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2.0" } },
    { jsonrpc: "2.0", id: 2, method: "describe" },
    { jsonrpc: "2.0", id: 3, method: "health" },
  ]);
  assert.equal(answers.get(1).result.protocolVersion, "2.0");
  assert.deepEqual(
    answers.get(2).result.tools.map((tool) => tool.name),
    ["hello"],
  );
  assert.ok(answers.get(3).result.status);
});

test("hello greets by name", async () => {
  const answers = await runPlugin([invoke(1, "hello", { name: "Ada" })]);
  assert.equal(answers.get(1).result.success, true);
  assert.deepEqual(answers.get(1).result.data, {
    message: "Hello, Ada!",
    greeting_source: "default",
  });
});

test("the context credential wins over the environment, which is the fallback", async () => {
  const answers = await runPlugin(
    [
      invoke(1, "hello", { name: "Ada" }, { HELLO_GREETING: "Howdy" }),
      invoke(2, "hello", { name: "Ada" }),
    ],
    { HELLO_GREETING: "Hi" },
  );
  assert.deepEqual(answers.get(1).result.data, {
    message: "Howdy, Ada!",
    greeting_source: "context",
  });
  assert.deepEqual(answers.get(2).result.data, { message: "Hi, Ada!", greeting_source: "env" });
});

test("unknown tools and arguments are JSON-RPC errors", async () => {
  const answers = await runPlugin([
    invoke(1, "nope", {}),
    invoke(2, "hello", { name: "Ada", age: 36 }),
    invoke(3, "hello", {}),
  ]);
  assert.equal(answers.get(1).error.code, -32601);
  assert.equal(answers.get(2).error.code, -32602);
  assert.equal(answers.get(3).error.code, -32602);
});
