import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { LaunchError } from "../../src/launch/launch-error.js";
import { parseSpecString, resolveSpecString, typeOfCommand } from "../../src/launch/spec-string.js";
import { FIXTURES, NO_UV, fixture } from "./fixtures.js";

function parseError(input: string, flag?: "--executa" | "--spec"): LaunchError {
  try {
    parseSpecString(input, flag === undefined ? {} : { flag });
  } catch (error) {
    expect(error).toBeInstanceOf(LaunchError);
    const launch = error as LaunchError;
    expect(launch.code).toBe("INVALID_SPEC");
    expect(launch.message).not.toContain("\n");
    return launch;
  }
  throw new Error(`parsed without error: ${input}`);
}

describe("parseSpecString", () => {
  it.each([
    ["dir=./x", { dir: "./x" }],
    ["dir=./x,tool_id=my-tool", { dir: "./x", toolId: "my-tool" }],
    [
      `dir=p,tool_id=my-tool,type=node,command="node dist/server.js"`,
      { dir: "p", toolId: "my-tool", type: "node", command: ["node", "dist/server.js"] },
    ],
    [
      `dir=p,tool_id=t,command=python3 -c 'print(1, 2)'`,
      { dir: "p", toolId: "t", command: ["python3", "-c", "print(1, 2)"] },
    ],
    [
      `dir=p,tool_id=t,command=["node", "server.js", "--name=a,b"]`,
      { dir: "p", toolId: "t", command: ["node", "server.js", "--name=a,b"] },
    ],
    [
      `dir=p,tool_id=t,command=["go","run","./cmd/a b"]`,
      { dir: "p", toolId: "t", command: ["go", "run", "./cmd/a b"] },
    ],
    [
      `dir=p,tool_id=t,command=node a\\,b.js`,
      { dir: "p", toolId: "t", command: ["node", "a,b.js"] },
    ],
    [`dir="my plugins/x" , tool_id = t ,`, { dir: "my plugins/x", toolId: "t" }],
    [`dir=C:\\plugins\\x`, { dir: "C:\\plugins\\x" }],
    [`dir=p,type=binary,tool_id=t`, { dir: "p", toolId: "t", type: "binary" }],
    [
      `dir=p,tool_id=t,command="node \\"my file.js\\" --x"`,
      { dir: "p", toolId: "t", command: ["node", "my file.js", "--x"] },
    ],
    [
      `dir=p,tool_id=t,command="python3 -c 'print(1, 2)'"`,
      { dir: "p", toolId: "t", command: ["python3", "-c", "print(1, 2)"] },
    ],
    [
      `dir=p,tool_id=t,command="my prog" --flag`,
      { dir: "p", toolId: "t", command: ["my prog", "--flag"] },
    ],
  ])("parses %s", (input, expected) => {
    expect(parseSpecString(input)).toEqual(expected);
  });

  it("requires tool_id= with type= or command=, in the Reference's words", () => {
    expect(parseError("dir=p,type=node").message).toMatch(/^--executa spec missing tool_id=/);
    expect(parseError(`dir=p,command="node x.js"`).message).toMatch(
      /^--executa spec missing tool_id=/,
    );
    expect(parseError("type=node", "--spec").message).toMatch(/^--spec missing tool_id=/);
  });

  it("names an unknown key and lists the valid ones", () => {
    const error = parseError("dir=p,tool=x");
    expect(error.message).toContain(`unknown key "tool"`);
    expect(error.message).toContain("valid keys are dir, tool_id, type, command");
    expect(parseError("Dir=p").message).toContain(`unknown key "Dir"`);
  });

  it.each([
    ["dir=p,type=ruby,tool_id=t", /type=ruby; use one of python, node, go, binary, mcp \(in/],
    ["dir=p,type=pyhton,tool_id=t", /type=pyhton; use one of .*; did you mean "python"\? \(in/],
    ["dir=p,type=golang,tool_id=t", /type=golang; use one of .*; did you mean "go"\? \(in/],
    ["dir=p,dir=q", /repeats dir=/],
    ["dir=p,justaword", /"justaword" is not key=value/],
    [`dir=p,tool_id=t,command="node x.js`, /unterminated " quote/],
    [`dir=p,tool_id=t,command=["node", "x.js"`, /unterminated JSON array/],
    [`dir=p,tool_id=t,command=[1, 2]`, /command= JSON must be an array of strings/],
    [`dir=p,tool_id=t,command=`, /command= is empty/],
    [`dir=,tool_id=t`, /empty dir=/],
    ["tool_id=t", /^--executa spec missing dir=/],
  ])("rejects %s", (input, message) => {
    expect(parseError(input).message).toMatch(message);
  });

  it("lets --spec strings omit dir=", () => {
    expect(parseSpecString("tool_id=t,type=go", { flag: "--spec" })).toEqual({
      toolId: "t",
      type: "go",
    });
  });
});

describe("resolveSpecString", () => {
  it("auto-detects when only dir= is given, resolving it against cwd", async () => {
    const spec = await resolveSpecString("dir=node-bin-string", { ...NO_UV, cwd: FIXTURES });
    expect(spec.toolId).toBe("bin-string-tool");
    expect(spec.dir).toBe(fixture("node-bin-string"));
  });

  it("bypasses enabled:false and lets tool_id= rename the detected plugin", async () => {
    const spec = await resolveSpecString("dir=executa-json-disabled,tool_id=renamed", {
      ...NO_UV,
      cwd: FIXTURES,
    });
    expect(spec).toMatchObject({ toolId: "renamed", command: ["node", "index.js"] });
  });

  it("uses the type's default command for type=", async () => {
    const dir = fixture("go-several");
    const spec = await resolveSpecString(`dir=${dir},type=binary,tool_id=x`, NO_UV).catch(
      (e: unknown) => e,
    );
    expect(spec).toBeInstanceOf(LaunchError);
    const node = await resolveSpecString(
      `dir=${fixture("node-main-only")},type=node,tool_id=main-only`,
      NO_UV,
    );
    expect(node.command).toEqual(["node", path.join(fixture("node-main-only"), "lib", "index.js")]);
    expect(node.source).toBe("--executa");
  });

  it("uses command= as given and infers the type from the program", async () => {
    const spec = await resolveSpecString(
      `dir=${fixture("go-command")},tool_id=cmd,command=["go", "run", "./cmd/hello"]`,
      NO_UV,
    );
    expect(spec).toMatchObject({
      toolId: "cmd",
      type: "go",
      command: ["go", "run", "./cmd/hello"],
    });
    expect(spec.env.GOTOOLCHAIN).toBe("local");
  });

  it("defaults --spec to the given folder", async () => {
    const spec = await resolveSpecString(`tool_id=t,type=node,command="node dist/server.js"`, {
      ...NO_UV,
      flag: "--spec",
      defaultDir: fixture("executa-json-full"),
    });
    expect(spec).toMatchObject({
      toolId: "t",
      type: "node",
      command: ["node", "dist/server.js"],
      cwd: fixture("executa-json-full"),
      source: "--spec",
    });
  });

  it("reports a dir= that does not exist", async () => {
    const error: unknown = await resolveSpecString("dir=nowhere", {
      ...NO_UV,
      cwd: FIXTURES,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "MISSING_DIRECTORY" });
  });
});

describe("typeOfCommand", () => {
  it.each([
    [["python3", "x.py"], "python"],
    [["uv", "run"], "python"],
    [["/usr/bin/node", "x.js"], "node"],
    [["go", "run", "."], "go"],
    [["./bin/tool"], "binary"],
  ] as const)("%j is %s", (command, type) => {
    expect(typeOfCommand(command)).toBe(type);
  });
});
