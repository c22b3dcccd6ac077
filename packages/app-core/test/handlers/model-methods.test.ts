import {
  createOfflineAgentService,
  createOfflineEmbeddingsService,
  createOfflineSamplingService,
} from "@anna-ai/executa-host";
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import { RpcError } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import type { ToolHost } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const services = () => ({
  sampling: createOfflineSamplingService({ mode: "mock" }),
  agent: createOfflineAgentService({ mode: "mock" }),
  embeddings: createOfflineEmbeddingsService({ mode: "synthetic" }),
});

function streamFrames(events: AnnaAppEvent[], streamId: string, timeoutMs = 2000) {
  return new Promise<Record<string, unknown>[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no terminal rpc.stream frame")), timeoutMs);
    const check = () => {
      const frames = events
        .filter((e) => e.kind === "rpc.stream")
        .map((e) => e.payload as Record<string, unknown>)
        .filter((p) => p.stream_id === streamId);
      if (frames.some((f) => f.done === true)) {
        clearTimeout(timer);
        resolve(frames);
      } else setImmediate(check);
    };
    check();
  });
}

describe("llm.* and agent.* on the executa dev offline services", () => {
  it("llm.complete answers through the sampling service", async () => {
    const { dispatcher, token } = await openDispatcher(
      { llm: ["complete"] },
      { services: services() },
    );
    const out = await dispatcher.call(token, "llm", "complete", {
      messages: [{ role: "user", content: { type: "text", text: "hello" } }],
      maxTokens: 64,
    });
    expect(out).toMatchObject({
      ok: true,
      result: { role: "assistant", content: { type: "text" } },
    });
    expect(await dispatcher.call(token, "llm", "complete", { messages: [] })).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
    expect(await dispatcher.call(token, "llm", "embed", { input: "x" })).toMatchObject({
      ok: false,
      error: { code: "permission_denied" },
    });
  });

  it("llm.stream answers a stream id, then model_token frames and a terminal complete frame", async () => {
    const { dispatcher, token, wid } = await openDispatcher(
      { llm: ["stream"] },
      { services: services() },
    );
    const events: AnnaAppEvent[] = [];
    dispatcher.events.subscribe({ userId: dispatcher.userId, windowUuid: wid }, (e) =>
      events.push(e),
    );
    const out = await dispatcher.call(token, "llm", "stream", {
      messages: [{ role: "user", content: "tell me" }],
    });
    if (!out.ok) throw new Error(out.error.message);
    const streamId = (out.result as { stream_id: string }).stream_id;
    const frames = await streamFrames(events, streamId);
    expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i));
    expect(frames.at(-1)).toMatchObject({
      done: true,
      payload: { event: "complete", role: "assistant" },
    });
  });

  it("llm.embed returns vectors", async () => {
    const { dispatcher, token } = await openDispatcher(
      { llm: ["embed"] },
      { services: services() },
    );
    expect(await dispatcher.call(token, "llm", "embed", { input: ["a", "b"] })).toMatchObject({
      ok: true,
      result: { data: [{ index: 0 }, { index: 1 }] },
    });
  });

  it("answers llm_disabled for llm.* and agent.* under --no-llm (A7)", async () => {
    const { dispatcher, token } = await openDispatcher(
      { llm: ["*"], agent: { session: { auto: true } } },
      { services: services(), llm: "off" },
    );
    expect(
      await dispatcher.call(token, "llm", "complete", {
        messages: [{ role: "user", content: "x" }],
      }),
    ).toMatchObject({ ok: false, error: { code: "llm_disabled" } });
    expect(
      await dispatcher.call(token, "agent", "session.create", { submode: "auto" }),
    ).toMatchObject({
      ok: false,
      error: { code: "llm_disabled" },
    });
  });

  it("agent sessions respect the submode grant and stream a run ending in `end`", async () => {
    const { dispatcher, token, wid } = await openDispatcher(
      { agent: { session: { auto: true } } },
      { services: services() },
    );
    expect(
      await dispatcher.call(token, "agent", "session.create", {
        submode: "fixed",
        fixed_client_id: "d",
      }),
    ).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    const created = await dispatcher.call(token, "agent", "session.create", { submode: "auto" });
    if (!created.ok) throw new Error(created.error.message);
    const uuid = (created.result as { app_session_uuid: string }).app_session_uuid;
    const events: AnnaAppEvent[] = [];
    dispatcher.events.subscribe({ userId: dispatcher.userId, windowUuid: wid }, (e) =>
      events.push(e),
    );
    const run = await dispatcher.call(token, "agent", "session.run", {
      app_session_uuid: uuid,
      content: "plan my day",
    });
    if (!run.ok) throw new Error(run.error.message);
    const { stream_id, run_id } = run.result as { stream_id: string; run_id: string };
    const frames = await streamFrames(events, stream_id);
    expect(frames.at(-1)).toMatchObject({ done: true, payload: { event: "end", run_id } });
    expect(
      await dispatcher.call(token, "agent", "session.run", {
        app_session_uuid: uuid,
        content: "  ",
      }),
    ).toMatchObject({ ok: false, error: { code: "invalid_arg" } });
    expect(
      await dispatcher.call(token, "agent", "session.delete", { app_session_uuid: uuid }),
    ).toMatchObject({
      ok: true,
    });
  });
});

