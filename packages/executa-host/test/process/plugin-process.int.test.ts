import { afterEach, describe, expect, it } from "vitest";
import type { RpcError } from "@anna-ai/jsonrpc";
import type { PluginEvents } from "../../src/process/events.js";
import type { InvokeOutcome } from "../../src/process/invoke.js";
import { PluginProcess } from "../../src/process/plugin-process.js";
import type { PluginProcessOptions } from "../../src/process/plugin-process.js";
import {
  expectGroupGone,
  FAST_TIMEOUTS,
  fixtureSpec,
  groupExists,
  nextEvent,
  waitForState,
} from "./helpers.js";

const open: PluginProcess[] = [];

function plugin(fixture: string, options: Partial<PluginProcessOptions> = {}): PluginProcess {
  const created = new PluginProcess({
    spec: fixtureSpec(fixture),
    userId: "u1",
    timeouts: FAST_TIMEOUTS,
    restart: { backoffBaseMs: 20 },
    ...options,
  });
  open.push(created);
  return created;
}

afterEach(async () => {
  const pids = open.map((p) => p.pid).filter((pid): pid is number => pid !== undefined);
  await Promise.all(open.splice(0).map((p) => p.close()));
  for (const pid of pids) expect(groupExists(pid)).toBe(false);
});

function rpcError(outcome: InvokeOutcome): RpcError {
  if (outcome.ok || outcome.kind !== "rpc_error") {
    throw new Error(`expected an rpc_error outcome, got ${JSON.stringify(outcome)}`);
  }
  return outcome.error;
}

function dataOf(outcome: InvokeOutcome): unknown {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
  return outcome.data;
}

function collect<K extends keyof PluginEvents>(p: PluginProcess, event: K): PluginEvents[K][] {
  const seen: PluginEvents[K][] = [];
  p.on(event, (payload) => seen.push(payload));
  return seen;
}

