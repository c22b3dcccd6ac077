import { afterEach, describe, expect, it } from "vitest";
import type { RpcError } from "@anna-ai/jsonrpc";
import { PluginProcess } from "../../src/process/plugin-process.js";
import type { PluginProcessOptions } from "../../src/process/plugin-process.js";
import type {
  RouterSession,
  RouterSessionFactory,
  PluginSessionInfo,
} from "../../src/router/contracts.js";
import { FAST_TIMEOUTS, fixtureSpec, groupExists, nextEvent } from "./helpers.js";

const open: PluginProcess[] = [];

function plugin(
  fixture: string,
  options: Partial<PluginProcessOptions> = {},
  specOverrides: Parameters<typeof fixtureSpec>[1] = {},
): PluginProcess {
  const created = new PluginProcess({
    spec: fixtureSpec(fixture, specOverrides),
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

describe("initialize fallback to v1.1 (H7)", () => {
  it("falls back when initialize answers -32601", async () => {
    const v1 = plugin("init-method-not-found.mjs");
    const fallback = nextEvent(v1, "warning", (w) => w.code === "PROTOCOL_FALLBACK");
    const outcome = await v1.invoke("echo", { x: 1 });
    expect(outcome.ok).toBe(true);
    expect(v1.protocolVersion).toBe("1.1");
    expect((await fallback).message).toContain("-32601");
  });

  it("falls back when initialize answers another error frame", async () => {
    const v1 = plugin("init-error.mjs");
    expect((await v1.invoke("echo", {})).ok).toBe(true);
    expect(v1.protocolVersion).toBe("1.1");
  });

  it("falls back when initialize times out", async () => {
    const v1 = plugin("init-silent.mjs", { timeouts: { ...FAST_TIMEOUTS, initializeMs: 150 } });
    expect((await v1.invoke("echo", {})).ok).toBe(true);
    expect(v1.protocolVersion).toBe("1.1");
  });
});

describe("describe timeouts", () => {
  it("gives a slow plugin the cold-start timeout on a binary's first start only", async () => {
    const slow = plugin(
      "slow-start.mjs",
      {
        timeouts: { ...FAST_TIMEOUTS, describeMs: 100, describeColdStartMs: 3_000 },
        restart: { maxAttempts: 0 },
      },
      { binaryColdStart: true },
    );
    expect((await slow.invoke("echo", {})).ok).toBe(true);
    await expect(slow.restart()).rejects.toMatchObject({ errorCode: "TIMEOUT" });
  });

  it("fails the start with a TIMEOUT naming the plugin when describe is too slow", async () => {
    const slow = plugin("slow-start.mjs", {
      timeouts: { ...FAST_TIMEOUTS, describeMs: 100 },
      restart: { maxAttempts: 0 },
    });
    const outcome = await slow.invoke("echo", {});
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: RpcError }).error;
    expect(error.errorCode).toBe("TIMEOUT");
    expect(error.message).toContain('plugin "slow-start" did not answer describe');
  });
});

describe("health (H8)", () => {
  it("maps the plugin's answers to healthy, starting and unhealthy", async () => {
    const echo = plugin("echo.mjs", { timeouts: { ...FAST_TIMEOUTS, healthMs: 200 } });
    expect((await echo.health()).status).toBe("healthy");
    const cases: Array<[unknown, string]> = [
      [{ status: "ok" }, "healthy"],
      [{ status: "healthy", timestamp: 1 }, "healthy"],
      [{ status: "initializing" }, "starting"],
      [{ status: "error", message: "db down" }, "unhealthy"],
      [{}, "healthy"],
      ["method_not_found", "healthy"],
      ["silent", "unhealthy"],
    ];
    for (const [answer, expected] of cases) {
      await echo.invoke("set_health", { answer });
      expect({ answer, status: (await echo.health()).status }).toEqual({
        answer,
        status: expected,
      });
    }
  });

  it("treats a v1 plugin's -32601 as healthy", async () => {
    const v1 = plugin("init-method-not-found.mjs");
    expect((await v1.health()).status).toBe("healthy");
  });

  it("reports unhealthy with the reason once stopped", async () => {
    const doomed = plugin("crash-on-start.mjs", { restart: { maxAttempts: 0 } });
    await doomed.invoke("x", {});
    const report = await doomed.health();
    expect(report.status).toBe("unhealthy");
    expect(report.detail).toContain("crash-on-start");
  });
});

describe("reverse requests", () => {
  it("refuses them with the family's NOT_NEGOTIATED code when no router is configured", async () => {
    const echo = plugin("echo.mjs");
    const outcome = await echo.invoke("ask", {});
    expect(outcome).toMatchObject({
      ok: true,
      data: { error: { code: -32008, data: { errorCode: "SAMPLING_NOT_NEGOTIATED" } } },
    });
  });

  it("routes them to the attached session and brackets each invoke", async () => {
    const calls: string[] = [];
    let attached: PluginSessionInfo | undefined;
    const session: RouterSession = {
      beginInvoke: (start) => {
        calls.push(`begin ${start.tool}`);
        return Promise.resolve({ sampling_token: `tok-${start.invokeId}` });
      },
      endInvoke: (invokeId) => calls.push(`end ${invokeId.length}`),
      handleRequest: (method, params) => {
        calls.push(`request ${method}`);
        const invokeId = (params as { context: { invoke_id: string } }).context.invoke_id;
        return Promise.resolve({ role: "assistant", content: { type: "text", text: invokeId } });
      },
      handleNotification: (method, params) =>
        calls.push(`notify ${method} ${JSON.stringify((params as { data: unknown }).data)}`),
      dispose: () => calls.push("dispose"),
    };
    const router: RouterSessionFactory = {
      attach: (info) => {
        attached = info;
        return session;
      },
    };
    const echo = plugin("echo.mjs", { router });
    const echoed = await echo.invoke("echo", {});
    const context = (echoed as { data: { params: { context: Record<string, unknown> } } }).data
      .params.context;
    expect(context.sampling_token).toBe(`tok-${String(context.invoke_id)}`);
    expect(attached).toMatchObject({
      toolId: "echo",
      userId: "u1",
      pluginName: "echo",
      protocolVersion: "2.0",
      hostCapabilities: ["llm.sample"],
      pluginCapabilities: { sampling: {} },
    });
    const asked = await echo.invoke("ask", {});
    expect(asked.ok).toBe(true);
    const answer = (asked as { data: { result: { content: { text: string } } } }).data.result;
    expect(answer.content.text).toMatch(/^[0-9a-f]{32}$/);
    expect((await echo.invoke("progress", {})).ok).toBe(true);
    await echo.close();
    expect(calls).toEqual([
      "begin echo",
      "end 32",
      "begin ask",
      "request sampling/createMessage",
      "end 32",
      "begin progress",
      'notify executa/progress {"pct":50}',
      "end 32",
      "dispose",
    ]);
  });
});

describe("environment", () => {
  it("starts the plugin with the user's env plus the spec's extras", async () => {
    const echo = plugin(
      "echo.mjs",
      { env: { PATH: process.env.PATH, USER_THING: "from-user", OVERRIDE: "user" } },
      { env: { OVERRIDE: "spec" } },
    );
    const read = async (name: string): Promise<unknown> =>
      ((await echo.invoke("env", { name })) as { data: { value: unknown } }).data.value;
    expect(await read("USER_THING")).toBe("from-user");
    expect(await read("OVERRIDE")).toBe("spec");
    expect(process.env.HOME).toBeDefined();
    expect(await read("HOME")).toBeNull();
  });
});
