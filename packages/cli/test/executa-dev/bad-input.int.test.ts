// Bad input: each case is one line on stderr naming the problem, the right exit code, no stack
// trace, and nothing on stdout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { savedAccountEnv } from "../real-storage/storage-nexus.js";
import { FIXTURES, example, runCli, tempDir, type CliResult } from "./helpers.js";

const NOTES = example("ts-notes");
const work = mkdtempSync(path.join(tmpdir(), "executa-dev-bad-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}

/** Exit 2, nothing on stdout, exactly one `error:` line on stderr, no stack frames. */
function expectOneLineError(r: CliResult, pattern: RegExp, code = 2): void {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe("");
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const dev = (...args: string[]) => runCli(["executa", "dev", ...args]);

describe.concurrent("executa dev bad input", () => {
  it("malformed --args JSON", async () => {
    const r = await dev("--dir", NOTES, "--invoke", "echo", "--args", "{text:");
    expectOneLineError(r, /--args is not valid JSON/);
  });

  it("--args that is not an object", async () => {
    const r = await dev("--dir", NOTES, "--invoke", "echo", "--args", "[1]");
    expectOneLineError(r, /must be a JSON object of tool arguments, got an array/);
  });

  it("--args @file that does not exist", async () => {
    const r = await dev("--dir", NOTES, "--invoke", "echo", "--args", "@/nonexistent/args.json");
    expectOneLineError(r, /not found/);
  });

  it("an undescribed tool is still sent: the plugin's answer, exit 1, then the described tools", async () => {
    const r = await dev("--dir", NOTES, "--invoke", "ech", "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      code: -32601,
      message: "Unknown tool: ech",
      data: { tool: "ech" },
    });
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /did not describe a tool 'ech' \(did you mean 'echo'\?\); described tools: add_note, list_notes, summarize_notes, echo$/,
      ),
    ]);
  });

  it("a skill folder says there is nothing to run", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, "executa.json"),
      JSON.stringify({ executa_type: "skill", content_file: "SKILL.md" }),
    );
    writeFileSync(path.join(dir, "SKILL.md"), "---\nname: guide\ndescription: d\n---\n");
    const r = await dev("--dir", dir, "--describe");
    expectOneLineError(
      r,
      /is a skill \(executa\.json declares "executa_type": "skill" with SKILL\.md\): nothing to run/,
    );
  });

  it("an unknown flag suggests the closest one", async () => {
    const r = await dev("--dir", NOTES, "--mock-sampeling", "x.jsonl");
    expectOneLineError(r, /unknown option '--mock-sampeling'; did you mean '--mock-sampling'\?/);
  });

  it("a missing directory", async () => {
    const r = await dev("--dir", path.join(work, "does-not-exist"), "--describe");
    expectOneLineError(r, /does-not-exist: no such directory/);
  });

  it("a go.mod-only directory asks for executa.json", async () => {
    const dir = folder("gomod-only", { "go.mod": "module example.com/x\n\ngo 1.19\n" });
    const r = await dev("--dir", dir, "--describe");
    expectOneLineError(r, /go\.mod alone does not name the tool; add .*executa\.json/);
  });

  it("an executa.json without tool_id", async () => {
    const dir = folder("no-tool-id", { "executa.json": '{"type":"node"}' });
    const r = await dev("--dir", dir, "--describe");
    expectOneLineError(r, /tool_id/);
  });

  it("an executa.json without type", async () => {
    const dir = folder("no-type", { "executa.json": '{"tool_id":"tool-x"}' });
    const r = await dev("--dir", dir, "--describe");
    expectOneLineError(r, /missing "type"/);
  });

  it("a fixture file with a broken line names the file and the line", async () => {
    const r = await dev(
      "--dir",
      NOTES,
      "--mock-sampling",
      path.join(FIXTURES, "broken.jsonl"),
      "--describe",
    );
    expectOneLineError(r, /broken\.jsonl:3:\d+: not valid JSON/);
  });

  it("a fixture file that does not exist", async () => {
    const r = await dev(
      "--dir",
      NOTES,
      "--mock-agent",
      path.join(work, "none.jsonl"),
      "--describe",
    );
    expectOneLineError(r, /--mock-agent .*none\.jsonl: file not found/);
  });

  it("a plugin that dies at start shows its last stderr lines", async () => {
    const dir = folder("dies", {
      "executa.json": '{"tool_id":"tool-dies","type":"node","command":"node die.js"}',
      "die.js":
        'console.error("loading config");\nconsole.error("boom: missing DB_URL");\nprocess.exit(3);\n',
    });
    const r = await dev("--dir", dir, "--invoke", "anything", "--json");
    expectOneLineError(r, /tool-dies .*did not start: .*exited with code 3.*boom: missing DB_URL/);
  });

  it("an unknown --grant family lists the families", async () => {
    const r = await dev("--dir", NOTES, "--grant", "telepathy", "--describe");
    expectOneLineError(
      r,
      /'telepathy' is not a reverse-RPC family; use one of sampling, agent, storage, files, image, upload, embeddings/,
    );
  });

  it("--grant and --no-grant of the same family contradict", async () => {
    const r = await dev(
      "--dir",
      NOTES,
      "--grant",
      "storage",
      "--no-grant",
      "storage",
      "--describe",
    );
    expectOneLineError(r, /contradict/);
  });

  it("an unknown storage scope", async () => {
    const r = await dev("--dir", NOTES, "--storage-scopes", "user,global", "--describe");
    expectOneLineError(r, /--storage-scopes 'global' is not a storage scope/);
  });

  it("an unknown --storage mode", async () => {
    const r = await dev("--dir", NOTES, "--storage", "disk", "--describe");
    expectOneLineError(r, /must be one of off, memory, mock, real/);
  });

  it("--storage mock without a fixture", async () => {
    const r = await dev("--dir", NOTES, "--storage", "mock", "--describe");
    expectOneLineError(r, /--storage mock needs --mock-storage/);
  });

  it("--storage real without a saved account names the login command", async () => {
    const noConfig = tempDir("no-config-");
    const r = await runCli(["executa", "dev", "--dir", NOTES, "--storage", "real", "--describe"], {
      env: { XDG_CONFIG_HOME: noConfig, ANNA_APP_HOST: undefined, ANNA_APP_PAT: undefined },
    });
    expectOneLineError(r, /not logged in: .*run 'anna-app login --host <url>' first/);
  });

  it("--storage real with a saved account whose server is down says so in one line", async () => {
    const config = tempDir("down-config-");
    // A port nothing listens on: bind one, note it, close it.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const host = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((r) => probe.close(() => r()));
    const env = await savedAccountEnv(config, host, "anna_pat_not_a_real_one_but_long_enough");
    const r = await runCli(["executa", "dev", "--dir", NOTES, "--storage", "real", "--describe"], {
      env,
    });
    expectOneLineError(
      r,
      new RegExp(`cannot reach ${host} .*connection refused \\(is the server running\\?\\)`),
      6,
    );
    expect(r.stderr).not.toContain("anna_pat_");
  });

  it("--storage-account without --storage real", async () => {
    const r = await dev("--dir", NOTES, "--storage-account", "x", "--describe");
    expectOneLineError(r, /--storage-account goes with --storage real/);
  });

  it.each(["app-slug", "sampling-account", "agent-account", "image-account", "upload-account"])(
    "--%s (a real mode) without a saved account names anna-app login",
    async (flag) => {
      const value = flag === "app-slug" ? "my-app" : "http://127.0.0.1:9";
      const r = await dev("--dir", NOTES, `--${flag}`, value, "--describe");
      expectOneLineError(r, new RegExp(`--${flag} \\(real \\w+\\): .*anna-app login`));
    },
  );

  it("--no-X with --mock-X contradict", async () => {
    const r = await dev("--dir", NOTES, "--no-image", "--mock-image", "x.jsonl", "--describe");
    expectOneLineError(r, /either --no-image or --mock-image/);
  });

  it("two one-shot modes at once", async () => {
    const r = await dev("--dir", NOTES, "--describe", "--health");
    expectOneLineError(r, /only one of --describe, --health, --invoke/);
  });

  it("--credential without NAME=VALUE", async () => {
    const r = await dev("--dir", NOTES, "--credential", "NOTES_API_KEY", "--describe");
    expectOneLineError(r, /must be NAME=VALUE/);
  });

  it("--record into a folder that does not exist", async () => {
    const r = await dev(
      "--dir",
      NOTES,
      "--describe",
      "--record",
      path.join(work, "no/such/dir/s.jsonl"),
    );
    expectOneLineError(r, /--record .*s\.jsonl: cannot write \(its folder does not exist\)/);
  });
});
