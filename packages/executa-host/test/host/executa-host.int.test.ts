import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { ExecutaHost } from "../../src/host/executa-host.js";
import { ExecutaHostError } from "../../src/process/errors.js";
import {
  eventually,
  expectGroupGone,
  FAST_TIMEOUTS,
  fixtureSpec,
  groupExists,
} from "../process/helpers.js";

const hosts: ExecutaHost[] = [];

function newHost(): ExecutaHost {
  const host = new ExecutaHost({ timeouts: FAST_TIMEOUTS, restart: { backoffBaseMs: 20 } });
  hosts.push(host);
  return host;
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

describe("ExecutaHost pool", () => {
  it("spawns one process per (user, tool_id) even under concurrent first calls", async () => {
    const host = newHost();
    const plugin = host.register(fixtureSpec("echo.mjs"), { userId: "alice" });
    const starts: number[] = [];
    plugin.on("state", (s) => s.state === "starting" && starts.push(1));
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => host.invoke("alice", "echo", "echo", { i })),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(starts).toHaveLength(1);
    expect(host.register(fixtureSpec("echo.mjs"), { userId: "alice" })).toBe(plugin);
  });

  it("keeps users apart: each user gets their own process", async () => {
    const host = newHost();
    host.register(fixtureSpec("echo.mjs"), { userId: "alice" });
    host.register(fixtureSpec("echo.mjs"), { userId: "bob" });
    await Promise.all([host.describe("alice", "echo"), host.describe("bob", "echo")]);
    const alice = host.get("alice", "echo")!;
    const bob = host.get("bob", "echo")!;
    expect(alice).not.toBe(bob);
    expect(alice.pid).toBeDefined();
    expect(alice.pid).not.toBe(bob.pid);
  });

  it("shuts every plugin down on close and refuses calls afterwards", async () => {
    const host = newHost();
    for (const user of ["a", "b", "c"]) host.register(fixtureSpec("echo.mjs"), { userId: user });
    host.register(fixtureSpec("ignore-sigterm.mjs"), { userId: "a" });
    await Promise.all(host.processes().map((p) => p.describe()));
    const pids = host.processes().map((p) => p.pid!);
    const started = Date.now();
    await host.close();
    // In parallel: the SIGTERM-ignoring one bounds the time, not the sum of all.
    expect(Date.now() - started).toBeLessThan(2_500);
    for (const pid of pids) expect(groupExists(pid)).toBe(false);
    expect(host.processes().every((p) => p.state === "stopped")).toBe(true);
    expect(() => host.invoke("a", "echo", "echo", {})).toThrow(ExecutaHostError);
  });

  it("rejects calls for plugins that were never registered", () => {
    const host = newHost();
    expect(() => host.invoke("u", "nope", "t", {})).toThrow(/plugin "nope" is not registered/);
  });

  it("restarts a plugin on request with a fresh process", async () => {
    const host = newHost();
    const plugin = host.register(fixtureSpec("echo.mjs"), { userId: "u" });
    await host.describe("u", "echo");
    const first = plugin.pid!;
    await host.restart("u", "echo");
    expect(plugin.state).toBe("ready");
    expect(plugin.pid).not.toBe(first);
    await expectGroupGone(first);
    expect((await host.health("u", "echo")).status).toBe("healthy");
  });

  it("unregisters a plugin by shutting it down", async () => {
    const host = newHost();
    const plugin = host.register(fixtureSpec("echo.mjs"), { userId: "u" });
    await plugin.describe();
    const pid = plugin.pid!;
    await host.unregister("u", "echo");
    expect(host.get("u", "echo")).toBeUndefined();
    expect(groupExists(pid)).toBe(false);
  });
});

const RUN_HOST = fileURLToPath(new URL("./fixtures/run-host.mjs", import.meta.url));

/** Starts the host script and resolves with the plugin pid it prints. */
async function startHostScript(
  args: string[],
): Promise<{ hostProcess: ChildProcess; pid: number; exited: Promise<unknown> }> {
  const hostProcess = spawn(process.execPath, [RUN_HOST, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => hostProcess.once("exit", resolve));
  onTestFinished(() => {
    if (hostProcess.exitCode === null && hostProcess.signalCode === null) {
      hostProcess.kill("SIGKILL");
    }
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    let stderr = "";
    const timer = setTimeout(() => reject(new Error("host script printed nothing")), 10_000);
    hostProcess.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    hostProcess.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf("\n");
      if (newline === -1) return;
      clearTimeout(timer);
      resolve(buffered.slice(0, newline));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`host script exited before printing: ${stderr}`));
    });
  });
  const { ok, pid } = JSON.parse(line) as { ok: boolean; pid: number };
  expect(ok).toBe(true);
  onTestFinished(() => {
    if (groupExists(pid)) process.kill(-pid, "SIGKILL");
  });
  return { hostProcess, pid, exited };
}

describe("no orphans when the host process dies", () => {
  it("the plugin exits on stdin EOF after the host is killed with SIGKILL", async () => {
    const { hostProcess, pid, exited } = await startHostScript(["echo.mjs"]);
    expect(groupExists(pid)).toBe(true);
    hostProcess.kill("SIGKILL");
    await exited;
    await eventually(() => !groupExists(pid), `plugin group ${pid} is gone`, 5_000);
  });

  it("the exit hook kills plugins that ignore EOF when the host calls process.exit", async () => {
    const { pid, exited } = await startHostScript(["ignore-sigterm.mjs", "exit"]);
    await exited;
    await eventually(() => !groupExists(pid), `plugin group ${pid} is gone`, 5_000);
  });
});
