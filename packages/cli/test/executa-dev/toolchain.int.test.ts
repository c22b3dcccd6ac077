// A plugin whose launcher is missing or too old fails with one line naming the tool, the version
// wanted and the version found (never `spawn go ENOENT`); Python path sources start without uv.
// PATH holds only what each test puts there: fake launchers are shell scripts printing old versions.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, PYTHON, needs, example, jsonLine, runCli, tempDir, toolPath } from "./helpers.js";

const GO_HELLO = example("go-hello");
const PY_STUDIO = example("py-studio");
const PATH_SOURCE = path.join(
  REPO,
  "packages/executa-host/test/fixtures/launch/python-path-source",
);

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  expect(lines.at(-1)).toMatch(pattern);
  expect(stderr).not.toMatch(/ENOENT|\n\s+at /);
}

describe("executa dev with a missing or old toolchain", () => {
  it("a Go plugin without go on PATH says what to install", async () => {
    const PATH = toolPath(tempDir(), {});
    const r = await runCli(["executa", "dev", "--dir", GO_HELLO, "--describe"], { env: { PATH } });
    expect(r.code).toBe(2);
    expectOneLine(
      r.stderr,
      /did not start: go is not on PATH: this plugin needs Go 1\.19 or newer \(go\.mod\), found none; install it \(https:\/\/go\.dev\/dl\/\)/,
    );
    // Said once: not also as a warning line.
    expect(r.stderr.match(/go is not on PATH/g)).toHaveLength(1);
  });

  it("a Go older than go.mod asks names both versions", async () => {
    const PATH = toolPath(tempDir(), {
      go: {
        script: [
          'if [ "$1" = version ]; then echo "go version go1.17.2 linux/amd64"; exit 0; fi',
          'echo "go: go.mod requires go >= 1.19 (running go 1.17.2)" >&2',
          "exit 1",
        ].join("\n"),
      },
    });
    const r = await runCli(["executa", "dev", "--dir", GO_HELLO, "--health", "--json"], {
      env: { PATH },
    });
    expect(r.code).toBe(2);
    expectOneLine(
      r.stderr,
      /did not start: go is too old: this plugin needs Go 1\.19 or newer \(go\.mod\), found 1\.17\.2 \(.*tool-bin\/go\); install Go 1\.19\+/,
    );
  });

  it("a Python plugin without python3 on PATH says what to install", async () => {
    const PATH = toolPath(tempDir(), {});
    const r = await runCli(["executa", "dev", "--dir", PY_STUDIO, "--describe"], { env: { PATH } });
    expect(r.code).toBe(2);
    expectOneLine(
      r.stderr,
      /did not start: python3 is not on PATH: this plugin needs Python 3\.10 or newer \(pyproject\.toml requires-python ">=3\.10"\), found none/,
    );
  });

  it("a Python older than requires-python leads the did-not-start line", async () => {
    const PATH = toolPath(tempDir(), {
      python3: {
        script: [
          'if [ "$1" = --version ]; then echo "Python 3.6.9"; exit 0; fi',
          'echo "SyntaxError: f-strings need a newer Python" >&2',
          "exit 1",
        ].join("\n"),
      },
    });
    const r = await runCli(["executa", "dev", "--dir", PY_STUDIO, "--describe"], { env: { PATH } });
    expect(r.code).toBe(2);
    expectOneLine(
      r.stderr,
      /did not start: python3 is too old: this plugin needs Python 3\.10 or newer .*found 3\.6\.9 .*SyntaxError/,
    );
  });
});

const python = needs("python3");
describe.skipIf(python.skip)(`Python path sources without uv${python.reason}`, () => {
  function copy(): string {
    const dir = path.join(tempDir(), "repo");
    cpSync(PATH_SOURCE, dir, { recursive: true });
    return dir;
  }
  const onlyPython = () => toolPath(tempDir(), { python3: { link: PYTHON as string } });

  it("the plugin imports its path-source package and starts", async () => {
    const dir = copy();
    const r = await runCli(
      ["executa", "dev", "--dir", path.join(dir, "plugins/greeter"), "--describe", "--json"],
      { env: { PATH: onlyPython() } },
    );
    expect(r.code).toBe(0);
    const manifest = jsonLine(r) as { tools: Array<{ name: string }> };
    expect(manifest.tools.map((t) => t.name)).toEqual(["greet_from_path_source"]);
  });

  it("a path source that does not exist is warned about in one-shot mode and in the error", async () => {
    const dir = copy();
    const pyproject = path.join(dir, "plugins/greeter/pyproject.toml");
    writeFileSync(pyproject, readFileSync(pyproject, "utf8").replace("../../python", "../gone"));
    const r = await runCli(
      ["executa", "dev", "--dir", path.join(dir, "plugins/greeter"), "--describe"],
      {
        env: { PATH: onlyPython() },
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^warning: pyproject\.toml \[tool\.uv\.sources\] path "\.\.\/gone" does not exist/m,
    );
    expectOneLine(
      r.stderr,
      /did not start: .*ModuleNotFoundError.*launch warnings: pyproject\.toml \[tool\.uv\.sources\] path "\.\.\/gone" does not exist/,
    );
  });
});
