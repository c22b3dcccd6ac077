// Agent sessions `agent/session.*` and `agent/complete` (T21, R31–R37, V2). Params arrive as
// validated by app-schema in either documented shape (V2); normalizeAgentSessionCreate() gives
// the service one. The service owns session state and the `app_session_uuid` → token cache.
import type {
  AgentCompleteParams,
  AgentCompleteResult,
  AgentFrame,
  AgentSessionCancelParams,
  AgentSessionCancelResult,
  AgentSessionCreateParams,
  AgentSessionCreateResult,
  AgentSessionDeleteParams,
  AgentSessionDeleteResult,
  AgentSessionHistoryParams,
  AgentSessionHistoryResult,
  AgentSessionListParams,
  AgentSessionListResult,
  AgentSessionRefreshParams,
  AgentSessionRefreshResult,
  AgentSessionRunParams,
  AgentSessionRunResult,
} from "@anna-ai/app-schema";
import type { AgentGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

type Ctx = ServiceContext<AgentGrant>;

/** Watches one run's frames as they are produced (the buffered result still has them all). */
export interface AgentRunObserver {
  /**
   * Each frame, in order; the result's `frames` start with exactly these. A `seq` or
   * `stream_id` inside is the producer's: the caller numbers its own stream. Must not throw:
   * it runs inside the run.
   */
  onFrame(frame: AgentFrame, runId: string): void;
}

export interface AgentService {
  sessionCreate(params: AgentSessionCreateParams, ctx: Ctx): Promise<AgentSessionCreateResult>;
  /**
   * Frames are buffered and returned in order; the router caps them per run (4096). A service
   * that produces frames over time also hands each to `live.onFrame` as it happens, so a
   * window's `rpc.stream` shows the answer while it is written; one that ignores `live` still
   * works, its caller sends the buffered frames at the end.
   */
  sessionRun(
    params: AgentSessionRunParams,
    ctx: Ctx,
    live?: AgentRunObserver,
  ): Promise<AgentSessionRunResult>;
  sessionCancel(params: AgentSessionCancelParams, ctx: Ctx): Promise<AgentSessionCancelResult>;
  sessionHistory(params: AgentSessionHistoryParams, ctx: Ctx): Promise<AgentSessionHistoryResult>;
  sessionList(params: AgentSessionListParams, ctx: Ctx): Promise<AgentSessionListResult>;
  sessionRefresh(params: AgentSessionRefreshParams, ctx: Ctx): Promise<AgentSessionRefreshResult>;
  /** Idempotent: an unknown uuid resolves OK (R36). */
  sessionDelete(params: AgentSessionDeleteParams, ctx: Ctx): Promise<AgentSessionDeleteResult>;
  /** Stateless single-turn completion on the sampling grant (R37). */
  complete(params: AgentCompleteParams, ctx: Ctx): Promise<AgentCompleteResult>;
}
