// The turn runner against the fake OpenAI-compatible server (real HTTP, real wire format): text
// streamed out, parallel tool calls with their own timeouts, unknown tools, the step limit,
// cancellation mid-stream and mid-tool, capped outputs, and the exact events of types.ts.
import { describe, expect, it } from "vitest";
import { runTurn } from "../src/index.js";
import type { AgentTool, AssembledPrompt, TurnEvent } from "../src/index.js";
import { harness } from "./helpers.js";

const INPUT = { provider: "openai-compatible", model: "llama-test" } as const;

function prompt(tools: AgentTool[] = [], text = "hello"): AssembledPrompt {
  return {
    system: "You are a test.",
    messages: [{ role: "user", content: text }],
    tools,
    activatedApps: [],
    notices: [],
  };
}

function tool(
  name: string,
  execute: AgentTool["execute"],
  extra: Partial<AgentTool> = {},
): AgentTool {
  return {
    name,
    description: `the ${name} tool`,
    parameters: { type: "object", properties: { q: { type: "string" } } },
    source: { kind: "platform", family: "test" },
    execute,
    ...extra,
  };
}

function base(gateway: Awaited<ReturnType<typeof harness>>["gateway"]) {
  const events: TurnEvent[] = [];
  return {
    events,
    options: {
      turnId: "t1",
      conversationId: "c1",
      userId: "u1",
      gateway,
      signal: new AbortController().signal,
      emit: (e: TurnEvent) => {
        events.push(e);
      },
    },
  };
}

/** Resolves when `n` callers have arrived: proves calls overlap in time. */
function barrier(n: number, timeoutMs = 5_000): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    arrived += 1;
    if (arrived === n) open();
    await Promise.race([
      all,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`only ${arrived} of ${n} calls overlapped`)), timeoutMs),
      ),
    ]);
  };
}

