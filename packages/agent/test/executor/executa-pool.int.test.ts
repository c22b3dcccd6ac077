// The pool's rules: the refusal to run untrusted plugins unsandboxed unless the operator opts
// out, LRU eviction at the bound, idle eviction, and the executa's tools as AgentTools.
import { describe, expect, it, onTestFinished } from "vitest";
import {
  ExecutaPool,
  Sandbox,
  assemblePrompt,
  poolBinder,
  SandboxRefusedError,
  sandboxOptionsFromEnv,
  type ToolContext,
} from "../../src/index.js";
import {
  BWRAP,
  FAST,
  bwrapOptions,
  eventually,
  fixtureExecuta,
  sandboxRoot,
} from "./sandbox-helpers.js";

function ctx(userId: string): ToolContext {
  return { userId, conversationId: "c1", turnId: "t1", signal: new AbortController().signal };
}

describe("the sandbox policy", () => {
  it("refuses an untrusted plugin without a sandbox and says how to opt out", async () => {
    const p = new ExecutaPool({ sandbox: { mode: "none", root: sandboxRoot() }, ...FAST });
    onTestFinished(() => p.close());
    const refused = p.invoke("alice", fixtureExecuta("node", "probe"), "whoami", {});
    await expect(refused).rejects.toBeInstanceOf(SandboxRefusedError);
    await expect(refused).rejects.toThrow(/ANNA_SANDBOX=none ANNA_SANDBOX_ALLOW_UNSANDBOXED=1/);
    expect(p.size).toBe(0);
    expect(p.sandbox.startupNotice()).toMatch(/untrusted plugins and exec_\* are refused/);
  });

  it("runs a trusted plugin unsandboxed under mode none", async () => {
    const p = new ExecutaPool({ sandbox: { mode: "none", root: sandboxRoot() }, ...FAST });
    onTestFinished(() => p.close());
    const outcome = await p.invoke("alice", fixtureExecuta("node", "probe", true), "whoami", {});
    expect(outcome.ok).toBe(true);
  });

  it("runs an untrusted plugin unsandboxed only with the operator's explicit opt-out", async () => {
    const options = sandboxOptionsFromEnv(sandboxRoot(), {
      ANNA_SANDBOX: "none",
      ANNA_SANDBOX_ALLOW_UNSANDBOXED: "1",
    });
    const p = new ExecutaPool({ sandbox: options, ...FAST });
    onTestFinished(() => p.close());
    expect(p.sandbox.startupNotice()).toMatch(/OFF \(operator opt-out\)/);
    const outcome = await p.invoke("alice", fixtureExecuta("node", "probe"), "whoami", {});
    expect(outcome).toMatchObject({ ok: true });
    // Not in the sandbox: the server's own home, not the private one.
    expect((outcome as { data: { home: string } }).data.home).not.toBe("/home/sandbox");
  });

  it("refuses every plugin when bwrap is asked for but cannot run, naming why and the opt-out", async () => {
    const sandbox = new Sandbox({ mode: "bwrap", root: sandboxRoot() }, () => ({
      usable: false,
      reason: "bwrap is not on PATH (Debian/Ubuntu: apt install bubblewrap)",
    }));
    const p = new ExecutaPool({ sandbox, ...FAST });
    onTestFinished(() => p.close());
    await expect(
      p.invoke("alice", fixtureExecuta("node", "probe", true), "whoami", {}),
    ).rejects.toThrow(
      /bwrap sandbox cannot run here \(bwrap is not on PATH.*\); to run it without a sandbox anyway/,
    );
    expect(sandbox.startupNotice()).toMatch(/bwrap unusable, plugins are refused/);
  });

  it("rejects a bad ANNA_SANDBOX value with the values it takes", () => {
    expect(() => sandboxOptionsFromEnv("/srv/anna", { ANNA_SANDBOX: "docker" })).toThrow(
      "ANNA_SANDBOX=docker must be one of bwrap, none",
    );
  });
});

