// Runs a plugin in-process over a memory pair, with a plain RpcPeer playing the host.
import { RpcPeer, createMemoryPair } from "@anna-ai/jsonrpc";
import {
  StderrLogger,
  createPluginRuntime,
  type Plugin,
  type PluginRuntime,
} from "../../src/index.js";

export interface MemoryHost {
  host: RpcPeer;
  runtime: PluginRuntime;
  /** JSON log lines the plugin wrote. */
  logs: string[];
  invoke(
    tool: string,
    args?: Record<string, unknown>,
    context?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export function startPlugin(plugin: Plugin): MemoryHost {
  const [pluginSide, hostSide] = createMemoryPair();
  const logs: string[] = [];
  const runtime = createPluginRuntime(plugin, pluginSide, {
    logger: new StderrLogger({ level: "debug", write: (line) => void logs.push(line) }),
  });
  const host = new RpcPeer(hostSide, { name: "host", defaultTimeoutMs: 2_000 });
  runtime.start();
  host.start();
  return {
    host,
    runtime,
    logs,
    invoke: (tool, args = {}, context = {}) =>
      host.request<Record<string, unknown>>("invoke", {
        tool,
        name: tool,
        arguments: args,
        context,
      }),
    async close() {
      await host.close();
      await runtime.close();
    },
  };
}
