// Piece `tool`: what the runtime costs per tool call, the tool a real warm plugin process (the
// floor plugin, bench/host) in the `ExecutaPool`. Per sandbox mode ("none" with the operator's
// explicit allow; "bwrap" when the probe says it can run here, as the executor tests decide):
//   tool call alone      the plugin's `echo` through `ExecutaHost.invoke` (baseline: a host of
//                        our own, the same launcher), `ExecutaPool.invoke` (acquire, credentials,
//                        release) and the model-facing `AgentTool.execute` of `pool.toolsOf`.
//   turn with one call   the model asks for the tool, then answers. Baseline: two `streamText`
//                        calls to the same fake with the plugin invoked between them through
//                        `ExecutaHost.invoke`; ours: `runTurn` with the pool's tool.
// First, once: the same turn with a tool answering in this process, the loop's share alone.
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { type AgentTool, ExecutaPool, Sandbox, type SandboxOptions } from "@anna-ai/agent";
import { ExecutaHost } from "@anna-ai/executa-host";
import type { MeasureOptions } from "../nexus/measure.js";
import type { LatencyRow } from "./latency.js";
import { measureWithCpu } from "./measure-cpu.js";
import { floorPluginCopy } from "./plugin-copy.js";
import { TOOL_ARGS as ARGS, toolTurnRows } from "./tool-turn.js";

const TOOL_ID = "bench-floor";
/** The same minimal environment the pool gives every plugin. */
const PLUGIN_ENV = { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" };

export async function toolPiece(o: MeasureOptions): Promise<LatencyRow[]> {
  const modes: SandboxOptions["mode"][] = ["none"];
  const plugin = floorPluginCopy(TOOL_ID);
  try {
    const probe = new Sandbox({ mode: "bwrap", root: plugin.sandboxRoot }).probe();
    if (probe.usable) modes.push("bwrap");
    else process.stderr.write(`tool piece: bwrap rows skipped: ${probe.reason}\n`);
    const rows = await inProcessRows(o);
    for (const mode of modes) rows.push(...(await toolRows(mode, plugin, o)));
    return rows;
  } finally {
    plugin.remove();
  }
}

/**
 * The same turn with a tool that answers in this process: the loop's own cost for a turn with a
 * tool call (two model calls, the tool's timeout and abort wiring, the output bound), without any
 * plugin, so the groups below can be read as this plus the plugin's path.
 */
async function inProcessRows(o: MeasureOptions): Promise<LatencyRow[]> {
  const fake = await startFakeProvider({ recordRequests: false });
  try {
    const echo: AgentTool = {
      name: "echo",
      description: "Echo the arguments.",
      parameters: { type: "object", properties: { text: { type: "string" } } },
      source: { kind: "platform", family: "bench" },
      execute: (input) => Promise.resolve({ output: input }),
    };
    return await toolTurnRows(
      "turn with one tool call (in process)",
      { direct: "streamText ×2 + a function", ours: "runTurn + in-process tool" },
      fake,
      echo,
      () => Promise.resolve(ARGS),
      o,
    );
  } finally {
    await fake.close();
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
      ...(await toolTurnRows(
        turn,
        { direct: "streamText ×2 + ExecutaHost.invoke", ours: "runTurn + pool tool" },
        fake,
        agentTool,
        async () => (await hostEcho()).data,
        o,
      )),
    ];
  } finally {
    await fake.close();
    await Promise.all([pool.close(), host.close()]);
  }
}
