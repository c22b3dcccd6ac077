// What the agent service answers about a `copilot_sessions` row: the fields of the offline
// service (the dev tools' reference, R32–R36) plus the Host API's (L10241, L10253, L10255), so a
// plugin, a window and `executa dev` read one shape. `thread_id` is the session's uuid, as the
// HTTP endpoints answer it (one conversation per session).
import type { AgentHistoryMessage, AgentSessionSummary, AgentSubmode } from "@anna-ai/app-schema";
import type { CopilotSessionRow } from "./copilot-session-store.js";

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => Math.max(0, Math.floor(ms / 1000));

/** The effective idle deadline: never past the hard one. */
const expiresAt = (row: CopilotSessionRow) => Math.min(row.expiresAt, row.maxLifetimeAt);

function submodeOf(row: CopilotSessionRow): AgentSubmode {
  return row.submode === "fixed" ? "fixed" : "auto";
}

export function createdView(row: CopilotSessionRow, now: number) {
  const granted = row.claims.granted_tools ?? ["*"];
  return {
    app_session_uuid: row.uuid,
    thread_id: row.uuid,
    kind: row.kind,
    agent_submode: submodeOf(row),
    submode: submodeOf(row),
    fixed_client_id: row.claims.fixed_client_id ?? null,
    system_prompt: row.claims.system_prompt ?? null,
    granted_tools: [...granted],
    inherit_host_tools: granted.includes("*"),
    label: row.label ?? "",
    expires_in: seconds(expiresAt(row) - now),
    expires_at: iso(expiresAt(row)),
    max_lifetime_at: iso(row.maxLifetimeAt),
  };
}

export function refreshedView(row: CopilotSessionRow, now: number, ttlSeconds: number) {
  return {
    app_session_uuid: row.uuid,
    thread_id: row.uuid,
    expires_in: seconds(expiresAt(row) - now),
    expires_at: iso(expiresAt(row)),
    submode: submodeOf(row),
    agent_submode: submodeOf(row),
    fixed_client_id: row.claims.fixed_client_id ?? null,
    max_lifetime_at: iso(row.maxLifetimeAt),
    idle_ttl_seconds: ttlSeconds,
    session_expires_in: seconds(row.maxLifetimeAt - now),
  };
}

export function summaryView(
  row: CopilotSessionRow,
  now: number,
  lastRunAt: number | undefined,
): AgentSessionSummary & Record<string, unknown> {
  return {
    app_session_uuid: row.uuid,
    kind: row.kind,
    submode: submodeOf(row),
    fixed_client_id: row.claims.fixed_client_id ?? null,
    label: row.label,
    thread_id: row.uuid,
    created_at: iso(row.createdAt),
    last_active_at: iso(lastRunAt ?? row.createdAt),
    expires_at: iso(expiresAt(row)),
    max_lifetime_at: iso(row.maxLifetimeAt),
    expired: now >= expiresAt(row),
  };
}

/** A stored message as `agent/session.history` answers it: MCP-shaped (R35). */
export function historyMessage(row: {
  role: string;
  content: string;
  run_id: string;
  created_at: number;
}): AgentHistoryMessage {
  return {
    role: row.role,
    content: { type: "text", text: row.content },
    run_id: row.run_id,
    created_at: iso(Number(row.created_at)),
  };
}
