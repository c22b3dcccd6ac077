// exec_run and exec_run_commands for real: shell commands in the user's workspace inside the
// bubblewrap sandbox, per-user isolation, output caps, timeouts and the workspace boundary.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  EXEC_MAX_OUTPUT_BYTES,
  Sandbox,
  execTools,
  fsTools,
  type AgentTool,
  type ToolContext,
} from "../../src/index.js";
import { BWRAP, SKIP_REASON, bwrapOptions, sandboxRoot, serverDataDir } from "./sandbox-helpers.js";

if (!BWRAP.usable) console.warn(`skipping exec_* sandbox tests: ${SKIP_REASON}`);

function ctx(userId: string, signal = new AbortController().signal): ToolContext {
  return { userId, conversationId: "c1", turnId: "t1", signal };
}

function tools(root: string): { run: AgentTool; runCommands: AgentTool } {
  const [run, runCommands] = execTools(new Sandbox(bwrapOptions(root)));
  return { run: run!, runCommands: runCommands! };
}

type RunOutput = {
  exit_code: number | null;
  stdout: string;
  stderr: string;
  timed_out?: boolean;
  truncated_bytes?: { stdout: number; stderr: number };
};

describe("exec_* input checks", () => {
  it("refuses a cwd outside the workspace, naming the folder it must be in", async () => {
    const { run } = tools(sandboxRoot());
    const outcome = await run.execute({ command: "pwd", cwd: "../../etc" }, ctx("alice"));
    expect(outcome).toEqual({
      output: {
        error: {
          code: "PATH_OUTSIDE_WORKSPACE",
          message: 'cwd "../../etc" leaves the workspace; give a folder inside /workspace',
        },
      },
      isError: true,
    });
  });

  it("refuses without a sandbox unless the operator opted out", async () => {
    const [run] = execTools(new Sandbox({ mode: "none", root: sandboxRoot() }));
    const outcome = await run!.execute({ command: "id" }, ctx("alice"));
    expect(outcome.isError).toBe(true);
    expect(JSON.stringify(outcome.output)).toMatch(/refusing to run exec_run without a sandbox/);
    expect(outcome.output).toMatchObject({ error: { code: "NOT_CONFIGURED" } });
  });

  it("names each bad argument and what it should be", async () => {
    const { run, runCommands } = tools(sandboxRoot());
    const blank = await run.execute({ command: "  " }, ctx("alice"));
    expect(blank.isError).toBe(true);
    expect(JSON.stringify(blank.output)).toContain(
      "command: must be a non-empty string with the shell command to run",
    );
    const slow = await run.execute({ command: "id", timeout_ms: 0 }, ctx("alice"));
    expect(JSON.stringify(slow.output)).toContain("timeout_ms: expected a whole number from 1 to");
    const none = await runCommands.execute({ commands: [] }, ctx("alice"));
    expect(JSON.stringify(none.output)).toContain("commands: must be a list of 1 to 20");
    const extra = await run.execute({ command: "id", shell: "bash" }, ctx("alice"));
    expect(extra.isError).toBe(true);
    expect(JSON.stringify(extra.output)).toContain("shell");
  });
});

