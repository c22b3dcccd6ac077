// go-multi: one folder, two `package main` files, each its own protocol 1.1 plugin.
// Each file is built on its own (`go build -o x main.go`), the way `--plugin <file>` selects one.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needs } from "../../support/toolchains.js";
import {
  exampleDir,
  goBuild,
  GO_BUILD_TIMEOUT_MS,
  pluginEnv,
  startPlugin,
} from "./example-plugins.js";
import type { GoBuild } from "./example-plugins.js";
import type { JsonObject } from "@anna-ai/executa-test";

const EXAMPLE = "go-multi";
const go = needs("go");

describe.skipIf(go.skip)(`go-multi example${go.reason}`, () => {
  let build: GoBuild | undefined;

  beforeAll(async () => {
    build = await goBuild(EXAMPLE, {
      text: ["main.go"],
      credential: ["credential_plugin.go"],
      default: ["."],
    });
  }, GO_BUILD_TIMEOUT_MS);
  afterAll(() => build?.cleanup());

  function start(name: string, env = pluginEnv({}, ["SERVICE_TOKEN", "SERVICE_REGION"])) {
    const binary = build?.binaries[name];
    if (!binary) throw new Error(`${name} was not built`);
    return startPlugin(binary, [], exampleDir(EXAMPLE), env);
  }

  it("builds main.go as the text plugin, and `go run .` picks the same file", async () => {
    for (const name of ["text", "default"]) {
      const plugin = start(name);
      const manifest = (await plugin.request("describe")).message.result as JsonObject;
      expect((manifest.tools as { name: string }[]).map((t) => t.name)).toEqual([
        "upper",
        "sha256",
      ]);
      const frame = await plugin.invoke("upper", { text: "go" }, {});
      expect(frame.message.result).toEqual({
        success: true,
        tool: "upper",
        data: { output: "GO" },
      });
      expect(
        (await plugin.request("initialize", { protocolVersion: "2.0" }, 0)).message.error,
      ).toMatchObject({ code: -32601 });
    }
  });

  it("builds credential_plugin.go as a separate plugin that reports credentials redacted", async () => {
    const plugin = start("credential", pluginEnv({ SERVICE_REGION: "eu-west" }, ["SERVICE_TOKEN"]));
    const manifest = (await plugin.request("describe")).message.result as JsonObject;
    expect((manifest.tools as { name: string }[]).map((t) => t.name)).toEqual([
      "check_credentials",
    ]);
    const frame = await plugin.invoke(
      "check_credentials",
      {},
      { credentials: { SERVICE_TOKEN: "tok_abcdef" } },
    );
    expect(frame.message.result).toMatchObject({
      success: true,
      data: {
        SERVICE_TOKEN: { source: "context", preview: "…cdef" },
        SERVICE_REGION: { source: "env", preview: "…west" },
      },
    });
    expect(frame.line).not.toContain("tok_abcdef");
  });

  it("exits 0 on stdin EOF after answering invokes already received", async () => {
    const plugin = start("text");
    const pending = plugin.invoke("sha256", { text: "" }, {});
    expect(await plugin.close()).toEqual({ code: 0, signal: null });
    expect((await pending).message.result).toMatchObject({
      data: { output: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    });
  });
});
