// One-shot mode against the built CLI: --describe, --health, --invoke with the --json one-line
// contract, --args inline / @file / stdin, and credentials in context.credentials.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, example, jsonLine, runCli, needs } from "./helpers.js";

const python = needs("python3");
const NOTES = example("ts-notes");
const KITCHEN = example("ts-kitchen-sink");
const STUDIO = example("py-studio");
const work = mkdtempSync(path.join(tmpdir(), "executa-dev-oneshot-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.concurrent("executa dev one-shot", () => {
  it("--describe --json prints the manifest as one line", async () => {
    const r = await runCli(["executa", "dev", "--dir", NOTES, "--describe", "--json"]);
    expect(r.code).toBe(0);
    const manifest = jsonLine(r) as { tools: Array<{ name: string }> };
    expect(manifest.tools.map((t) => t.name)).toEqual([
      "add_note",
      "list_notes",
      "summarize_notes",
      "echo",
    ]);
    expect(r.stderr).toBe("");
  });

  it("--health --json prints the plugin's own health result", async () => {
    const r = await runCli(["executa", "dev", "--dir", NOTES, "--health", "--json"]);
    expect(r.code).toBe(0);
    // What the SDK answered, not the host's reading of it ("healthy", state "ready").
    expect(jsonLine(r)).toEqual({ status: "ready", message: "", details: {} });
  });

  it("--health without --json shows the interpreted state beside the plugin's result", async () => {
    const r = await runCli(["executa", "dev", "--dir", NOTES, "--health"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"status": "healthy"');
    expect(r.stdout).toContain('"state": "ready"');
    expect(r.stdout).toContain('"raw": {');
  });

  it("--invoke --json prints exactly the unwrapped data and exits 0", async () => {
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      NOTES,
      "--invoke",
      "echo",
      "--args",
      '{"text":"hi"}',
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"text":"hi","api_key":null}\n');
  });

  it("--invoke without --json prints a readable outcome", async () => {
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      NOTES,
      "--invoke",
      "echo",
      "--args",
      '{"text":"hi"}',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ echo/);
    expect(r.stdout).toContain('"text": "hi"');
  });

  it("a tool failure (success:false) prints the error object on one line and exits 1", async () => {
    // Sampling is off by default, so the SDK plugin reports success:false.
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      KITCHEN,
      "--invoke",
      "structured_summary",
      "--args",
      '{"text":"abc"}',
      "--json",
    ]);
    expect(r.code).toBe(1);
    const line = jsonLine(r) as { success: boolean; error: string };
    expect(line.success).toBe(false);
    expect(line.error).toMatch(/sampling/);
  });

  it("a sampling_disabled refusal in one-shot mode adds a --mock-sampling hint on stderr", async () => {
    const args = ["executa", "dev", "--dir", KITCHEN, "--invoke", "structured_summary"];
    const off = await runCli([...args, "--args", '{"text":"abc"}', "--json"]);
    expect(off.stderr).toMatch(
      /^hint: structured_summary called sampling\/createMessage and got sampling_disabled: .*--mock-sampling <fixture\.jsonl>$/m,
    );
    // With answers from a file there is nothing to hint at.
    const mocked = await runCli([
      ...args,
      "--args",
      '{"text":"abc"}',
      "--mock-sampling",
      path.join(FIXTURES, "sampling.jsonl"),
      "--json",
    ]);
    expect(mocked.stderr).not.toContain("hint:");
  });

  it.skipIf(python.skip)(
    `a JSON-RPC error prints {code, message, data} on one line and exits 1${python.reason}`,
    async () => {
      const r = await runCli([
        "executa",
        "dev",
        "--dir",
        STUDIO,
        "--invoke",
        "share_text",
        "--args",
        '{"filename":"a.txt","text":"x"}',
        "--json",
      ]);
      expect(r.code).toBe(1);
      expect(jsonLine(r)).toMatchObject({
        code: -32201,
        data: { errorCode: "UPLOAD_NOT_GRANTED" },
      });
    },
  );

  it("--args @file.json reads the arguments from a file relative to the cwd", async () => {
    const dir = mkdtempSync(path.join(work, "args-"));
    writeFileSync(path.join(dir, "args.json"), '{"text":"from a file"}');
    const r = await runCli(
      ["executa", "dev", "--dir", NOTES, "--invoke", "echo", "--args", "@args.json", "--json"],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(jsonLine(r)).toEqual({ text: "from a file", api_key: null });
  });

  it("--args - reads a 200 KiB argument from stdin (too big for argv)", async () => {
    const text = "x".repeat(200 * 1024);
    const r = await runCli(
      ["executa", "dev", "--dir", NOTES, "--invoke", "echo", "--args", "-", "--json"],
      { stdin: JSON.stringify({ text }) },
    );
    expect(r.code).toBe(0);
    const data = jsonLine(r) as { text: string };
    expect(data.text.length).toBe(200 * 1024);
  });

  it("--credential reaches context.credentials, redacted by the plugin", async () => {
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      KITCHEN,
      "--invoke",
      "credentials_check",
      "--credential",
      "KITCHEN_TOKEN=kt_secret_9876",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const data = jsonLine(r) as { from_context: boolean; preview: string };
    expect(data.from_context).toBe(true);
    expect(data.preview).toMatch(/9876$/);
    expect(r.stdout).not.toContain("kt_secret_9876");
  });

  it("environment variables named by declared credentials pass through in context", async () => {
    const r = await runCli(
      ["executa", "dev", "--dir", KITCHEN, "--invoke", "credentials_check", "--json"],
      { env: { KITCHEN_TOKEN: "kt_from_env_5555" } },
    );
    expect(r.code).toBe(0);
    expect(jsonLine(r)).toMatchObject({ from_context: true });
  });

  it("without a credential or env variable the context carries none", async () => {
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      KITCHEN,
      "--invoke",
      "credentials_check",
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(jsonLine(r)).toMatchObject({ from_context: false, preview: null });
  });

  it("--spec launches a plugin without detection", async () => {
    const r = await runCli([
      "executa",
      "dev",
      "--spec",
      `tool_id=my-notes,type=node,dir=${NOTES},command="node dist/main.js"`,
      "--invoke",
      "echo",
      "--args",
      '{"text":"spec"}',
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(jsonLine(r)).toEqual({ text: "spec", api_key: null });
  });

  it("--plugin picks one script in a Node folder holding several", async () => {
    const dir = path.join(FIXTURES, "multi-node");
    const [ambiguous, beta, missing] = await Promise.all([
      runCli(["executa", "dev", "--dir", dir, "--describe", "--json"]),
      runCli([
        "executa",
        "dev",
        "--dir",
        dir,
        "--plugin",
        "beta.mjs",
        "--invoke",
        "beta",
        "--json",
      ]),
      runCli(["executa", "dev", "--dir", dir, "--plugin", "gamma.mjs", "--describe"]),
    ]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(
      /several plugins: alpha\.mjs, beta\.mjs — pick one with --plugin/,
    );
    expect(jsonLine(beta)).toEqual({ plugin: "beta" });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /gamma\.mjs: plugin file does not exist; pick one of: alpha\.mjs, beta\.mjs/,
    );
  });

  it("--dir defaults to the current directory", async () => {
    const r = await runCli(
      ["executa", "dev", "--invoke", "echo", "--args", '{"text":"cwd"}', "--json"],
      {
        cwd: NOTES,
      },
    );
    expect(jsonLine(r)).toEqual({ text: "cwd", api_key: null });
  });

  it("--health exits 1 when the plugin reports itself unhealthy", async () => {
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      path.join(FIXTURES, "crashy"),
      "--health",
      "--json",
    ]);
    expect(r.code).toBe(1);
    expect(jsonLine(r)).toEqual({ status: "error", message: "db down" });
  });

  it("prints executa/progress notifications on stderr, but not under --json", async () => {
    const args = [
      "executa",
      "dev",
      "--dir",
      KITCHEN,
      "--invoke",
      "long_task",
      "--args",
      '{"steps":2}',
    ];
    const [plain, json] = await Promise.all([runCli(args), runCli([...args, "--json"])]);
    expect(plain.code).toBe(0);
    const progress = plain.stderr.split("\n").filter((l) => l.startsWith("[progress]"));
    expect(progress).toEqual([
      '[progress] long_task tool_update {"step":1,"total":2}',
      '[progress] long_task tool_update {"step":2,"total":2}',
    ]);
    expect(json.stderr).not.toContain("[progress]");
  });
});
