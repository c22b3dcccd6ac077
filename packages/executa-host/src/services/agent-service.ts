// Agent sessions `agent/session.*` and `agent/complete` (T21, R31–R37, V2). Params arrive as
// validated by app-schema in either documented shape (V2); normalizeAgentSessionCreate() gives
// the service one. The service owns session state and the `app_session_uuid` → token cache.
import type {
  AgentCompleteParams,
  AgentCompleteResult,
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

export interface AgentService {
  sessionCreate(params: AgentSessionCreateParams, ctx: Ctx): Promise<AgentSessionCreateResult>;
  /** Frames are buffered and returned in order; the router caps them per run (4096). */
  sessionRun(params: AgentSessionRunParams, ctx: Ctx): Promise<AgentSessionRunResult>;
  sessionCancel(params: AgentSessionCancelParams, ctx: Ctx): Promise<AgentSessionCancelResult>;
  sessionHistory(params: AgentSessionHistoryParams, ctx: Ctx): Promise<AgentSessionHistoryResult>;
  sessionList(params: AgentSessionListParams, ctx: Ctx): Promise<AgentSessionListResult>;
  sessionRefresh(params: AgentSessionRefreshParams, ctx: Ctx): Promise<AgentSessionRefreshResult>;
  /** Idempotent: an unknown uuid resolves OK (R36). */
  sessionDelete(params: AgentSessionDeleteParams, ctx: Ctx): Promise<AgentSessionDeleteResult>;
  /** Stateless single-turn completion on the sampling grant (R37). */
  complete(params: AgentCompleteParams, ctx: Ctx): Promise<AgentCompleteResult>;
}
