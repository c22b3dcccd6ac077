import { HOST_API_METHOD_SPELLINGS, HOST_API_METHODS } from "@anna-ai/app-schema";
import { type CallOptions, normaliseArgs } from "./args.js";
import { createAgentSession } from "./agent-session.js";
import type { EventHub } from "./event-hub.js";
import type { AgentSessionInfo, InvokeAsyncAwaitOptions, Json } from "./namespace-types.js";
import { invokeAsyncAwait } from "./invoke-async-await.js";
import { RpcStream, type StreamRouter } from "./rpc-stream.js";
import { resolveBundledToolId } from "./tool-ids.js";
import { unwrapToolResult } from "./tool-result.js";

/** The bridge call: `args` already normalised, resolves with the wire `result`. */
export type RawCall = (
  ns: string,
  method: string,
  args: Record<string, unknown>,
  opts?: CallOptions,
) => Promise<unknown>;

/** `tools.*` methods whose `tool_id` may be written `bundled:<handle>`. */
const TOOL_ID_METHODS: ReadonlySet<string> = new Set(["invoke", "invokeAsync", "listJobs"]);

/**
 * One Host API call with the SDK's semantics on top of the wire: `bundled:<handle>` tool ids are
 * resolved through `window.__ANNA_TOOL_IDS__`, and `tools.invoke` resolves with the plugin's
 * payload (A4). Used by the namespace proxies and by the generic `call(ns, method, args)`.
 */
export async function callHostApi(
  raw: RawCall,
  ns: string,
  method: string,
  args: Record<string, unknown>,
  opts?: CallOptions,
): Promise<unknown> {
  const spelled = HOST_API_METHOD_SPELLINGS[`${ns}.${method}`] ?? method;
  let wireArgs = args;
  if (ns === "tools" && TOOL_ID_METHODS.has(spelled) && "tool_id" in args) {
    wireArgs = { ...args, tool_id: resolveBundledToolId(args["tool_id"]) };
  }
  const result = await raw(ns, spelled, wireArgs, opts);
  return ns === "tools" && spelled === "invoke" ? unwrapToolResult(result) : result;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if ((typeof next === "object" || typeof next === "function") && next !== null) {
      node = next as Record<string, unknown>;
    } else {
      const child: Record<string, unknown> = {};
      node[part] = child;
      node = child;
    }
  }
  const last = parts[parts.length - 1];
  if (last !== undefined) {
    const existing = node[last];
    // A helper already sits here (`llm.stream` answers with a stream): it wins over the raw call.
    if (typeof existing === "function" && typeof value === "function") return;
    node[last] = value;
  }
}

export interface NamespaceContext {
  raw: RawCall;
  router: StreamRouter;
  hub: EventHub;
}

/**
 * Build every namespace proxy from the Host API method table (`HOST_API_METHODS` in
 * `@anna-ai/app-schema`): one function per method, dotted methods nested (`agent.session.create`,
 * `apps.deck.list`), plus the SDK helpers the guide documents on top.
 */
export function buildNamespaces(
  context: NamespaceContext,
): Record<string, Record<string, unknown>> {
  const { raw, router, hub } = context;
  const call = (
    ns: string,
    method: string,
    args: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<unknown> => callHostApi(raw, ns, method, args, opts);
  const method =
    (ns: string, name: string) =>
    (...callArgs: unknown[]): Promise<unknown> => {
      try {
        const { args, opts } = normaliseArgs(ns, name, callArgs);
        return call(ns, name, args, opts);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    };

  const namespaces: Record<string, Record<string, unknown>> = {};
  // Helpers first, so the generic pass adds the raw methods around them.
  // `agent.session` is the helper function; the table's `session.*` methods hang off it.
  const session = async (args: Json, opts?: CallOptions) => {
    const info = (await call("agent", "session.create", args, opts)) as AgentSessionInfo;
    return createAgentSession(call, router, info);
  };
  namespaces["agent"] = {
    session,
    refresh: method("agent", "session.refresh"),
    list: method("agent", "session.list"),
  };
  namespaces["llm"] = {
    stream: (args: Json = {}, opts?: CallOptions) =>
      new RpcStream(call("llm", "stream", args, opts), router),
  };
  namespaces["tools"] = {
    invokeAsyncAwait: (args: Json, opts?: InvokeAsyncAwaitOptions) =>
      invokeAsyncAwait(call, hub, args, opts),
    onChanged: (handler: (payload: unknown) => void) => hub.on("tools.changed", handler),
  };

  for (const [ns, methods] of Object.entries(HOST_API_METHODS)) {
    const target = (namespaces[ns] ??= {});
    for (const name of methods as readonly string[]) setPath(target, name, method(ns, name));
  }
  for (const alias of Object.keys(HOST_API_METHOD_SPELLINGS)) {
    const [ns, name] = alias.split(".");
    if (ns !== undefined && name !== undefined) (namespaces[ns] ??= {})[name] = method(ns, name);
  }
  return namespaces;
}
