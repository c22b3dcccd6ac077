import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { detectLaunchSpec } from "../../src/launch/detect.js";
import type { DetectLaunchOptions } from "../../src/launch/detect.js";
import { LaunchError } from "../../src/launch/launch-error.js";
import { listPluginEntries } from "../../src/launch/plugin-entries.js";
import { NO_UV, WITH_UV, fixture, machine, tempDir } from "./fixtures.js";

async function launchError(
  dir: string,
  options: DetectLaunchOptions = NO_UV,
): Promise<LaunchError> {
  const error: unknown = await detectLaunchSpec(dir, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LaunchError);
  const launch = error as LaunchError;
  expect(launch.name).toBe("LaunchError");
  expect(launch.message).not.toContain("\n");
  return launch;
}

describe("detectLaunchSpec — executa.json", () => {
  it("uses every field of a full executa.json and tolerates extra keys", async () => {
    const dir = fixture("executa-json-full");
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec).toMatchObject({
      toolId: "full-tool",
      type: "node",
      dir,
      cwd: dir,
      command: ["node", "server.js", "--stdio"],
      source: "executa.json",
      binaryColdStart: false,
      warnings: [],
    });
    expect(spec.env.EXECUTA_HOME).toBe(dir);
  });

  it("reads an executa.json that starts with a UTF-8 BOM", async () => {
    const dir = fixture("executa-json-bom");
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec.toolId).toBe("bom-tool");
    expect(spec.type).toBe("python");
    expect(spec.command).toEqual(["python3", path.join(dir, "bom_plugin.py")]);
    expect(spec.env.PYTHONUNBUFFERED).toBe("1");
    // No pyproject dependencies: python3 alone runs it, and there is nothing to warn about.
    expect(spec.warnings).toEqual([]);
  });

  it("names the file and the field when tool_id is missing", async () => {
    const dir = fixture("executa-json-missing-tool-id");
    const error = await launchError(dir);
    expect(error.code).toBe("INVALID_EXECUTA_JSON");
    expect(error.field).toBe("tool_id");
    expect(error.message).toContain(path.join(dir, "executa.json"));
    expect(error.message).toContain(`missing "tool_id"`);
  });

  it("names the file and the valid types when type is missing or unknown", async () => {
    const missing = await launchError(fixture("executa-json-missing-type"));
    expect(missing.field).toBe("type");
    expect(missing.message).toContain(`missing "type"`);
    const unknown = await launchError(fixture("executa-json-bad-type"));
    expect(unknown.code).toBe("INVALID_EXECUTA_JSON");
    expect(unknown.message).toContain(`"ruby"`);
    expect(unknown.message).toContain("python, node, go, binary");
  });

  it("suggests the launcher type a typo meant", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "executa.json"), JSON.stringify({ tool_id: "t", type: "Node" }));
    expect((await launchError(dir)).message).toMatch(/got "Node"; did you mean "node"\?$/);
  });

  it("reports broken JSON with the file name", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "executa.json"), '{\n  "tool_id": "x",\n  "type": "node",\n}\n');
    const error = await launchError(dir);
    expect(error.code).toBe("INVALID_EXECUTA_JSON");
    expect(error.message).toMatch(/executa\.json:4:1: invalid JSON \(.+\); fix the syntax$/);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("names the line and column of a syntax error in executa.json", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "executa.json");
    await writeFile(file, '{\n  "tool_id": "x",\n  "type" "node"\n}\n');
    const error = await launchError(dir);
    expect(error.code).toBe("INVALID_EXECUTA_JSON");
    expect(error.message).toMatch(/^.+:3:10: invalid JSON \(.+\); fix the syntax$/);
    expect(error.message.startsWith(`${file}:3:10: `)).toBe(true);
  });

  it("rejects an empty command", async () => {
    const error = await launchError(fixture("executa-json-empty-command"));
    expect(error.field).toBe("command");
    expect(error.message).toContain(`"command" is empty`);
  });

  it("still starts a disabled plugin when its folder is named explicitly, splitting a string command", async () => {
    const spec = await detectLaunchSpec(fixture("executa-json-disabled"), NO_UV);
    expect(spec.toolId).toBe("off-tool");
    expect(spec.command).toEqual(["node", "index.js"]);
  });
});