describe("PluginProcess with a well-behaved plugin", () => {
  it("starts lazily, negotiates v2 and sends the H9 invoke params", async () => {
    const echo = plugin("echo.mjs");
    expect(echo.state).toBe("idle");
    expect(echo.pid).toBeUndefined();
    const outcome = await echo.invoke("echo", { city: "Oslo" }, { credentials: { KEY: "k" } });
    expect(echo.state).toBe("ready");
    expect(echo.protocolVersion).toBe("2.0");
    const { params } = dataOf(outcome) as { params: Record<string, unknown> };
    expect(params.tool).toBe("echo");
    expect(params.name).toBe("echo");
    expect(params.arguments).toEqual({ city: "Oslo" });
    const context = params.context as Record<string, unknown>;
    expect(params.invoke_id).toMatch(/^[0-9a-f]{32}$/);
    expect(context.invoke_id).toBe(params.invoke_id);
    expect(context.plugin_name).toBe("echo");
    expect(context.credentials).toEqual({ KEY: "k" });
    expect(context.deadline_ms).toBeGreaterThan(Date.now());
    const pid = echo.pid!;
    await echo.close();
    expect(echo.state).toBe("stopped");
    await expectGroupGone(pid);
  });

  it("never sends null arguments or context", async () => {
    const echo = plugin("echo.mjs");
    const { params } = dataOf(await echo.invoke("echo", undefined)) as {
      params: Record<string, unknown>;
    };
    expect(params.arguments).toEqual({});
    expect(params.context).toBeTypeOf("object");
    expect(params.context).not.toBeNull();
    expect((params.context as Record<string, unknown>).credentials).toBeUndefined();
  });

  it("normalises success, tool failure, error frames and bare payloads", async () => {
    const echo = plugin("echo.mjs");
    const [failed, errored, bare] = await Promise.all([
      echo.invoke("fail", {}),
      echo.invoke("rpc_fail", {}),
      echo.invoke("bare", {}),
    ]);
    expect(failed).toMatchObject({ ok: false, kind: "tool_failed", error: "city not found" });
    expect(rpcError(errored).code).toBe(-32602);
    expect(rpcError(errored).message).toBe("missing argument: city");
    expect(bare).toMatchObject({ ok: true, data: { answer: 42 } });
    expect(bare.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("reads results sent through __file_transport (T2)", async () => {
    const echo = plugin("echo.mjs");
    const outcome = await echo.invoke("file_transport", { bytes: 3 * 1024 * 1024 });
    expect((dataOf(outcome) as string).length).toBe(3 * 1024 * 1024);
  });

  it("caches the manifest per process", async () => {
    const echo = plugin("echo.mjs");
    const frames = collect(echo, "frame");
    const first = await echo.describe();
    const second = await echo.describe();
    expect(second).toBe(first);
    expect(first.tools.find((t) => t.name === "slow")?.timeout).toBe(1);
    const describes = frames.filter(
      (f) => f.direction === "out" && "method" in f.message && f.message.method === "describe",
    );
    expect(describes).toHaveLength(1);
  });

  it("sends initialize first, with id 0 and protocolVersion 2.0", async () => {
    const echo = plugin("echo.mjs");
    const frames = collect(echo, "frame");
    await echo.describe();
    const first = frames.find((f) => f.direction === "out")?.message as unknown as Record<
      string,
      unknown
    >;
    expect(first.method).toBe("initialize");
    expect(first.id).toBe(0);
    const params = first.params as Record<string, unknown>;
    expect(params.protocolVersion).toBe("2.0");
    expect(params.clientInfo).toEqual(params.client_info);
    expect((params.capabilities as Record<string, unknown>).fileTransport).toBe(true);
  });

  it("serves concurrent invokes on one process, answered out of order", async () => {
    const ooo = plugin("out-of-order.mjs");
    const states = collect(ooo, "state");
    const outcomes = await Promise.all(
      ["a", "b", "c"].map((label) => ooo.invoke("hold", { label, count: 3 })),
    );
    expect(outcomes.map(dataOf)).toEqual([{ label: "a" }, { label: "b" }, { label: "c" }]);
    expect(states.filter((s) => s.state === "starting")).toHaveLength(1);
  });
});

describe("PluginProcess faults", () => {
  it("restarts a plugin that exits after one response on the next call, with a warning", async () => {
    const oneShot = plugin("exit-after-response.mjs");
    const warning = nextEvent(oneShot, "warning", (w) => w.code === "EXITS_AFTER_RESPONSE");
    expect(dataOf(await oneShot.invoke("echo", {}))).toEqual({ tool: "echo" });
    const firstPid = oneShot.pid!;
    expect((await warning).message).toContain("keep reading stdin until EOF");
    await waitForState(oneShot, "idle");
    await expectGroupGone(firstPid);
    expect(dataOf(await oneShot.invoke("echo", {}))).toEqual({ tool: "echo" });
    expect(oneShot.pid).not.toBe(firstPid);
  });

  it("explains a plugin that exits after its very first response", async () => {
    const oneShot = plugin("one-shot.mjs", { restart: { maxAttempts: 0 } });
    const warning = nextEvent(oneShot, "warning", (w) => w.code === "EXITS_AFTER_RESPONSE");
    const error = rpcError(await oneShot.invoke("echo", {}));
    expect(error.errorCode).toBe("PROCESS_EXITED");
    expect(error.message).toContain('plugin "one-shot" exited with code 0 while describe');
    expect(error.message).toContain("keep reading stdin until EOF (pitfall 1)");
    expect((await warning).message).toContain("pitfall 1");
  });

  it("fails every pending invoke with PROCESS_EXITED when the plugin crashes, then restarts it", async () => {
    const crashy = plugin("crash-mid-invoke.mjs");
    await crashy.describe();
    const pid = crashy.pid!;
    const restart = nextEvent(crashy, "restart");
    const waiting = crashy.invoke("wait", {});
    const crashing = crashy.invoke("crash", {});
    const [other, crashed] = (await Promise.all([waiting, crashing])).map(rpcError);
    for (const error of [other!, crashed!]) {
      expect(error.code).toBe(-32000);
      expect(error.errorCode).toBe("PROCESS_EXITED");
      expect(error.message).toContain('plugin "crash-mid-invoke"');
      expect(error.message).toContain("exited with code 3");
      expect(error.data).toMatchObject({ exitCode: 3, signal: null });
      expect((error.data as { stderrTail: string[] }).stderrTail).toContain(
        "fatal: segmentation fault (simulated)",
      );
    }
    expect(other!.message).toContain("tool wait");
    expect(await restart).toMatchObject({ attempt: 1, delayMs: 20 });
    await expectGroupGone(pid);
    const after = await crashy.invoke("echo", {});
    expect(after.ok).toBe(true);
    // The host's pid of the process: a plugin's own is 2 in every PID namespace (supervisor).
    expect(crashy.pid).not.toBe(pid);
  });

  it("holds invokes that arrive during the restart backoff until the new process is ready", async () => {
    const crashy = plugin("crash-mid-invoke.mjs", { restart: { backoffBaseMs: 150 } });
    await crashy.describe();
    const first = crashy.pid;
    const restarting = waitForState(crashy, "restarting");
    await crashy.invoke("crash", {});
    await restarting;
    expect(crashy.state).toBe("restarting");
    const outcome = await crashy.invoke("echo", {});
    expect(outcome.ok).toBe(true);
    expect(crashy.pid).not.toBe(first);
    expect(crashy.state).toBe("ready");
  });

  it("counts restarts per crash episode and resets the counter after healthy running", async () => {
    async function crashTwice(resetAfterMs: number): Promise<number[]> {
      const crashy = plugin("crash-mid-invoke.mjs", {
        restart: { backoffBaseMs: 10, resetAfterMs },
      });
      const restarts = collect(crashy, "restart");
      for (let i = 0; i < 2; i++) {
        await crashy.describe();
        const readyAgain = waitForState(crashy, "restarting").then(() =>
          waitForState(crashy, "ready"),
        );
        expect(rpcError(await crashy.invoke("crash", {})).errorCode).toBe("PROCESS_EXITED");
        await readyAgain;
      }
      return restarts.map((r) => r.attempt);
    }
    expect(await crashTwice(60_000)).toEqual([1, 2]);
    // The reset timer (0 ms) fires before the next crash can happen.
    expect(await crashTwice(0)).toEqual([1, 1]);
  });

  it("leaves no helper process behind when the plugin crashes", async () => {
    const parent = plugin("crash-with-helper.mjs", { restart: { maxAttempts: 0 } });
    const { helperPid } = dataOf(await parent.invoke("helper", {})) as { helperPid: number };
    const pid = parent.pid!;
    expect(groupExists(pid)).toBe(true);
    const stopped = waitForState(parent, "stopped");
    expect(rpcError(await parent.invoke("crash", {})).message).toContain("exited with code 7");
    await stopped;
    await expectGroupGone(pid);
    expect(helperPid).toBeGreaterThan(0);
  });

  it("stops a plugin that closes its stdout but keeps running", async () => {
    const mute = plugin("close-stdout.mjs");
    const warning = nextEvent(mute, "warning", (w) => w.code === "OUTPUT_CLOSED");
    const outcome = await mute.invoke("echo", {});
    const error = rpcError(outcome);
    expect(error.errorCode).toBe("PROCESS_EXITED");
    expect(error.message).toContain('plugin "close-stdout"');
    const pid = (error.data as { pid: number }).pid;
    expect((await warning).message).toContain("closed its stdout");
    await waitForState(mute, "idle");
    await expectGroupGone(pid);
  });

  it("times out a hung invoke, kills the process group and fails its other invokes", async () => {
    const hang = plugin("hang.mjs");
    await hang.describe();
    const pid = hang.pid!;
    const restarts = collect(hang, "restart");
    const exit = nextEvent(hang, "exit");
    const [timedOut, bystander] = await Promise.all([
      hang.invoke("hang", {}, { timeoutMs: 200 }),
      hang.invoke("hang", {}, { timeoutMs: 10_000 }),
    ]);
    const timeout = rpcError(timedOut);
    expect(timeout.code).toBe(-32000);
    expect(timeout.errorCode).toBe("TIMEOUT");
    expect(timeout.message).toBe('plugin "hang" tool hang timed out after 0.2 s');
    expect(rpcError(bystander).errorCode).toBe("PROCESS_EXITED");
    expect(rpcError(bystander).message).toContain('plugin "hang"');
    expect(await exit).toMatchObject({ hostInitiated: true, signal: "SIGTERM" });
    await expectGroupGone(pid);
    await waitForState(hang, "idle");
    expect(restarts).toHaveLength(0);
    await hang.describe();
    expect(hang.pid).not.toBe(pid);
    expect(hang.state).toBe("ready");
  });

  it("escalates to SIGKILL when the plugin ignores stdin EOF and SIGTERM", async () => {
    const stubborn = plugin("ignore-sigterm.mjs");
    await stubborn.describe();
    const pid = stubborn.pid!;
    const exit = nextEvent(stubborn, "exit");
    await stubborn.close();
    expect(await exit).toMatchObject({ signal: "SIGKILL", hostInitiated: true });
    expect(groupExists(pid)).toBe(false);
  });

  it("skips garbage on stdout without failing calls", async () => {
    const noisy = plugin("stdout-garbage.mjs");
    const warnings = collect(noisy, "warning");
    expect(dataOf(await noisy.invoke("echo", {}))).toEqual({ tool: "echo" });
    expect(dataOf(await noisy.invoke("echo", {}))).toEqual({ tool: "echo" });
    expect(warnings.some((w) => w.code === "DROPPED_LINE")).toBe(true);
    expect(noisy.state).toBe("ready");
  });

  it("survives a flood of stdout garbage with a bounded number of warnings", async () => {
    const noisy = plugin("stdout-garbage.mjs");
    const warnings = collect(noisy, "warning");
    expect(dataOf(await noisy.invoke("flood", {}))).toEqual({ tool: "flood" });
    const dropped = warnings.filter((w) => w.code === "DROPPED_LINE");
    expect(dropped.length).toBeGreaterThan(10);
    expect(dropped.length).toBeLessThan(120);
    expect(dropped.at(-1)?.message).toContain("lines skipped so far");
  });

  it("fails only the invoke whose reply is over the line limit and keeps the plugin", async () => {
    const big = plugin("oversized-line.mjs");
    await big.describe();
    const pid = big.pid;
    const [tooLarge, fine] = await Promise.all([
      // Bounded, so a transport that loses the id fails this test fast (as TIMEOUT).
      big.invoke("big", {}, { timeoutMs: 3_000 }),
      big.invoke("echo", {}),
    ]);
    const error = rpcError(tooLarge);
    expect(error.errorCode).toBe("FRAME_TOO_LARGE");
    expect(error.message).toContain('plugin "oversized-line" tool big');
    expect(dataOf(fine)).toEqual({ tool: "echo" });
    expect(dataOf(await big.invoke("echo", {}))).toEqual({ tool: "echo" });
    expect(big.pid).toBe(pid);
  });

  it("ignores unknown ids and malformed frames", async () => {
    const bad = plugin("bad-frames.mjs");
    const [a, b] = await Promise.all([bad.invoke("echo", {}), bad.invoke("echo", {})]);
    expect(dataOf(a)).toEqual({ tool: "echo" });
    expect(dataOf(b)).toEqual({ tool: "echo" });
    expect(bad.state).toBe("ready");
  });

  it("keeps a bounded stderr tail through a flood", async () => {
    const flood = plugin("stderr-flood.mjs");
    const lastLine = nextEvent(flood, "stderr", (e) => e.line === "last line");
    const outcome = await flood.invoke("flood", {});
    expect(dataOf(outcome)).toBe("flooded");
    await lastLine;
    const tail = flood.stderrTail();
    expect(tail).toHaveLength(200);
    expect(tail.at(-1)).toBe("last line");
    expect(Math.max(...tail.map((line) => line.length))).toBeLessThan(4200);
  });

  it("stops after the restart budget with the reason and the stderr tail", async () => {
    const doomed = plugin("crash-on-start.mjs");
    const restarts = collect(doomed, "restart");
    const first = await doomed.invoke("anything", {});
    expect(rpcError(first).errorCode).toBe("PROCESS_EXITED");
    expect(rpcError(first).message).toContain('plugin "crash-on-start"');
    const stopped = await waitForState(doomed, "stopped");
    expect(restarts.map((r) => r.delayMs)).toEqual([20, 40, 80]);
    expect(stopped.reason).toContain("gave up after 3 restart attempts");
    expect(stopped.reason).toContain("fatal: config file missing");
    const fast = await doomed.invoke("anything", {});
    const error = rpcError(fast);
    expect(error.errorCode).toBe("PLUGIN_STOPPED");
    expect(error.message).toContain('plugin "crash-on-start" is stopped');
    expect((error.data as { stderrTail: string[] }).stderrTail).toContain(
      "fatal: config file missing",
    );
  });

  it("explains a describe result wrapped in {manifest}", async () => {
    const wrapped = plugin("describe-wrapped.mjs", { restart: { maxAttempts: 0 } });
    const outcome = await wrapped.invoke("echo", {});
    const error = rpcError(outcome);
    expect(error.errorCode).toBe("INVALID_MANIFEST");
    expect(error.message).toContain('plugin "describe-wrapped"');
    expect(error.message).toContain("pitfall 5");
  });

  it("reports a command that cannot be spawned", async () => {
    const missing = new PluginProcess({
      spec: fixtureSpec("echo.mjs", { toolId: "ghost", command: ["/nonexistent/ghost-plugin"] }),
      userId: "u1",
      timeouts: FAST_TIMEOUTS,
    });
    open.push(missing);
    const error = rpcError(await missing.invoke("echo", {}));
    expect(error.errorCode).toBe("SPAWN_FAILED");
    expect(error.message).toContain('plugin "ghost" could not be started');
    expect(missing.state).toBe("stopped");
  });

  it("cancels an invoke through its AbortSignal", async () => {
    const hang = plugin("hang.mjs");
    await hang.describe();
    const controller = new AbortController();
    const pending = hang.invoke("hang", {}, { signal: controller.signal });
    controller.abort();
    const error = rpcError(await pending);
    expect(error.errorCode).toBe("ABORTED");
    expect(error.message).toContain('plugin "hang"');
  });
});
