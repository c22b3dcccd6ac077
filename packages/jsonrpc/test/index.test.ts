// The public surface: names the host and SDK import, and a root entry that stays platform-neutral.

import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import * as node from "../src/node/index.js";

describe("public entry points", () => {
  it("exports the documented names from the root and the node subpath", () => {
    for (const name of [
      "RpcError",
      "RpcLocalError",
      "RpcPeer",
      "createMemoryPair",
      "LineDecoder",
      "classifyMessage",
      "NULL_LOGGER",
      "redactSecrets",
      "RecordingTransport",
    ]) {
      expect(root, name).toHaveProperty(name);
    }
    for (const name of [
      "StreamTransport",
      "ChildProcessTransport",
      "stdioTransport",
      "RecordingTransport",
      "createFileSink",
      "FILE_TRANSPORT_THRESHOLD_BYTES",
    ]) {
      expect(node, name).toHaveProperty(name);
    }
    expect(node.FILE_TRANSPORT_THRESHOLD_BYTES).toBe(512 * 1024);
  });

  it("bundles the root entry for the browser without any node: module", async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL("../src/index.ts", import.meta.url))],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]?.text ?? "";
    expect(code).toContain("RpcPeer");
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
  });
});
