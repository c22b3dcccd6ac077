import { describe, expect, it } from "vitest";
import {
  FINISHED_INVOKES_REMEMBERED,
  ReverseRpcRouter,
} from "../../src/router/reverse-rpc-router.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import { NEVER, ctx, expectRpcError, harness, invokeStart, sessionInfo } from "./helpers.js";

describe("invoke lifecycle", () => {
  it("fails beginInvoke when the grant policy fails, so the invoke fails instead of running ungated", async () => {
    const router = new ReverseRpcRouter({
      services: createRecordingServices(),
      grants: {
        isGranted: () => Promise.reject(new Error("grant store unreachable")),
      },
    });
    const session = router.attach(sessionInfo());
    await expect(session.beginInvoke(invokeStart("inv-1"))).rejects.toThrow(
      "grant store unreachable",
    );
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k", ...ctx("inv-1") }, NEVER),
      -32602,
      "UNKNOWN_INVOKE_CONTEXT",
    );
  });

  it("aborts the signal of reverse calls still running when their invoke ends or the plugin goes", async () => {
    const seen: AbortSignal[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let bothCalled!: () => void;
    const called = new Promise<void>((resolve) => (bothCalled = resolve));
    const services = createRecordingServices({
      respond: async (call) => {
        seen.push(call.ctx.signal);
        if (seen.length === 2) bothCalled();
        await gate;
        return undefined;
      },
    });
    const { session } = harness({ services });
    await session.beginInvoke(invokeStart("inv-1"));
    await session.beginInvoke(invokeStart("inv-2"));
    const first = session.handleRequest("storage/get", { key: "k", ...ctx("inv-1") }, NEVER);
    const second = session.handleRequest("storage/get", { key: "k", ...ctx("inv-2") }, NEVER);
    await called;
    session.endInvoke("inv-1");
    expect(seen.map((s) => s.aborted)).toEqual([true, false]);
    session.dispose();
    expect(seen.map((s) => s.aborted)).toEqual([true, true]);
    release();
    await Promise.all([first, second]);
  });

  it("aborts the service signal when the request's own signal aborts", async () => {
    let signal: AbortSignal | undefined;
    const { session } = harness({
      services: createRecordingServices({
        respond: (call) => {
          signal = call.ctx.signal;
          return undefined;
        },
      }),
    });
    await session.beginInvoke(invokeStart("inv-1"));
    const request = new AbortController();
    await session.handleRequest("storage/get", { key: "k" }, request.signal);
    expect(signal?.aborted).toBe(false);
    request.abort();
    expect(signal?.aborted).toBe(true);
  });

  it(`forgets the oldest finished invoke after ${FINISHED_INVOKES_REMEMBERED}, still refusing it`, async () => {
    const { session } = harness();
    for (let i = 0; i <= FINISHED_INVOKES_REMEMBERED; i++) session.endInvoke(`old-${i}`);
    await session.beginInvoke(invokeStart("live"));
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k", ...ctx("old-0") }, NEVER),
      -32602,
      "UNKNOWN_INVOKE_CONTEXT",
      /is not an active invoke/,
    );
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k", ...ctx("old-1") }, NEVER),
      -32602,
      "UNKNOWN_INVOKE_CONTEXT",
      /has already finished/,
    );
  });

  it("does not activate an invoke that ended while beginInvoke was still asking for grants", async () => {
    let answer!: () => void;
    const asked = new Promise<void>((resolve) => (answer = resolve));
    const router = new ReverseRpcRouter({
      services: createRecordingServices(),
      grants: { isGranted: async () => (await asked, {}) },
    });
    const session = router.attach(sessionInfo({ hostCapabilities: ["aps.kv"] }));
    const begun = session.beginInvoke(invokeStart("inv-1"));
    session.endInvoke("inv-1");
    answer();
    await begun;
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k" }, NEVER),
      -32021,
      "STORAGE_NOT_GRANTED",
      /outside any invoke/,
    );
  });

  it("keeps sessions of different plugin processes apart", async () => {
    const services = createRecordingServices();
    const router = new ReverseRpcRouter({
      services,
      grants: { isGranted: () => ({}) },
    });
    const a = router.attach(sessionInfo({ toolId: "tool-a" }));
    const b = router.attach(sessionInfo({ toolId: "tool-b" }));
    await a.beginInvoke(invokeStart("inv-a"));
    await b.beginInvoke(invokeStart("inv-b"));
    await expectRpcError(
      b.handleRequest("storage/get", { key: "k", ...ctx("inv-a") }, NEVER),
      -32602,
      "UNKNOWN_INVOKE_CONTEXT",
    );
    await b.handleRequest("storage/get", { key: "k" }, NEVER);
    expect(services.calls.map((c) => [c.ctx.toolId, c.ctx.invokeId])).toEqual([
      ["tool-b", "inv-b"],
    ]);
  });
});