describe("detectLaunchSpec — Python", () => {
  it("runs `uv run --project <dir> <tool_id>` when uv is on PATH and Python is new enough", async () => {
    const dir = fixture("python-scripts");
    const spec = await detectLaunchSpec(
      dir,
      machine({ tools: { uv: "0.5.0", python3: "3.99.0" } }),
    );
    expect(spec).toMatchObject({ toolId: "demo-tool", type: "python", source: "pyproject.toml" });
    expect(spec.command).toEqual(["uv", "run", "--project", dir, "demo-tool"]);
    expect(spec.warnings).toEqual([]);
  });

  it("calls the [project.scripts] target with python3 when uv is missing", async () => {
    const dir = fixture("python-scripts");
    const spec = await detectLaunchSpec(dir, NO_UV);
    const [python, flag, code] = spec.command;
    expect([python, flag]).toEqual(["python3", "-c"]);
    expect(code).toContain(`sys.path.insert(0, ${JSON.stringify(dir)})`);
    expect(code).toContain(`importlib.import_module("demo_pkg.cli")`);
    expect(code).toContain(`["main"]`);
    expect(spec.cwd).toBe(dir);
  });

  it("does not let requires-python above the installed Python block, even with uv", async () => {
    const spec = await detectLaunchSpec(fixture("python-scripts"), WITH_UV);
    expect(spec.command[0]).toBe("python3");
    expect(spec.warnings.join(" ")).toContain(
      `requires-python ">=3.99" is above the installed Python 3.11.7`,
    );
  });

  it("takes the tool_id from project.name and starts the single plugin script when there are no scripts", async () => {
    const dir = fixture("python-no-scripts");
    const spec = await detectLaunchSpec(dir, WITH_UV);
    expect(spec.toolId).toBe("lonely");
    expect(spec.command).toEqual(["python3", path.join(dir, "lonely_plugin.py")]);
  });

  it("runs a single script inside uv's environment when the project has dependencies", async () => {
    const dir = fixture("python-deps");
    expect((await detectLaunchSpec(dir, WITH_UV)).command).toEqual([
      "uv",
      "run",
      "--project",
      dir,
      "python",
      path.join(dir, "main.py"),
    ]);
    const noUv = await detectLaunchSpec(dir, NO_UV);
    expect(noUv.command).toEqual(["python3", path.join(dir, "main.py")]);
    expect(noUv.warnings.join(" ")).toContain(
      "pyproject.toml declares dependencies and uv is not on PATH",
    );
  });

  it("runs the first script when the tool_id is not a [project.scripts] key", async () => {
    const dir = fixture("python-tool-id-not-script");
    const withUv = await detectLaunchSpec(dir, WITH_UV);
    expect(withUv.toolId).toBe("weather");
    expect(withUv.command).toEqual(["uv", "run", "--project", dir, "weather-cli"]);
    expect(withUv.warnings.join(" ")).toContain(`tool_id "weather" is not a [project.scripts] key`);
    const withoutUv = await detectLaunchSpec(dir, NO_UV);
    expect(withoutUv.command[2]).toContain(`importlib.import_module("weather.main")`);
    expect(withoutUv.command[2]).toContain(`["run"]`);
  });

  it("finds the module of a src-layout project", async () => {
    const dir = fixture("python-src-layout");
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec.command[2]).toContain(
      `sys.path.insert(0, ${JSON.stringify(path.join(dir, "src"))})`,
    );
  });

  it("keeps an executa.json uv command when uv exists and falls back to python3 when it does not", async () => {
    const dir = fixture("python-uv-command");
    expect((await detectLaunchSpec(dir, WITH_UV)).command).toEqual([
      "uv",
      "run",
      "--project",
      ".",
      "uv-tool",
    ]);
    const fallback = await detectLaunchSpec(dir, NO_UV);
    expect(fallback.command[0]).toBe("python3");
    expect(fallback.command[2]).toContain(`importlib.import_module("uv_tool")`);
    expect(fallback.warnings.join(" ")).toContain("ignoring the executa.json command");
  });

  it("refuses to guess between several plugin scripts", async () => {
    const dir = fixture("python-several-scripts");
    const error = await launchError(dir);
    expect(error.code).toBe("AMBIGUOUS_PLUGIN");
    expect(error.message).toBe(
      `${dir}: this folder holds several plugins: main.py, other_plugin.py — pick one with --plugin`,
    );
  });

  it("starts a lone *_plugin.py in a folder without marker files", async () => {
    const dir = fixture("python-single-script");
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec).toMatchObject({ toolId: "python-single-script", type: "python" });
    expect(spec.command).toEqual(["python3", path.join(dir, "echo_plugin.py")]);
  });

  it("falls back to `python` and warns when python3 is missing", async () => {
    const dir = fixture("python-single-script");
    const withPython = await detectLaunchSpec(dir, {
      ...machine({ tools: { python: "3.11.7" } }),
      pluginFile: "echo_plugin.py",
    });
    expect(withPython.command[0]).toBe("python");
    const spec = await detectLaunchSpec(fixture("python-no-scripts"), machine({ tools: {} }));
    expect(spec.warnings).toContain(
      "python3 is not on PATH: this plugin needs Python 3.8 or newer (the oldest Python the SDK runs on), found none; install it (https://www.python.org/downloads/) or put it on PATH",
    );
    expect(spec.toolchain).toMatchObject({ tool: "python3", found: undefined, path: undefined });
  });
});

