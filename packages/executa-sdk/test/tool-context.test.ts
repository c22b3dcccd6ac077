import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, type ToolContext } from "../src/index.js";
import { startPlugin, type MemoryHost } from "./helpers/memory-host.js";

/** A handler that hands its ctx to the test and waits until the test releases it. */
function capturePlugin() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let gotCtx!: (ctx: ToolContext) => void;
  const ctxPromise = new Promise<ToolContext>((resolve) => (gotCtx = resolve));
  const plugin = definePlugin({
    manifest: { name: "ctx", version: "1.0.0", description: "ctx" },
    tools: {
      hold: {
        description: "Holds the invoke open.",
        parameters: {},
        handler: async (_args, ctx) => {
          gotCtx(ctx);
          await released;
          return "done";
        },
      },
    },
  });
  return { plugin, ctxPromise, release };
}

function waitForAbort(signal: AbortSignal, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve(signal.reason);
    const timer = setTimeout(
      () => reject(new Error(`signal not aborted within ${timeoutMs} ms`)),
      timeoutMs,
    );
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(signal.reason);
    });
  });
}

let running: MemoryHost | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  delete process.env.CTX_TEST_KEY;
});

describe("ToolContext", () => {
  it("reads credentials from the invoke context first, then the environment", async () => {
    const { plugin, ctxPromise, release } = capturePlugin();
    running = startPlugin(plugin);
    process.env.CTX_TEST_KEY = "from-env";
    process.env.CTX_OTHER_KEY = "env-only";
    const done = running.invoke(
      "hold",
      {},
      { credentials: { CTX_TEST_KEY: "from-context", BAD: 3 } },
    );
    const ctx = await ctxPromise;
    expect(ctx.credential("CTX_TEST_KEY")).toBe("from-context");
    expect(ctx.credential("CTX_OTHER_KEY")).toBe("env-only");
    expect(ctx.credential("CTX_MISSING_KEY")).toBeUndefined();
    expect(ctx.credentials).toEqual({ CTX_TEST_KEY: "from-context" });
    delete process.env.CTX_OTHER_KEY;
    release();
    await done;
  });

  it("counts remainingMs down to the deadline and never below zero", async () => {
    const { plugin, ctxPromise, release } = capturePlugin();
    running = startPlugin(plugin);
    const deadline = Date.now() + 30_000;
    const done = running.invoke("hold", {}, { deadline_ms: deadline });
    const ctx = await ctxPromise;
    expect(ctx.deadlineMs).toBe(deadline);
    expect(ctx.remainingMs()).toBeGreaterThan(25_000);
    expect(ctx.remainingMs()).toBeLessThanOrEqual(30_000);
    release();
    await done;
  });

  it("reports an infinite remainingMs without a deadline, and zero once it passed", async () => {
    const first = capturePlugin();
    running = startPlugin(first.plugin);
    const done = running.invoke("hold", {}, { deadline_ms: 0 });
    expect((await first.ctxPromise).remainingMs()).toBe(Number.POSITIVE_INFINITY);
    first.release();
    await done;
    await running.close();

    const second = capturePlugin();
    running = startPlugin(second.plugin);
    const late = running.invoke("hold", {}, { deadline_ms: Date.now() - 1_000 });
    const ctx = await second.ctxPromise;
    expect(ctx.remainingMs()).toBe(0);
    expect(ctx.signal.aborted).toBe(true);
    second.release();
    await late;
  });

  it("aborts the signal at the deadline", async () => {
    const { plugin, ctxPromise, release } = capturePlugin();
    running = startPlugin(plugin);
    const done = running.invoke("hold", {}, { deadline_ms: Date.now() + 50 });
    const ctx = await ctxPromise;
    expect(ctx.signal.aborted).toBe(false);
    await waitForAbort(ctx.signal, 1_000);
    release();
    await done;
  });

  it("aborts the signal when the runtime closes", async () => {
    const { plugin, ctxPromise, release } = capturePlugin();
    running = startPlugin(plugin);
    void running.invoke("hold").catch(() => undefined);
    const ctx = await ctxPromise;
    const signal = ctx.signal;
    await running.runtime.close();
    await waitForAbort(signal, 1_000);
    release();
  });

  it("logs JSON lines tagged with the invoke and masks credential values", async () => {
    const { plugin, ctxPromise, release } = capturePlugin();
    running = startPlugin(plugin);
    const done = running.invoke(
      "hold",
      {},
      { invoke_id: "inv-9", credentials: { API_KEY: "sk-supersecret" } },
    );
    const ctx = await ctxPromise;
    ctx.log.info("calling with sk-supersecret", { header: "Bearer sk-supersecret", api_key: "x" });
    release();
    await done;
    const line = running.logs.find((l) => l.includes("calling with"));
    expect(line).toBeDefined();
    const record = JSON.parse(line as string) as Record<string, unknown>;
    expect(record).toMatchObject({
      level: "info",
      tool: "hold",
      invoke_id: "inv-9",
      api_key: "[REDACTED]",
    });
    expect(line).not.toContain("sk-supersecret");
  });

  it("sends progress as an executa/progress notification carrying context.invoke_id", async () => {
    const { plugin, ctxPromise, release } = capturePlugin();
    running = startPlugin(plugin);
    const received = new Promise<unknown>((resolve) =>
      running?.host.onNotification("executa/progress", resolve),
    );
    const done = running.invoke("hold", {}, { invoke_id: "inv-p" });
    const ctx = await ctxPromise;
    ctx.progress("tool_update", { step: 1, total: 3 });
    expect(await received).toEqual({
      type: "tool_update",
      data: { step: 1, total: 3 },
      context: { invoke_id: "inv-p" },
      metadata: { executa_invoke_id: "inv-p", tool: "hold" },
    });
    release();
    await done;
  });
});
