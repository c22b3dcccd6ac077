// Every app template, generated through the built CLI, passes its own tests (the executa's and
// the bundle's), answers `executa dev --invoke hello` on its bundled executa, and passes
// `anna-app validate --strict` — the ts template after the build step init prints.
import { rmSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import {
  jsonLine,
  run,
  runCli,
  type RunResult,
  SDK_DIR,
  suiteDir,
  TSC,
} from "../executa-init/helpers.js";
import { runBundleTests } from "./helpers.js";

const HELLO = ["--invoke", "hello", "--args", '{"name":"Ada"}', "--json"];

interface InitJson {
  dir: string;
  slug: string;
  handle: string;
  tool_id: string;
  executa_dir: string;
  skill: string | null;
  files: string[];
  next_steps: string[];
}

async function generate(root: string, template: string, dir: string): Promise<InitJson> {
  const result = await runCli(["init", dir, "--template", template, "--json"], { cwd: root });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return jsonLine(result) as InitJson;
}

async function invokeHello(project: InitJson): Promise<unknown> {
  const executa = path.join(project.dir, project.executa_dir);
  const result = await runCli(["executa", "dev", "--dir", executa, ...HELLO]);
  if (result.code !== 0) throw new Error(`executa dev exited ${result.code}: ${result.stderr}`);
  return jsonLine(result);
}

/** `anna-app validate --strict` in the project: exit 0 with not even a warning. */
async function expectValidStrict(project: InitJson): Promise<void> {
  const result = await runCli(["validate", "--strict", "--json"], { cwd: project.dir });
  expect(result.stderr).toBe("");
  const report = jsonLine(result) as Record<string, unknown>;
  expect(report).toMatchObject({ ok: true, strict: true, errors: 0, warnings: 0 });
  expect(result.code).toBe(0);
}

function expectVitestPassed(result: RunResult): void {
  expect(result.stdout).toMatch(/Tests +\d+ passed \| 2 todo/);
  expect(result.code).toBe(0);
}

const python = needs("python3");

describe.each(["minimal", "skill"])("%s template (Python executa)", (template) => {
  const root = suiteDir("app-init-");
  let project: InitJson;
  beforeAll(async () => {
    project = await generate(root, template, `${template}-app`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.skipIf(python.skip)(`passes its executa's unittest suite${python.reason}`, async () => {
    const result = await run("python3", ["-m", "unittest"], {
      cwd: path.join(project.dir, project.executa_dir),
    });
    expect(result.stderr).toMatch(/\nOK\s*$/);
    expect(result.code).toBe(0);
  });

  it.skipIf(python.skip)(
    `answers hello through executa dev on executas/<handle>${python.reason}`,
    async () => {
      expect(await invokeHello(project)).toEqual({
        message: "Hello, Ada!",
        greeting_source: "default",
      });
    },
  );

  it("passes its bundle tests under vitest", async () => {
    expectVitestPassed(await runBundleTests(project.dir));
  });

  it("passes anna-app validate --strict", async () => {
    await expectValidStrict(project);
  });
});

describe("ts template", () => {
  const root = suiteDir("app-init-");
  let project: InitJson;
  let executaDir: string;
  let built: RunResult;
  let unbuilt: RunResult;
  beforeAll(async () => {
    project = await generate(root, "ts", "ts-app");
    executaDir = path.join(project.dir, project.executa_dir);
    unbuilt = await runCli(["validate", "--strict", "--json"], { cwd: project.dir });
    // What the printed `npm install` does with the file: dependency, without the network; then
    // `npm run build` with this repository's tsc.
    const scope = path.join(executaDir, "node_modules", "@anna-ai");
    await mkdir(scope, { recursive: true });
    await symlink(SDK_DIR, path.join(scope, "executa-sdk"), "dir");
    built = await run(process.execPath, [TSC, "-p", executaDir], { cwd: executaDir });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("prints the exact install, build and test commands for its executa, before validate", () => {
    expect(project.next_steps.slice(0, 3)).toEqual([
      "cd ts-app",
      "(cd executas/ts-app && npm install && npm run build && npm test)",
      "anna-app validate --strict",
    ]);
  });

  it("passes validate before the build, with a warning that says to build", () => {
    // validate resolves the executa as `anna-app dev` would start it, and its entry is build
    // output; an unbuilt entry is a warning (the platform accepts the app), plus the bundled
    // handle it leaves unresolved.
    expect(unbuilt.code).toBe(0);
    const report = JSON.parse(unbuilt.stdout) as {
      diagnostics: { severity: string; code: string; message: string }[];
    };
    expect(report.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const unbuiltEntry = report.diagnostics.filter((d) => d.code === "executas.no_plugin_found");
    expect(unbuiltEntry.map((d) => d.severity)).toEqual(["warning"]);
    expect(unbuiltEntry[0]?.message).toMatch(/dist\/main\.js, which does not exist; build it/);
  });

  it("compiles its executa with tsc against the local SDK without a diagnostic", () => {
    expect(built.stdout + built.stderr).toBe("");
    expect(built.code).toBe(0);
  });

  it("passes its executa's node:test suite once built", async () => {
    const tested = await run(process.execPath, ["--test"], { cwd: executaDir });
    expect(tested.stdout).toMatch(/^# pass [1-9]/m);
    expect(tested.stdout).toMatch(/^# fail 0$/m);
    expect(tested.code).toBe(0);
  });

  it("answers hello through executa dev once built", async () => {
    expect(await invokeHello(project)).toEqual({
      message: "Hello, Ada!",
      greeting_source: "default",
    });
  });

  it("passes its bundle tests under vitest", async () => {
    expectVitestPassed(await runBundleTests(project.dir));
  });

  it("passes anna-app validate --strict once built", async () => {
    await expectValidStrict(project);
  });
});