describe("detectLaunchSpec — Node", () => {
  it.each([
    ["node-bin-string", "bin-string-tool", "cli.js"],
    ["node-bin-object", "obj-tool", "tool.js"],
    ["node-bin-key-differs", "real-id", "bin/cli.mjs"],
    ["node-main-only", "main-only", "lib/index.js"],
    ["node-module-mjs", "module-mjs", "entry.mjs"],
  ])("%s starts as %s with `node %s`", async (name, toolId, entry) => {
    const dir = fixture(name);
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec.toolId).toBe(toolId);
    expect(spec.type).toBe("node");
    expect(spec.command).toEqual(["node", path.join(dir, entry)]);
  });

  it("says which package.json field points at a missing file", async () => {
    const dir = fixture("node-missing-entry");
    const error = await launchError(dir);
    expect(error.code).toBe("NO_PLUGIN_FOUND");
    expect(error.message).toContain(path.join(dir, "package.json"));
    expect(error.message).toContain("main points to dist/index.js, which does not exist");
  });

  it("uses the running Node when node is not on PATH", async () => {
    const spec = await detectLaunchSpec(fixture("node-bin-string"), machine({ tools: {} }));
    expect(spec.command[0]).toBe(process.execPath);
  });

  it("lists the scripts of a folder holding several and starts the one picked", async () => {
    const dir = fixture("node-several");
    const error = await launchError(dir);
    expect(error.code).toBe("AMBIGUOUS_PLUGIN");
    expect(error.message).toContain(
      "several plugins: alpha.mjs, beta.mjs — pick one with --plugin",
    );
    const spec = await detectLaunchSpec(dir, { ...NO_UV, pluginFile: "beta.mjs" });
    expect(spec).toMatchObject({ toolId: "beta", type: "node", source: "--plugin" });
    expect(spec.command).toEqual(["node", path.join(dir, "beta.mjs")]);
  });
});