describe("tools.invoke outcomes from the pool", () => {
  function fakeHost(
    outcome: Awaited<ReturnType<ToolHost["invoke"]>>,
  ): ToolHost & { seen: unknown[] } {
    const seen: unknown[] = [];
    return {
      seen,
      invoke: (_u, toolId, tool, args, options) => {
        seen.push({ toolId, tool, args, timeoutMs: options?.timeoutMs });
        return Promise.resolve(outcome);
      },
      get: () => ({ manifest: { tools: [{ name: "slow", timeout: 30 }] } }),
    };
  }
  const TOOL = "tool-examples-ts-notes-00000001";

  it("maps a plugin timeout to tool_timeout with the effective and requested timeouts", async () => {
    const host = fakeHost({
      ok: false,
      kind: "rpc_error",
      error: new RpcError(-32003, "timed out", { errorCode: "TIMEOUT" }),
      durationMs: 1,
    });
    const { dispatcher, token } = await openDispatcher({ tools: ["required:*"] }, { host });
    const out = await dispatcher.call(token, "tools", "invoke", {
      tool_id: TOOL,
      method: "slow",
      timeoutMs: 200_000,
    });
    expect(out).toMatchObject({
      ok: false,
      error: {
        code: "tool_timeout",
        details: { timeout_ms: 90_000, requested_timeout_ms: 200_000, max_timeout_ms: 90_000 },
      },
    });
    await dispatcher.call(token, "tools", "invoke", { tool_id: TOOL, method: "slow" });
    expect(host.seen.map((s) => (s as { timeoutMs: number }).timeoutMs)).toEqual([90_000, 30_000]);
  });

  it("maps a crashed plugin to executa_unavailable and wraps a non-object payload", async () => {
    const crashed = fakeHost({
      ok: false,
      kind: "rpc_error",
      error: new RpcError(-32000, "plugin exited", { errorCode: "PROCESS_EXITED" }),
      durationMs: 1,
    });
    const a = await openDispatcher({ tools: ["required:*"] }, { host: crashed });
    expect(
      await a.dispatcher.call(a.token, "tools", "invoke", { tool_id: TOOL, method: "x" }),
    ).toMatchObject({ ok: false, error: { code: "executa_unavailable" } });
    const scalar = fakeHost({ ok: true, data: 42, durationMs: 1, raw: {} });
    const b = await openDispatcher({ tools: ["required:*"] }, { host: scalar });
    expect(
      await b.dispatcher.call(b.token, "tools", "invoke", { tool_id: TOOL, method: "x" }),
    ).toEqual({
      ok: true,
      result: { result: 42 },
    });
  });
});
