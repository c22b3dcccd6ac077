// Spawns what detection resolved and asks the plugin to `describe` itself: the command, cwd and
// environment must be enough for a real process to start and answer.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import * as path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { detectLaunchSpec } from "../../src/launch/detect.js";
import type { DetectLaunchOptions } from "../../src/launch/detect.js";
import { buildPluginEnv } from "../../src/launch/plugin-env.js";
import type { LaunchSpec } from "../../src/launch/types.js";
import { createWhich } from "../../src/launch/which.js";
import { fixture } from "./fixtures.js";

// Generous: a pyenv shim alone takes seconds to start python3 on a loaded two-core machine.
const DESCRIBE_TIMEOUT_MS = 20_000;
const realWhich = createWhich();
/** This machine, minus uv: the case real Python plugins most often meet. */
const NO_UV: DetectLaunchOptions = {
  which: (command) => (command === "uv" ? undefined : realWhich(command)),
};
const hasPython = realWhich("python3") !== undefined;

async function describePlugin(spec: LaunchSpec): Promise<Record<string, unknown>> {
  const [program = "", ...args] = spec.command;
  const child = spawn(program, args, {
    cwd: spec.cwd,
    env: buildPluginEnv(spec),
    stdio: ["pipe", "pipe", "pipe"],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const firstLine = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no describe answer in ${DESCRIBE_TIMEOUT_MS} ms; stderr: ${stderr}`)),
      DESCRIBE_TIMEOUT_MS,
    );
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`plugin exited with ${code} before answering; stderr: ${stderr}`));
    });
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "describe" })}\n`);
  const answer = JSON.parse(await firstLine) as { id: unknown; result: Record<string, unknown> };
  expect(answer.id).toBe(1);
  child.stdin.end();
  return answer.result;
}

describe.runIf(hasPython)("resolved Python commands", () => {
  it("run a [project.scripts] target with python3 when uv is missing and requires-python is too high", async () => {
    const spec = await detectLaunchSpec(fixture("python-scripts"), NO_UV);
    expect(spec.command[0]).toMatch(/^python3?$/);
    const result = await describePlugin(spec);
    // The tool name comes from a helper the plugin imports relative to its own file.
    expect(result.tools).toEqual([{ name: "echo", parameters: [] }]);
    expect(result.argv0).toBe("demo-tool");
  });

  it("import a [tool.uv.sources] path package without uv (it goes on PYTHONPATH)", async () => {
    const dir = fixture("python-path-source/plugins/greeter");
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec.command[0]).toMatch(/^python3?$/);
    // The dependency is the path source: no "install uv" warning for it.
    expect(spec.warnings).toEqual([]);
    const result = await describePlugin(spec);
    expect(result.tools).toEqual([{ name: "greet_from_path_source", parameters: [] }]);
  });

  it("run the single plugin script of a BOM-prefixed executa.json folder", async () => {
    const dir = fixture("executa-json-bom");
    const result = await describePlugin(await detectLaunchSpec(dir, NO_UV));
    expect(result.file).toBe(path.join(dir, "bom_plugin.py"));
  });
});

describe("resolved Node commands", () => {
  it("run a .mjs bin entry whose key differs from the tool_id", async () => {
    const dir = fixture("node-bin-key-differs");
    const result = await describePlugin(await detectLaunchSpec(dir, NO_UV));
    expect(result.file).toBe(path.join(dir, "bin", "cli.mjs"));
  });

  it("run the script picked among several", async () => {
    const dir = fixture("node-several");
    const spec = await detectLaunchSpec(dir, { ...NO_UV, pluginFile: "beta.mjs" });
    expect((await describePlugin(spec)).file).toBe(path.join(dir, "beta.mjs"));
  });
});

describe.runIf(process.platform !== "win32")("resolved binaries", () => {
  it("start in EXECUTA_HOME with data, lib and share/bin wired as T35 says", async () => {
    const dir = fixture("binary-layout");
    const result = await describePlugin(await detectLaunchSpec(dir, NO_UV));
    expect(result).toMatchObject({
      home: dir,
      data: path.join(dir, "data"),
      cwd: dir,
      helper: "helper-ok",
    });
    expect(String(result.lib).split(":")[0]).toBe(path.join(dir, "lib"));
  });
});