describe("detectLaunchSpec — Go", () => {
  it("refuses go.mod alone and says to add executa.json with tool_id and type go", async () => {
    const dir = fixture("go-mod-alone");
    const error = await launchError(dir);
    expect(error.code).toBe("GO_MOD_WITHOUT_EXECUTA_JSON");
    expect(error.message).toContain(path.join(dir, "go.mod"));
    expect(error.message).toContain(path.join(dir, "executa.json"));
    expect(error.message).toContain(`{"tool_id": "<id>", "type": "go"}`);
  });

  it("uses an executa.json command as given and pins the local toolchain when go.mod wants a newer Go", async () => {
    const spec = await detectLaunchSpec(fixture("go-command"), NO_UV);
    expect(spec).toMatchObject({ toolId: "go-cmd", type: "go" });
    expect(spec.command).toEqual(["go", "run", "./cmd/hello"]);
    expect(spec.env.GOTOOLCHAIN).toBe("local");
    expect(spec.warnings.join(" ")).toContain("go.mod asks for go 1.99 but go 1.19.8 is installed");
  });

  it("leaves GOTOOLCHAIN alone when the installed Go is new enough", async () => {
    const spec = await detectLaunchSpec(
      fixture("go-command"),
      machine({ tools: { go: "1.99.1" } }),
    );
    expect(spec.env.GOTOOLCHAIN).toBeUndefined();
    expect(spec.warnings).toEqual([]);
  });

  it("defaults to `go run .`", async () => {
    const spec = await detectLaunchSpec(fixture("go-default"), NO_UV);
    expect(spec.command).toEqual(["go", "run", "."]);
    expect(spec.env.GOTOOLCHAIN).toBeUndefined();
  });

  it("warns when go is not installed, with the version go.mod wants", async () => {
    const spec = await detectLaunchSpec(fixture("go-default"), machine({ tools: {} }));
    expect(spec.warnings.join(" ")).toMatch(
      /go is not on PATH: this plugin needs Go \d+\.\d+(\.\d+)? or newer \((go\.mod|the oldest Go the SDK builds with)\), found none/,
    );
    expect(spec.toolchain).toMatchObject({ tool: "go", path: undefined });
  });

  it("lists several package main entries and runs the picked one with the shared files", async () => {
    const dir = fixture("go-several");
    const error = await launchError(dir);
    expect(error.code).toBe("AMBIGUOUS_PLUGIN");
    expect(error.message).toBe(
      `${dir}: this folder holds several plugins: credential_plugin.go, main.go — pick one with --plugin`,
    );
    const spec = await detectLaunchSpec(dir, { ...NO_UV, pluginFile: "credential_plugin.go" });
    expect(spec).toMatchObject({ toolId: "credential_plugin", type: "go", cwd: dir });
    expect(spec.command).toEqual(["go", "run", "credential_plugin.go", "shared.go"]);
  });

  it("runs the only entry by name when it is tagged `ignore`, since `go run .` would find none", async () => {
    const spec = await detectLaunchSpec(fixture("go-tagged-only"), NO_UV);
    expect(spec.command).toEqual(["go", "run", "only_plugin.go", "helper.go"]);
  });

  it("lists the candidate entries of a folder", async () => {
    expect(await listPluginEntries(fixture("go-several"))).toEqual([
      { file: "credential_plugin.go", type: "go" },
      { file: "main.go", type: "go" },
    ]);
    expect(await listPluginEntries(fixture("node-several"))).toEqual([
      { file: "alpha.mjs", type: "node" },
      { file: "beta.mjs", type: "node" },
    ]);
  });
});

describe("detectLaunchSpec — binaries", () => {
  it("sets the multi-file layout environment of T35", async () => {
    const dir = fixture("binary-layout");
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec).toMatchObject({
      toolId: "binary-layout",
      type: "binary",
      command: [path.join(dir, "bin", "binary-layout")],
      cwd: dir,
      binaryColdStart: true,
      source: "bin/",
    });
    expect(spec.env).toEqual({
      EXECUTA_HOME: dir,
      EXECUTA_DATA: path.join(dir, "data"),
      LD_LIBRARY_PATH: path.join(dir, "lib"),
      PATH: `${path.join(dir, "share", "bin")}:/usr/bin:/bin`,
    });
    expect(spec.pathPrepend).toEqual({
      LD_LIBRARY_PATH: [path.join(dir, "lib")],
      PATH: [path.join(dir, "share", "bin")],
    });
  });

  it("uses DYLD_LIBRARY_PATH on macOS and puts lib/ on PATH on Windows", async () => {
    const dir = fixture("binary-layout");
    const mac = await detectLaunchSpec(dir, machine({ tools: {}, platform: "darwin" }));
    expect(mac.env.DYLD_LIBRARY_PATH).toBe(path.join(dir, "lib"));
    expect(mac.env.LD_LIBRARY_PATH).toBeUndefined();
    const win = await detectLaunchSpec(
      dir,
      machine({ tools: {}, platform: "win32", env: { Path: "C:\\Windows" } }),
    );
    expect(win.env.LD_LIBRARY_PATH).toBeUndefined();
    expect(win.env.Path).toBe(
      [path.join(dir, "share", "bin"), path.join(dir, "lib"), "C:\\Windows"].join(";"),
    );
  });

  it("starts bin/<tool_id> named by executa.json", async () => {
    const dir = fixture("binary-named");
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec.command).toEqual([path.join(dir, "bin", "named-bin")]);
    expect(spec.binaryColdStart).toBe(true);
  });

  it("asks for a command when the binary is missing", async () => {
    const dir = fixture("binary-missing");
    const error = await launchError(dir);
    expect(error.code).toBe("NO_PLUGIN_FOUND");
    expect(error.message).toContain(path.join(dir, "bin", "ghost"));
    expect(error.message).toContain(`set "command" in executa.json`);
  });

  it("does not treat a non-executable bin/<name> as a plugin", async () => {
    const error = await launchError(fixture("binary-not-executable"));
    expect(error.code).toBe("NO_PLUGIN_FOUND");
  });
});

