import type { CallOptions } from "./args.js";
import type { AgentRunArgs, AgentSession, AgentSessionInfo, Json } from "./namespace-types.js";
import { RpcStream, type StreamRouter } from "./rpc-stream.js";

export type RawCall = (
  ns: string,
  method: string,
  args: Record<string, unknown>,
  opts?: CallOptions,
) => Promise<unknown>;

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * The session object of `anna.agent.session({...})` (L6986–L7016): the iframe holds only the
 * `app_session_uuid` (R104); every method sends it with the raw `agent.session.*` call.
 */
export function createAgentSession(
  call: RawCall,
  router: StreamRouter,
  created: AgentSessionInfo,
): AgentSession {
  let info = created;
  const uuid = created.app_session_uuid;
  const session: AgentSession = {
    appSessionUuid: uuid,
    get expiresAt() {
      return text(info.expires_at);
    },
    get maxLifetimeAt() {
      return text(info.max_lifetime_at);
    },
    get idleTtlSeconds() {
      return typeof info.idle_ttl_seconds === "number" ? info.idle_ttl_seconds : undefined;
    },
    get info() {
      return info;
    },
    run(args: AgentRunArgs | string, opts?: CallOptions) {
      const runArgs: Json = typeof args === "string" ? { content: args } : { ...args };
      runArgs["app_session_uuid"] = uuid;
      return new RpcStream<Json>(call("agent", "session.run", runArgs, opts), router);
    },
    cancel(runId: string, opts?: CallOptions) {
      return call(
        "agent",
        "session.cancel",
        { app_session_uuid: uuid, run_id: runId },
        opts,
      ) as ReturnType<AgentSession["cancel"]>;
    },
    history(args, opts) {
      return call(
        "agent",
        "session.history",
        { ...args, app_session_uuid: uuid },
        opts,
      ) as ReturnType<AgentSession["history"]>;
    },
    delete(opts?: CallOptions) {
      return call("agent", "session.delete", { app_session_uuid: uuid }, opts) as ReturnType<
        AgentSession["delete"]
      >;
    },
    async refresh(opts?: CallOptions) {
      const answer = (await call(
        "agent",
        "session.refresh",
        { app_session_uuid: uuid },
        opts,
      )) as Awaited<ReturnType<AgentSession["refresh"]>>;
      info = { ...info, ...answer };
      return answer;
    },
  };
  return session;
}
