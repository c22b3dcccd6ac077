// Every template, generated through the built CLI, passes its own test and answers
// `executa dev --invoke hello` straight away (ts after the build step init prints).
import { rmSync } from "node:fs";
import { mkdir, readFile, stat, symlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GO_SKIP_REASON,
  GO_VERSION,
  PYTHON_VERSION,
  jsonLine,
  run,
  runCli,
  type RunResult,
  SDK_DIR,
  suiteDir,
  TSC,
} from "./helpers.js";

const HELLO = ["--invoke", "hello", "--args", '{"name":"Ada"}', "--json"];

interface InitJson {
  dir: string;
  slug: string;
  tool_id: string;
  files: string[];
  next_steps: string[];
}

/** Generates the template into a fresh folder named after the slug. */
async function generate(root: string, template: string, slug: string): Promise<InitJson> {
  const result = await runCli(["executa", "init", slug, "--template", template, "--json"], {
    cwd: root,
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return jsonLine(result) as InitJson;
}

async function invokeHello(dir: string, extra: string[] = []): Promise<unknown> {
  const result = await runCli(["executa", "dev", "--dir", dir, ...HELLO, ...extra]);
  if (result.code !== 0) throw new Error(`executa dev exited ${result.code}: ${result.stderr}`);
  return jsonLine(result);
}

describe.skipIf(PYTHON_VERSION === undefined)(
  `python template (${PYTHON_VERSION ?? "python3 is not installed"})`,
  () => {
    let root: string;
    let project: InitJson;
    beforeAll(async () => {
      root = suiteDir();
      project = await generate(root, "python", "py-greeter");
    });
    afterAll(() => root && rmSync(root, { recursive: true, force: true }));

    it("writes the plugin, pyproject, executa.json, test and README with the names filled in", async () => {
      expect(project.files).toEqual([
        ".gitignore",
        "README.md",
        "executa.json",
        "py_greeter_plugin.py",
        "pyproject.toml",
        "tests/__init__.py",
        "tests/test_plugin.py",
      ]);
      const pyproject = await readFile(path.join(project.dir, "pyproject.toml"), "utf8");
      expect(pyproject).toContain('tool-dev-py-greeter = "py_greeter_plugin:main"');
      const executa = JSON.parse(await readFile(path.join(project.dir, "executa.json"), "utf8"));
      expect(executa).toEqual({ tool_id: "tool-dev-py-greeter", type: "python" });
      const mode = (await stat(path.join(project.dir, "py_greeter_plugin.py"))).mode;
      expect(mode & 0o111).not.toBe(0);
    });

    it("passes its own unittest suite", async () => {
      const result = await run("python3", ["-m", "unittest"], { cwd: project.dir });
      expect(result.stderr).toMatch(/\nOK\s*$/);
      expect(result.code).toBe(0);
    });

    it("answers hello through executa dev", async () => {
      expect(await invokeHello(project.dir)).toEqual({
        message: "Hello, Ada!",
        greeting_source: "default",
      });
    });

    it("greets with a credential given to executa dev --credential", async () => {
      expect(await invokeHello(project.dir, ["--credential", "HELLO_GREETING=Howdy"])).toEqual({
        message: "Howdy, Ada!",
        greeting_source: "context",
      });
    });
  },
);

describe("node template", () => {
  let root: string;
  let project: InitJson;
  beforeAll(async () => {
    root = suiteDir();
    project = await generate(root, "node", "node-greeter");
  });
  afterAll(() => root && rmSync(root, { recursive: true, force: true }));

  it("writes a dependency-free package whose bin is the tool_id", async () => {
    const pkg = JSON.parse(await readFile(path.join(project.dir, "package.json"), "utf8"));
    expect(pkg.bin).toEqual({ "tool-dev-node-greeter": "plugin.mjs" });
    expect(pkg.dependencies).toBeUndefined();
    expect(project.files).toContain("test/plugin.test.mjs");
  });

  it("passes its own node:test suite", async () => {
    const result = await run(process.execPath, ["--test"], { cwd: project.dir });
    expect(result.stdout).toMatch(/^# pass [1-9]/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
    expect(result.code).toBe(0);
  });

  it("answers hello through executa dev", async () => {
    expect(await invokeHello(project.dir)).toEqual({
      message: "Hello, Ada!",
      greeting_source: "default",
    });
  });
});

describe.skipIf(GO_VERSION === undefined)(`go template (${GO_VERSION ?? GO_SKIP_REASON})`, () => {
  let root: string;
  let project: InitJson;
  beforeAll(async () => {
    root = suiteDir();
    project = await generate(root, "go", "go-greeter");
  });
  afterAll(() => root && rmSync(root, { recursive: true, force: true }));

  it("writes go.mod for go 1.19 and an executa.json of type go", async () => {
    expect(await readFile(path.join(project.dir, "go.mod"), "utf8")).toBe(
      "module go-greeter\n\ngo 1.19\n",
    );
    const executa = JSON.parse(await readFile(path.join(project.dir, "executa.json"), "utf8"));
    expect(executa).toEqual({ tool_id: "tool-dev-go-greeter", type: "go" });
  });

  it("passes its own go test", async () => {
    const result = await run("go", ["test", "./..."], { cwd: project.dir });
    expect(result.stdout + result.stderr).toMatch(/^ok\s+go-greeter/m);
    expect(result.code).toBe(0);
  });

  it("answers hello through executa dev (go run .)", async () => {
    expect(await invokeHello(project.dir)).toEqual({
      message: "Hello, Ada!",
      greeting_source: "default",
    });
  });
});

describe("ts template", () => {
  let root: string;
  let project: InitJson;
  let built: RunResult;
  beforeAll(async () => {
    root = suiteDir();
    project = await generate(root, "ts", "ts-greeter");
    // What `npm install` does with the file: dependency, without the network or npm's cost;
    // then the build step with this repository's tsc.
    const scope = path.join(project.dir, "node_modules", "@anna-ai");
    await mkdir(scope, { recursive: true });
    await symlink(SDK_DIR, path.join(scope, "executa-sdk"), "dir");
    built = await run(process.execPath, [TSC, "-p", project.dir], { cwd: project.dir });
  });
  afterAll(() => root && rmSync(root, { recursive: true, force: true }));

  it("depends on the SDK in this checkout through a file: path and prints the build steps", async () => {
    const pkg = JSON.parse(await readFile(path.join(project.dir, "package.json"), "utf8"));
    const dependency = pkg.dependencies["@anna-ai/executa-sdk"] as string;
    expect(dependency).toMatch(/^file:/);
    const resolved = path.resolve(project.dir, dependency.slice("file:".length));
    expect(resolved).toBe(SDK_DIR);
    expect(pkg.bin).toEqual({ "tool-dev-ts-greeter": "dist/main.js" });
    expect(project.next_steps).toEqual([
      "cd ts-greeter",
      "npm install",
      "npm run build",
      "npm test",
      `anna-app executa dev --dir . --invoke hello --args '{"name":"Ada"}'`,
    ]);
  });

  it("compiles with tsc against the local SDK without a diagnostic", () => {
    expect(built.stdout + built.stderr).toBe("");
    expect(built.code).toBe(0);
  });

  it("passes its own node:test suite once built", async () => {
    const tested = await run(process.execPath, ["--test"], { cwd: project.dir });
    expect(tested.stdout).toMatch(/^# pass [1-9]/m);
    expect(tested.stdout).toMatch(/^# fail 0$/m);
    expect(tested.code).toBe(0);
  });

  it("answers hello through executa dev once built", async () => {
    expect(await invokeHello(project.dir)).toEqual({
      message: "Hello, Ada!",
      greeting_source: "default",
    });
  });
});