describe("detectLaunchSpec — folders without a plugin", () => {
  it("says what a plugin folder needs when there is none", async () => {
    const dir = await tempDir();
    const error = await launchError(dir);
    expect(error.code).toBe("NO_PLUGIN_FOUND");
    expect(error.message).toContain(`${dir}: no plugin found; add executa.json`);
  });

  it("recognises a SKILL.md-only folder as a skill: nothing to run", async () => {
    const dir = fixture("skill-only");
    const error = await launchError(dir);
    expect(error.code).toBe("IS_SKILL");
    expect(error.message).toBe(
      `${dir} is a skill (it holds only SKILL.md): nothing to run; check it with anna-app validate, and start a tool plugin with executa dev instead`,
    );
  });

  it("recognises executa.json with executa_type skill (no type, no tool_id) as a skill", async () => {
    const dir = await tempDir();
    await writeFile(
      path.join(dir, "executa.json"),
      JSON.stringify({ executa_type: "skill", content_file: "GUIDE.md" }),
    );
    const error = await launchError(dir);
    expect(error.code).toBe("IS_SKILL");
    expect(error.message).toContain(`declares "executa_type": "skill" with GUIDE.md`);
    expect(error.message).not.toMatch(/missing "type"/);
  });

  it("reports a missing directory", async () => {
    const dir = fixture("does-not-exist");
    const error = await launchError(dir);
    expect(error.code).toBe("MISSING_DIRECTORY");
    expect(error.message).toBe(`${dir}: no such directory; pass the plugin folder`);
  });

  it("lists the entries when the picked plugin file does not exist", async () => {
    const error = await launchError(fixture("go-several"), { ...NO_UV, pluginFile: "nope.go" });
    expect(error.code).toBe("NO_PLUGIN_FOUND");
    expect(error.message).toContain("pick one of: credential_plugin.go, main.go");
  });
});

describe("detectLaunchSpec — broken project files", () => {
  it.each([
    [
      "pyproject.toml",
      "[project\nname = 1",
      /pyproject\.toml: invalid TOML \(.+\); fix the syntax$/,
    ],
    ["package.json", "{ name: 1 }", /package\.json:1:3: invalid JSON \(.+\); fix the syntax$/],
    ["package.json", "[1, 2]", /package\.json: expected a JSON object at the top level$/],
  ])("names a broken %s", async (file, content, message) => {
    const dir = await tempDir();
    await writeFile(path.join(dir, file), content);
    const error = await launchError(dir);
    expect(error.code).toBe("INVALID_PROJECT_FILE");
    expect(error.message).toMatch(message);
    expect(error.path).toBe(path.join(dir, file));
  });
});

describe("lone Node scripts", () => {
  it("count only files that speak JSON-RPC: a build script beside a plugin is not one", async () => {
    const dir = await tempDir();
    await writeFile(
      path.join(dir, "build.mjs"),
      'import { build } from "esbuild";\nawait build({});\n',
    );
    await writeFile(
      path.join(dir, "server.mjs"),
      'import { createInterface } from "node:readline";\ncreateInterface({ input: process.stdin });\n',
    );
    const spec = await detectLaunchSpec(dir, NO_UV);
    expect(spec.command.at(-1)).toBe(path.join(dir, "server.mjs"));
  });

  it("a folder holding only a build script is not a plugin", async () => {
    const dir = await tempDir();
    await writeFile(
      path.join(dir, "build.mjs"),
      'import { build } from "esbuild";\nawait build({});\n',
    );
    const error = await launchError(dir);
    expect(error.code).toBe("NO_PLUGIN_FOUND");
    expect(error.message).toMatch(/no plugin found; add executa\.json/);
  });
});
