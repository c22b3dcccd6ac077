// The single-file build (`npm run bundle`) must behave like the compiled modules. It is built
// here into test-artifacts/ so the test never touches dist/ while other tests use it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { spawnNodePlugin } from "./helpers/node-plugin.js";
import { type PluginClient } from "@anna-ai/executa-test";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/bundled-plugin.mjs", import.meta.url));
let dir: string;
let bundle: string;

beforeAll(() => {
  mkdirSync(join(PACKAGE, "test-artifacts"), { recursive: true });
  dir = mkdtempSync(join(PACKAGE, "test-artifacts", "bundle-"));
  bundle = join(dir, "executa-sdk.js");
  execFileSync(process.execPath, [join(PACKAGE, "scripts", "bundle.mjs"), "--outfile", bundle], {
    stdio: "pipe",
  });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function start(): PluginClient {
  const plugin = spawnNodePlugin(FIXTURE, { args: [bundle] });
  onTestFinished(() => plugin.dispose());
  return plugin;
}

describe("the bundled SDK", () => {
  it("answers describe and invoke like the modules do", async () => {
    const plugin = start();
    const init = await plugin.request("initialize", { protocolVersion: "2.0" }, 0);
    expect(init.message.result).toMatchObject({
      protocolVersion: "2.0",
      serverInfo: { name: "bundled" },
    });
    const echo = await plugin.request("invoke", { tool: "echo", arguments: { text: "hi" } });
    expect(echo.message.result).toMatchObject({ success: true, data: { text: "hi" } });
    const bad = await plugin.request("invoke", { tool: "echo", arguments: {} });
    expect(bad.message.error).toMatchObject({ code: -32602 });
  });

  it("turns an RpcError from the separate jsonrpc package into a JSON-RPC error", async () => {
    const plugin = start();
    const response = await plugin.request("invoke", { tool: "rpc_fail", arguments: {} });
    expect(response.message.error).toMatchObject({
      code: -32042,
      message: "from the package copy",
      data: { errorCode: "X" },
    });
  });

  it("loads the error catalog lazily and still uses file transport for large results", async () => {
    const plugin = start();
    await plugin.request("initialize", { protocolVersion: "1.1" }, 0);
    const refused = await plugin.request("invoke", { tool: "storage", arguments: {} });
    expect(refused.message.result).toMatchObject({
      success: true,
      data: "-32021 STORAGE_NOT_GRANTED",
    });
    const big = await plugin.request("invoke", { tool: "big", arguments: { bytes: 600 * 1024 } });
    expect(big.fileTransport).toBeDefined();
    expect((big.message.result as { data: string }).data.length).toBe(600 * 1024);
  });
});