describe("runTurn", () => {
  it("streams text deltas and ends completed with the step's usage", async () => {
    const { fake, gateway } = await harness(INPUT);
    fake.enqueue({ text: ["Hel", "lo"], usage: { inputTokens: 5, outputTokens: 2 } });
    const { events, options } = base(gateway);
    const outcome = await runTurn({ ...options, prompt: prompt() });
    expect(events.map((e) => e.type)).toEqual([
      "turn.started",
      "step.started",
      "text.delta",
      "text.delta",
      "step.finished",
      "turn.finished",
    ]);
    expect(events.filter((e) => e.type === "text.delta").map((e) => e.text)).toEqual(["Hel", "lo"]);
    expect(outcome).toEqual({
      status: "completed",
      steps: 1,
      usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
      messages: [{ role: "assistant", content: "Hello" }],
    });
    expect(events.at(-1)).toEqual({
      type: "turn.finished",
      status: "completed",
      usage: outcome.usage,
    });
  });

  it("runs the model's tool calls in parallel, sends their results back and sums usage per step", async () => {
    const { fake, gateway } = await harness(INPUT);
    fake.enqueue(
      {
        toolCalls: [
          { id: "call_a", name: "alpha", args: { q: "1" } },
          { id: "call_b", name: "beta", args: { q: "2" } },
        ],
        usage: { inputTokens: 10, outputTokens: 4 },
      },
      { text: "done", usage: { inputTokens: 20, outputTokens: 1 } },
    );
    const meet = barrier(2);
    const seen: unknown[] = [];
    const tools = [
      tool("alpha", async (input, ctx) => {
        seen.push({ input, turn: ctx.turnId, conv: ctx.conversationId, user: ctx.userId });
        await meet();
        return { output: { a: 1 } };
      }),
      tool("beta", async () => {
        await meet();
        return { output: "b" };
      }),
    ];
    const { events, options } = base(gateway);
    const outcome = await runTurn({ ...options, prompt: prompt(tools) });
    expect(outcome.status).toBe("completed");
    expect(outcome.steps).toBe(2);
    expect(outcome.usage).toEqual({ inputTokens: 30, outputTokens: 5, totalTokens: 35 });
    expect(seen).toEqual([{ input: { q: "1" }, turn: "t1", conv: "c1", user: "u1" }]);
    expect(outcome.messages).toEqual([
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "call_a", name: "alpha", input: { q: "1" } },
          { id: "call_b", name: "beta", input: { q: "2" } },
        ],
      },
      { role: "tool", toolCallId: "call_a", toolName: "alpha", output: { a: 1 } },
      { role: "tool", toolCallId: "call_b", toolName: "beta", output: "b" },
      { role: "assistant", content: "done" },
    ]);
    const calls = events.filter((e) => e.type === "tool.call");
    expect(calls).toEqual([
      expect.objectContaining({ callId: "call_a", name: "alpha", input: { q: "1" } }),
      expect.objectContaining({
        callId: "call_b",
        name: "beta",
        source: { kind: "platform", family: "test" },
      }),
    ]);
    expect(events.filter((e) => e.type === "step.finished").map((e) => e.step)).toEqual([1, 2]);
    // The second request carries both results as tool messages, with the tools declared.
    const second = fake.requests[1]?.body as {
      messages: { role: string; tool_call_id?: string; content?: string }[];
      tools: unknown[];
    };
    const toolMsgs = second.messages.filter((m) => m.role === "tool");
    expect(toolMsgs.map((m) => m.tool_call_id)).toEqual(["call_a", "call_b"]);
    expect(toolMsgs[0]?.content).toContain('"a":1');
    expect(second.tools).toHaveLength(2);
  });

  it("turns a timeout, a throw and an unknown tool into error results the model reads", async () => {
    const { fake, gateway } = await harness(INPUT);
    fake.enqueue(
      {
        toolCalls: [
          { id: "c1", name: "slow", args: {} },
          { id: "c2", name: "broken", args: {} },
          { id: "c3", name: "nonexistent", args: {} },
        ],
      },
      { text: "sorry" },
    );
    let slowSignal: AbortSignal | undefined;
    const tools = [
      tool(
        "slow",
        (_input, ctx) => {
          slowSignal = ctx.signal;
          return new Promise(() => {}); // never answers, ignores its signal
        },
        { timeoutMs: 50 },
      ),
      tool("broken", () => Promise.reject(new Error("disk on fire"))),
    ];
    const { events, options } = base(gateway);
    const outcome = await runTurn({ ...options, prompt: prompt(tools) });
    expect(outcome.status).toBe("completed");
    const results = events.filter((e) => e.type === "tool.result");
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    expect(byName.slow).toMatchObject({
      isError: true,
      output: { error: expect.stringContaining("within 50 ms") },
    });
    expect(byName.broken).toMatchObject({
      isError: true,
      output: { error: "tool 'broken' failed: disk on fire" },
    });
    expect(byName.nonexistent).toMatchObject({
      isError: true,
      output: { error: "no tool named 'nonexistent' in this turn; the tools are: slow, broken" },
    });
    expect(slowSignal?.aborted).toBe(true);
    expect(
      outcome.messages
        .filter((m) => m.role === "tool")
        .every((m) => m.role === "tool" && m.isError),
    ).toBe(true);
  });

  it("stops at the step limit after running the last step's tools", async () => {
    const { fake, gateway } = await harness(INPUT);
    fake.enqueue(
      { toolCalls: [{ id: "s1", name: "echo", args: { q: "1" } }] },
      { toolCalls: [{ id: "s2", name: "echo", args: { q: "2" } }] },
      { text: "never asked" },
    );
    let runs = 0;
    const { events, options } = base(gateway);
    const outcome = await runTurn({
      ...options,
      maxSteps: 2,
      prompt: prompt(
        [tool("echo", (input) => Promise.resolve({ output: input }), {})].map((t) => {
          const execute = t.execute;
          return {
            ...t,
            execute: (i: unknown, c: Parameters<typeof execute>[1]) => {
              runs += 1;
              return execute(i, c);
            },
          };
        }),
      ),
    });
    expect(outcome.status).toBe("step_limit");
    expect(outcome.steps).toBe(2);
    expect(runs).toBe(2);
    expect(fake.requests).toHaveLength(2);
    expect(outcome.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "s2" });
    expect(events.at(-1)).toMatchObject({
      type: "turn.finished",
      status: "step_limit",
      error: { code: "step_limit", message: expect.stringContaining("after 2 steps") },
    });
  });

  it("ends cancelled mid-stream, keeps the partial text and closes the provider's stream", async () => {
    const { fake, gateway } = await harness(INPUT);
    fake.enqueue({ text: ["partial "], stall: true });
    const controller = new AbortController();
    const { events, options } = base(gateway);
    const outcome = await runTurn({
      ...options,
      signal: controller.signal,
      prompt: prompt(),
      emit: (e) => {
        events.push(e);
        if (e.type === "text.delta") controller.abort();
      },
    });
    await fake.waitForStalledDisconnect();
    expect(outcome.status).toBe("cancelled");
    expect(outcome.messages).toEqual([{ role: "assistant", content: "partial " }]);
    expect(events.at(-1)).toEqual({
      type: "turn.finished",
      status: "cancelled",
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    });
  });

  it("aborts running tools on cancel without waiting for them, and answers every call", async () => {
    const { fake, gateway } = await harness(INPUT);
    fake.enqueue({ toolCalls: [{ id: "w1", name: "wait", args: {} }] });
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const tools = [
      tool("wait", (_i, ctx) => {
        toolSignal = ctx.signal;
        setTimeout(() => controller.abort(), 10);
        return new Promise(() => {});
      }),
    ];
    const { events, options } = base(gateway);
    const outcome = await runTurn({ ...options, signal: controller.signal, prompt: prompt(tools) });
    expect(outcome.status).toBe("cancelled");
    expect(toolSignal?.aborted).toBe(true);
    expect(outcome.messages.at(-1)).toMatchObject({
      role: "tool",
      toolCallId: "w1",
      isError: true,
      output: { error: "tool 'wait' was stopped: the turn was cancelled" },
    });
    expect(fake.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "turn.finished", status: "cancelled" });
  });

  it("caps a tool's output with a marker, in the event and in the message", async () => {
    const { fake, gateway } = await harness(INPUT);
    fake.enqueue({ toolCalls: [{ id: "big", name: "dump", args: {} }] }, { text: "ok" });
    const huge = "x".repeat(10_000);
    const { events, options } = base(gateway);
    const outcome = await runTurn({
      ...options,
      maxToolOutputBytes: 1_000,
      prompt: prompt([tool("dump", () => Promise.resolve({ output: huge }))]),
    });
    const result = events.find((e) => e.type === "tool.result");
    expect(result).toMatchObject({
      isError: false,
      output: { truncated: true, originalBytes: 10_002, limitBytes: 1_000 },
    });
    const output = (result as { output: { preview: string } }).output;
    expect(Buffer.byteLength(JSON.stringify(output))).toBeLessThanOrEqual(1_000);
    expect(outcome.messages[1]).toMatchObject({ role: "tool", output });
  });

  it("fails with the gateway's code when the provider answers an error", async () => {
    const { fake, gateway } = await harness({ ...INPUT, maxRetries: 0 });
    fake.enqueue({ error: { status: 400, message: "bad model" } });
    const { events, options } = base(gateway);
    const outcome = await runTurn({ ...options, prompt: prompt() });
    expect(outcome.status).toBe("failed");
    expect(outcome.error?.code).toBe("provider_error");
    expect(events.at(-1)).toMatchObject({
      type: "turn.finished",
      status: "failed",
      error: { code: "provider_error" },
    });
  });

  it("emits the prompt's notices after turn.started", async () => {
    const { gateway } = await harness(INPUT);
    const { events, options } = base(gateway);
    await runTurn({
      ...options,
      prompt: { ...prompt(), activatedApps: ["app_1"], notices: ["#notes is not installed"] },
    });
    expect(events.slice(0, 2)).toEqual([
      { type: "turn.started", turnId: "t1", conversationId: "c1", activatedApps: ["app_1"] },
      { type: "notice", message: "#notes is not installed" },
    ]);
  });
});