describe.skipIf(!BWRAP.usable)("the pool", () => {
  it("evicts the least recently used idle process at its bound", async () => {
    const p = new ExecutaPool({ sandbox: bwrapOptions(sandboxRoot()), maxProcesses: 2, ...FAST });
    onTestFinished(() => p.close());
    const executa = fixtureExecuta("node", "probe");
    await p.invoke("alice", executa, "whoami", {});
    await p.invoke("bob", executa, "whoami", {});
    await p.invoke("alice", executa, "whoami", {}); // alice is now the most recent
    await p.invoke("carol", executa, "whoami", {});
    expect(p.size).toBe(2);
    expect(p.pidOf("bob", "probe")).toBeUndefined();
    expect(p.pidOf("alice", "probe")).toBeDefined();
    expect(p.pidOf("carol", "probe")).toBeDefined();
  });

  it("refuses a new process while every one of them is busy, naming the bound", async () => {
    const p = new ExecutaPool({ sandbox: bwrapOptions(sandboxRoot()), maxProcesses: 1, ...FAST });
    onTestFinished(() => p.close());
    const executa = fixtureExecuta("node", "probe");
    await p.invoke("alice", executa, "whoami", {});
    const busy = p.invoke("alice", executa, "slow", {}); // held for its 1 s timeout
    await expect(p.invoke("bob", executa, "whoami", {})).rejects.toThrow(
      'cannot start plugin "probe": all 1 plugin processes are busy',
    );
    await busy;
    expect(await p.invoke("bob", executa, "whoami", {})).toMatchObject({ ok: true });
  });

  it("shuts a process down after it sat idle", async () => {
    const p = new ExecutaPool({ sandbox: bwrapOptions(sandboxRoot()), idleMs: 200, ...FAST });
    onTestFinished(() => p.close());
    await p.invoke("alice", fixtureExecuta("node", "probe"), "whoami", {});
    expect(p.size).toBe(1);
    await eventually(() => p.size === 0, "the idle process is evicted", 5_000);
  });

  it("gives the executa's tools as AgentTools with their declared timeouts", async () => {
    const p = new ExecutaPool({ sandbox: bwrapOptions(sandboxRoot()), ...FAST });
    onTestFinished(() => p.close());
    const tools = await p.toolsOf("alice", fixtureExecuta("node", "sandbox-probe"));
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const read = byName.get("sandbox-probe__read")!;
    expect(read.source).toEqual({ kind: "executa", toolId: "sandbox-probe", tool: "read" });
    expect(read.parameters).toMatchObject({
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
    });
    const slow = byName.get("sandbox-probe__slow")!;
    expect(slow.timeoutMs).toBe(1_000);
    const timedOut = await slow.execute({}, ctx("alice"));
    expect(timedOut.isError).toBe(true);
    expect(JSON.stringify(timedOut.output)).toMatch(/timed out|timeout/i);
    const me = await byName.get("sandbox-probe__whoami")!.execute({}, ctx("alice"));
    expect(me.isError).toBeUndefined();
    expect(me.output).toMatchObject({ home: "/home/sandbox" });
    const wrongUser = await read.execute({ path: "/etc/hostname" }, ctx("bob"));
    expect(wrongUser).toEqual({
      output: { error: 'this tool was built for user "alice", not "bob"' },
      isError: true,
    });
  });

  it("runs the tools prompt assembly names through the pool (poolBinder)", async () => {
    const p = new ExecutaPool({ sandbox: bwrapOptions(sandboxRoot()), ...FAST });
    onTestFinished(() => p.close());
    const executa = fixtureExecuta("node", "sandbox-probe");
    const manifest = executa.manifest ?? (await p.describe("alice", executa));
    const prompt = assemblePrompt({
      text: "who am I?",
      history: [],
      baseSystem: "You are Anna.",
      executas: [
        {
          toolId: "sandbox-probe",
          slug: "probe",
          name: "Probe",
          enabled: true,
          source: "user",
          manifest,
        },
      ],
      bindExecutaTool: poolBinder(p, "alice", new Map([["sandbox-probe", executa]])),
      apps: [],
    });
    const whoami = prompt.tools.find((tool) => tool.name === "probe__whoami");
    expect(whoami?.timeoutMs).toBeGreaterThan(0);
    const me = await whoami!.execute({}, ctx("alice"));
    expect(me.output).toMatchObject({ home: "/home/sandbox" });
    const missing = poolBinder(
      p,
      "alice",
      new Map(),
    )({
      toolId: "gone",
      tool: "whoami",
      definition: manifest.tools[0]!,
    });
    expect(await missing({}, ctx("alice"))).toEqual({
      output: { error: "executa gone is not installed for this user" },
      isError: true,
    });
  });
});
