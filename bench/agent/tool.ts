// Piece `tool`: what the runtime costs per tool call, the tool a real warm plugin process (the
// floor plugin, bench/host) in the `ExecutaPool`. Per sandbox mode ("none" with the operator's
// explicit allow; "bwrap" when the probe says it can run here, as the executor tests decide):
//   tool call alone      the plugin's `echo` through `ExecutaHost.invoke` (baseline: a host of
//                        our own, the same launcher), `ExecutaPool.invoke` (acquire, credentials,
//                        release) and the model-facing `AgentTool.execute` of `pool.toolsOf`.
//   turn with one call   the model asks for the tool, then answers. Baseline: two `streamText`
//                        calls to the same fake with the plugin invoked between them through
//                        `ExecutaHost.invoke`; ours: `runTurn` with the pool's tool.
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import {
  type AgentTool,
  ExecutaPool,
  runTurn,
  Sandbox,
  type SandboxOptions,
  type TurnEvent,
} from "@anna-ai/agent";
import { ExecutaHost } from "@anna-ai/executa-host";
import { jsonSchema, type ModelMessage, tool as sdkTool } from "ai";
import type { MeasureOptions } from "../nexus/measure.js";
import type { LatencyRow } from "./latency.js";
import { measureWithCpu } from "./measure-cpu.js";
import {
  benchGateway,
  benchPrompt,
  directModel,
  directStep,
  expectCompleted,
  USER_MESSAGES,
} from "./common.js";
import { floorPluginCopy } from "./plugin-copy.js";

const TOOL_ID = "bench-floor";
const ARGS = { text: "buy milk" };
/** The same minimal environment the pool gives every plugin. */
const PLUGIN_ENV = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" };

export async function toolPiece(o: MeasureOptions): Promise<LatencyRow[]> {
  const modes: SandboxOptions["mode"][] = ["none"];
  const plugin = floorPluginCopy(TOOL_ID);
  try {
    const probe = new Sandbox({ mode: "bwrap", root: plugin.sandboxRoot }).probe();
    if (probe.usable) modes.push("bwrap");
    else process.stderr.write(`tool piece: bwrap rows skipped: ${probe.reason}\n`);
    const rows: LatencyRow[] = [];
    for (const mode of modes) rows.push(...(await toolRows(mode, plugin, o)));
    return rows;
  } finally {
    plugin.remove();
  }
}

async function toolRows(
  mode: SandboxOptions["mode"],
  plugin: ReturnType<typeof floorPluginCopy>,
  o: MeasureOptions,
): Promise<LatencyRow[]> {
  const sandbox: SandboxOptions =
    mode === "none"
      ? { mode, root: plugin.sandboxRoot, allowUnsandboxed: true }
      : { mode, root: plugin.sandboxRoot };
  const executa = { spec: plugin.spec, trusted: false };
  const pool = new ExecutaPool({ sandbox });
  // The baseline host runs the plugin exactly as the pool's does (same launcher, same supervisor)
  // for another user, so the two never share a process.
  const host = new ExecutaHost({ supervisor: "auto" });
  const launcher = pool.sandbox.pluginLauncher("base", TOOL_ID, plugin.spec.dir);
  host.register(plugin.spec, {
    userId: "base",
    env: PLUGIN_ENV,
    ...(launcher === undefined ? {} : { launcher }),
  });
  const fake = await startFakeProvider({ recordRequests: false });
  try {
    const [agentTool] = (await pool.toolsOf("u1", executa)).filter((t) =>
      t.name.endsWith("echo"),
    ) as [AgentTool];
    const ctx = {
      userId: "u1",
      conversationId: "c1",
      turnId: "t0",
      signal: new AbortController().signal,
    };
    const hostEcho = async () => {
      const outcome = await host.invoke("base", TOOL_ID, "echo", ARGS);
      if (!outcome.ok) throw new Error(`ExecutaHost.invoke failed: ${JSON.stringify(outcome)}`);
      return outcome;
    };
    const poolEcho = async () => {
      const outcome = await pool.invoke("u1", executa, "echo", ARGS);
      if (!outcome.ok) throw new Error(`ExecutaPool.invoke failed: ${JSON.stringify(outcome)}`);
    };
    const toolEcho = async () => {
      const outcome = await agentTool.execute(ARGS, ctx);
      if (outcome.isError) throw new Error(`AgentTool.execute: ${JSON.stringify(outcome.output)}`);
    };
    // Warm: both processes spawned and answering before anything is timed.
    await hostEcho();
    await poolEcho();

    const gateway = benchGateway(fake.baseUrl);
    const model = directModel(fake.baseUrl);
    const prompt = benchPrompt([agentTool]);
    const sdkTools = {
      [agentTool.name]: sdkTool({
        description: agentTool.description ?? "",
        inputSchema: jsonSchema(agentTool.parameters as Parameters<typeof jsonSchema>[0]),
      }),
    };
    const script = () =>
      fake.enqueue(
        { toolCalls: [{ name: agentTool.name, args: ARGS }] },
        { text: ["Noted: ", "buy milk."] },
      );
    const directTurn = async () => {
      script();
      const first = await directStep(model, USER_MESSAGES, sdkTools);
      const call = first.toolCalls[0];
      if (call === undefined) throw new Error("the direct turn's model asked for no tool");
      const outcome = await hostEcho();
      const messages: ModelMessage[] = [
        ...USER_MESSAGES,
        { role: "assistant", content: [{ type: "tool-call", ...call }] },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              output: { type: "json", value: outcome.data as never },
            },
          ],
        },
      ];
      const second = await directStep(model, messages, sdkTools);
      if (second.text === "") throw new Error("the direct turn's second step returned no text");
    };
    let seq = 0;
    const ourTurn = async () => {
      script();
      const events: TurnEvent[] = [];
      const outcome = await runTurn({
        turnId: `t${++seq}`,
        conversationId: "c1",
        userId: "u1",
        prompt,
        gateway,
        signal: new AbortController().signal,
        emit: (e) => {
          events.push(e);
        },
      });
      expectCompleted("runTurn with a tool", outcome.status, outcome.error);
      if (outcome.steps !== 2) throw new Error(`expected 2 model calls, got ${outcome.steps}`);
    };
    const alone = `tool call alone (${mode})`;
    const turn = `turn with one tool call (${mode})`;
    return [
      ...(await measureWithCpu(
        alone,
        [
          { name: "ExecutaHost.invoke", op: hostEcho },
          { name: "ExecutaPool.invoke", baseline: "ExecutaHost.invoke", op: poolEcho },
          { name: "AgentTool.execute (pool)", baseline: "ExecutaHost.invoke", op: toolEcho },
        ],
        o,
      )),
      ...(await measureWithCpu(
        turn,
        [
          { name: "streamText ×2 + ExecutaHost.invoke", op: directTurn },
          {
            name: "runTurn + pool tool",
            baseline: "streamText ×2 + ExecutaHost.invoke",
            op: ourTurn,
          },
        ],
        o,
      )),
    ];
  } finally {
    await fake.close();
    await Promise.all([pool.close(), host.close()]);
  }
}