describe.skipIf(!BWRAP.usable)("exec_* in the sandbox", () => {
  it("runs a command in the user's workspace, whose files persist on the server", async () => {
    const root = sandboxRoot();
    const { run } = tools(root);
    const outcome = await run.execute(
      { command: "pwd && echo hello > greeting.txt && cat greeting.txt" },
      ctx("alice"),
    );
    expect(outcome.isError).toBe(false);
    expect((outcome.output as RunOutput).stdout).toBe("/workspace\nhello\n");
    const workspaces = path.join(root, "workspaces");
    const [alice] = readdirSync(workspaces);
    expect(readFileSync(path.join(workspaces, alice!, "greeting.txt"), "utf8")).toBe("hello\n");
  });

  it("does not show one user's workspace to another, nor the server's data", async () => {
    const root = sandboxRoot();
    const server = serverDataDir();
    const { run } = tools(root);
    await run.execute({ command: "echo secret > mine.txt" }, ctx("alice"));
    const bob = await run.execute(
      { command: `ls /workspace; cat ${server.secret}; ls ${root}` },
      ctx("bob"),
    );
    const output = bob.output as RunOutput;
    expect(output.stdout).toBe("");
    expect(output.stderr).toContain("No such file or directory");
    expect(output.stderr).not.toContain("server secret");
    expect(bob.isError).toBe(true);
  });

  it("caps what a command prints and says how much was dropped", async () => {
    const { run } = tools(sandboxRoot());
    const outcome = await run.execute(
      { command: "head -c 200000 /dev/zero | tr '\\0' a" },
      ctx("alice"),
    );
    const output = outcome.output as RunOutput;
    expect(output.stdout.length).toBe(EXEC_MAX_OUTPUT_BYTES);
    expect(output.truncated_bytes).toEqual({ stdout: 200_000 - EXEC_MAX_OUTPUT_BYTES, stderr: 0 });
  });

  it("kills a command past its timeout, children included", async () => {
    const { run } = tools(sandboxRoot());
    const started = Date.now();
    const outcome = await run.execute(
      { command: "sleep 30 & sleep 30", timeout_ms: 300 },
      ctx("alice"),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome.isError).toBe(true);
    expect(outcome.output).toMatchObject({ timed_out: true, signal: "SIGKILL" });
  });

  it("kills the command when the turn is cancelled", async () => {
    const { run } = tools(sandboxRoot());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const outcome = await run.execute({ command: "sleep 30" }, ctx("alice", controller.signal));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome).toMatchObject({
      isError: true,
      output: { signal: "SIGKILL", cancelled: true },
    });
  });

  it("stops at the first failing command unless asked to go on", async () => {
    const { runCommands } = tools(sandboxRoot());
    const stopped = await runCommands.execute(
      { commands: ["echo one", "false", "echo three"] },
      ctx("alice"),
    );
    expect(stopped.isError).toBe(true);
    expect(stopped.output).toMatchObject({ ran: 2, of: 3 });
    const all = await runCommands.execute(
      { commands: ["echo one", "false", "echo three"], stop_on_error: false },
      ctx("alice"),
    );
    expect(all.output).toMatchObject({
      ran: 3,
      results: [{ stdout: "one\n" }, { exit_code: 1 }, { stdout: "three\n" }],
    });
  });
});

describe.skipIf(!BWRAP.usable)("fs_* beside exec_*", () => {
  it("work on the same workspace, and what fs_* create the sandbox may change", async () => {
    const root = sandboxRoot();
    const sandbox = new Sandbox(bwrapOptions(root));
    const [run] = execTools(sandbox);
    const fs = new Map(
      fsTools({ workspaceRoot: path.join(root, "unused"), shared: sandbox.sharedWorkspaces() }).map(
        (t) => [t.name, t],
      ),
    );
    const alice = ctx("alice");
    const wrote = await fs
      .get("fs_write_file")!
      .execute({ path: "notes/todo.md", content: "one\n" }, alice);
    expect(wrote.isError).toBeUndefined();
    const appended = await run!.execute(
      {
        command: "cat notes/todo.md && echo two >> notes/todo.md && mkdir -p out && echo x > out/f",
      },
      alice,
    );
    expect(appended.isError, JSON.stringify(appended.output)).toBe(false);
    expect((appended.output as RunOutput).stdout).toBe("one\n");
    const read = await fs.get("fs_read_file")!.execute({ path: "notes/todo.md" }, alice);
    expect(JSON.stringify(read.output)).toContain("one\\ntwo\\n");
    const made = await fs.get("fs_read_file")!.execute({ path: "out/f" }, alice);
    expect(JSON.stringify(made.output)).toContain("x\\n");
    // Bob's workspace is another folder: he sees none of it.
    const bob = await run!.execute({ command: "ls" }, ctx("bob"));
    expect((bob.output as RunOutput).stdout).toBe("");
  });
});
