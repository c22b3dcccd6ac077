// What the sandbox contains, tried for real with tight limits so the tries cannot hurt a small
// machine: a fork bomb stops at RLIMIT_NPROC, a memory hog dies at RLIMIT_AS and the pool starts
// a fresh process, and a SIGKILLed host takes its plugins with it (bubblewrap's PID namespace
// dies with its parent).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { ExecutaPool } from "../../src/index.js";
import {
  BWRAP,
  FAST,
  FIXTURES,
  SKIP_REASON,
  bwrapOptions,
  eventually,
  fixtureExecuta,
  isLive,
  processesWithEnv,
  reachableCopy,
  sandboxRoot,
} from "./sandbox-helpers.js";

const POOL_HOST = fileURLToPath(new URL("./fixtures/pool-host.mjs", import.meta.url));
const GIB = 1024 ** 3;

if (!BWRAP.usable) console.warn(`skipping sandbox containment tests: ${SKIP_REASON}`);

describe.skipIf(!BWRAP.usable)("what the sandbox contains", () => {
  it("stops a fork bomb at the process limit, and the plugin keeps answering", async () => {
    // Node itself needs a dozen threads (they count against RLIMIT_NPROC too).
    const limit = 48;
    const p = new ExecutaPool({
      sandbox: bwrapOptions(sandboxRoot(), { limits: { maxProcesses: limit } }),
      ...FAST,
    });
    onTestFinished(() => p.close());
    const executa = fixtureExecuta("node", "bomb");
    const outcome = await p.invoke("mallory", executa, "forkbomb", {});
    expect(outcome.ok).toBe(true);
    const result = (outcome as { data: { started: number; refused: string | null } }).data;
    expect(result.refused).toBe("EAGAIN");
    expect(result.started).toBeLessThan(limit);
    const after = await p.invoke("mallory", executa, "whoami", {});
    expect(after.ok).toBe(true);
  });

  it("kills a memory hog at the address-space limit and starts a fresh process for the next call", async () => {
    const p = new ExecutaPool({
      sandbox: bwrapOptions(sandboxRoot(), { limits: { addressSpaceBytes: 1.25 * GIB } }),
      ...FAST,
    });
    onTestFinished(() => p.close());
    const executa = fixtureExecuta("node", "hog");
    const before = p.pidOf("mallory", "hog");
    const outcome = await p.invoke("mallory", executa, "hog", {});
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).toMatch(/exit/i);
    expect(before).toBeUndefined();
    const next = await p.invoke("mallory", executa, "whoami", {});
    expect(next.ok).toBe(true);
  });

  it("leaves no plugin process behind when its host is SIGKILLed", async () => {
    const mark = randomUUID();
    const pluginDir = reachableCopy(path.join(FIXTURES, "node-plugin"));
    const host = spawn(process.execPath, [POOL_HOST, sandboxRoot(), mark, pluginDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    onTestFinished(() => {
      if (host.exitCode === null && host.signalCode === null) host.kill("SIGKILL");
      for (const pid of processesWithEnv("SANDBOX_MARK", mark)) process.kill(pid, "SIGKILL");
    });
    let stderr = "";
    host.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      host.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("\n")) resolve(stdout.trim());
      });
      host.once("exit", () =>
        reject(new Error(`the host exited before its plugin answered: ${stderr}`)),
      );
    });
    const started = JSON.parse(line) as { ok: boolean; pid: number };
    expect(started.ok).toBe(true);
    const plugin = processesWithEnv("SANDBOX_MARK", mark);
    expect(plugin.length).toBeGreaterThan(0);
    const exited = new Promise((resolve) => host.once("exit", resolve));
    host.kill("SIGKILL");
    await exited;
    await eventually(
      () => processesWithEnv("SANDBOX_MARK", mark).length === 0,
      `the plugin processes ${plugin.join(", ")} are gone`,
    );
    // bubblewrap itself is gone too (or a zombie waiting for a reaper, which holds nothing).
    expect(isLive(started.pid)).toBe(false);
  });
});
