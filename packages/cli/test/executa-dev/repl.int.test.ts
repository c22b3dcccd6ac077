// The REPL with piped stdin: one command per line, answers on stdout, plugin stderr and traces on
// stderr, and it leaves cleanly at `quit` or end of input.
import { describe, expect, it } from "vitest";
import { FIXTURES, example, runCli } from "./helpers.js";

const NOTES = example("ts-notes");

describe.concurrent("executa dev REPL over piped stdin", () => {
  it("runs describe, tools, invoke, health and quit line by line", async () => {
    const script = [
      "describe",
      "tools",
      'invoke add_note {"text":"buy milk","tags":["home"]}',
      'invoke list_notes {"tag":"home"}',
      "health",
      "quit",
      'invoke echo {"text":"after quit"}',
    ].join("\n");
    const r = await runCli(["executa", "dev", "--dir", NOTES], { stdin: script + "\n" });
    expect(r.code).toBe(0);
    // Banner: plugin, where it was found, command, protocol, tools, each family's mode.
    expect(r.stdout).toContain("anna-app executa dev — tool-examples-ts-notes-00000001");
    expect(r.stdout).toMatch(/from\s+executa\.json in .*ts-notes/);
    expect(r.stdout).toMatch(/command\s+node .*dist\/main\.js/);
    expect(r.stdout).toMatch(/protocol 2\.0\s+tools add_note, list_notes, summarize_notes, echo/);
    expect(r.stdout).toMatch(
      /services sampling=off\s+agent=off\s+storage=memory\s+image=off\s+upload=off\s+embeddings=synthetic/,
    );
    expect(r.stdout).toContain("--mock-sampling <fixture.jsonl>");
    // tools: a table with parameters
    expect(r.stdout).toMatch(/TOOL\s+PARAMETER\s+TYPE\s+REQ\s+DESCRIPTION/);
    expect(r.stdout).toMatch(/tags\s+array<string>\s+no/);
    // memory storage persists across invokes of one session
    expect(r.stdout).toMatch(/✓ add_note/);
    expect(r.stdout).toContain('"text": "buy milk"');
    expect(r.stdout).toContain('"status": "healthy"');
    expect(r.stdout).not.toContain("after quit");
  });

  it("reports bad lines and keeps going", async () => {
    const script = [
      "bogus",
      "invoke echo {broken",
      "invoke nope {}",
      "invoke",
      'invoke echo {"text":"still here"}',
    ].join("\n");
    const r = await runCli(["executa", "dev", "--dir", NOTES], { stdin: script + "\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("unknown command 'bogus'");
    expect(r.stdout).toContain("arguments is not valid JSON");
    // Sent anyway: the plugin's own answer, then what it did describe.
    expect(r.stdout).toContain("Unknown tool: nope");
    expect(r.stdout).toMatch(
      /did not describe a tool 'nope'; described tools: add_note, list_notes, summarize_notes, echo/,
    );
    expect(r.stdout).toContain("usage: invoke <tool> [json-args]");
    expect(r.stdout).toContain('"text": "still here"');
  });

  it("trace on|off toggles frame lines on stderr; restart starts a new process", async () => {
    const script = [
      'invoke echo {"text":"quiet"}',
      "trace on",
      'invoke echo {"text":"traced"}',
      "trace off",
      "restart",
      'invoke echo {"text":"after restart"}',
    ].join("\n");
    const r = await runCli(["executa", "dev", "--dir", NOTES], { stdin: script + "\n" });
    expect(r.code).toBe(0);
    const traces = r.stderr.split("\n").filter((l) => l.startsWith("[trace]"));
    expect(traces.some((l) => l.includes('"traced"'))).toBe(true);
    expect(traces.some((l) => l.includes('"quiet"') || l.includes('"after restart"'))).toBe(false);
    expect(r.stdout).toMatch(/restarted tool-examples-ts-notes-00000001 \(pid \d+\)/);
    expect(r.stdout).toContain('"text": "after restart"');
  });

  it("answers sampling from --mock-sampling inside the REPL", async () => {
    const script = [
      'invoke add_note {"text":"the weather is odd"}',
      "invoke summarize_notes {}",
    ].join("\n");
    const r = await runCli(
      ["executa", "dev", "--dir", NOTES, "--mock-sampling", `${FIXTURES}/sampling.jsonl`],
      { stdin: script + "\n" },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/services sampling=mock \(.*sampling\.jsonl\)/);
    expect(r.stdout).toContain('"summary": "sunny all week"');
  });

  it("a plugin that dies at start ends the REPL with exit 2 and its stderr", async () => {
    const r = await runCli(
      [
        "executa",
        "dev",
        "--spec",
        'tool_id=tool-dies,type=node,command=["node","-e","console.error(\'no config\');process.exit(4)"]',
      ],
      { stdin: "describe\n" },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: tool-dies did not start: .*no config/);
  });

  it("says when the plugin crashes and restarts, and keeps serving", async () => {
    const r = await runCli(["executa", "dev", "--dir", `${FIXTURES}/crashy`], {
      stdin: "invoke ok\ninvoke crash\ninvoke ok\n",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✗ crash error -32000 PROCESS_EXITED .*exited with code 7/);
    expect(r.stdout).toMatch(/✗ plugin exited unexpectedly: .*exited with code 7/);
    // The banner carries what the process warned about while starting.
    expect(r.stdout).toMatch(/^ {2}warning {2}plugin "tool-test-crashy" speaks protocol 1\.1/m);
    expect(r.stdout).toMatch(/↻ plugin restarting \(attempt 1\/3 in \d+ms\)/);
    const instances = [...r.stdout.matchAll(/"instance": "([0-9a-f-]+)"/g)].map((m) => m[1]);
    // ok, then ok on the restarted process: another process answered
    expect(instances).toHaveLength(2);
    expect(new Set(instances).size).toBe(2);
    expect(r.stderr).toContain("[plugin] crashing on purpose");
  });

  it("colours JSON answers when colour is on", async () => {
    const r = await runCli(["executa", "dev", "--dir", NOTES], {
      stdin: 'invoke echo {"text":"hue"}\n',
      env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
    });
    expect(r.code).toBe(0);
    // Keys cyan, strings green (ANSI 36 / 32).
    expect(r.stdout).toContain('\u001b[36m"text"\u001b[39m: \u001b[32m"hue"\u001b[39m');
  });
});
