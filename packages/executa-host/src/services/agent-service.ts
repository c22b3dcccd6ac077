// Agent sessions `agent/session.*` and `agent/complete` (T21, R31–R37, V2). Params are passed as
// the plugin sent them (both the SDK shape with `kind` and the Reference shape are valid, V2);
// the service owns session state and the `app_session_uuid` → token cache.
import type { AgentGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

export type AgentParams = Record<string, unknown>;

export interface AgentSessionCreateResult {
  /** `aps_…`; the only handle the plugin ever sees (V2). */
  app_session_uuid: string;
  thread_id: string;
  agent_submode?: string;
  granted_tools?: string[];
  expires_in?: number;
  [key: string]: unknown;
}

export interface AgentFrame {
  event: string;
  [key: string]: unknown;
}

export interface AgentSessionRunResult {
  run_id: string;
  /** Buffered, in order; the router caps their number per run (4096). */
  frames: AgentFrame[];
  final?: unknown;
  [key: string]: unknown;
}

export type AgentResult = Record<string, unknown>;

type Call<R> = (params: AgentParams, ctx: ServiceContext<AgentGrant>) => Promise<R>;

export interface AgentService {
  sessionCreate: Call<AgentSessionCreateResult>;
  sessionRun: Call<AgentSessionRunResult>;
  sessionCancel: Call<AgentResult>;
  sessionHistory: Call<AgentResult>;
  sessionList: Call<AgentResult>;
  sessionRefresh: Call<AgentResult>;
  /** Idempotent: an unknown uuid resolves OK (R36). */
  sessionDelete: Call<AgentResult>;
  /** Stateless single-turn completion (R37). */
  complete: Call<AgentResult>;
}
