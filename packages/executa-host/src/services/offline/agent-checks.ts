// Parameter checks of the offline agent service, with the codes the Reference's bridge and
// server produce (R32–R37): the bridge's own checks are -32043/-32041/-32044, values it forwards
// unchecked come back from the server as a 422, which surfaces as -32046 (L8767, L8774, L8802).
import {
  AGENT_HISTORY_LIMIT_DEFAULT,
  AGENT_RECURSION_LIMIT_DEFAULT,
  AGENT_SESSION_TTL_MAX_S,
  normalizeAgentSessionCreate,
} from "@anna-ai/app-schema";
import type {
  AgentCompleteParams,
  AgentSessionCreateParams,
  AgentSubmode,
} from "@anna-ai/app-schema";
import { AGENT_ERRORS } from "@anna-ai/app-schema/errors";
import type { AgentGrant } from "../grants.js";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import { isIntegerIn } from "../integer-range.js";

/** `label` length the server accepts (R32); longer is a 422, surfaced as -32046. */
export const AGENT_LABEL_MAX_CHARS = 120;
/** `recursion_limit` range the server accepts (`Field(ge=1, le=32)`, R33). */
export const AGENT_RECURSION_LIMIT_MAX = 32;
/** `history` page size range (R35), rejected (not clamped) outside. */
export const AGENT_HISTORY_LIMIT_MAX = 200;

/** Default 8; outside 1..32 the server answers 422, surfaced as -32046 (R33). */
export function checkRecursionLimit(value: number | null | undefined, method: string): number {
  const limit = value ?? AGENT_RECURSION_LIMIT_DEFAULT;
  if (!isIntegerIn(limit, 1, AGENT_RECURSION_LIMIT_MAX)) {
    throw catalogError(
      AGENT_ERRORS.PROVIDER_ERROR,
      `${method}: 'recursion_limit' must be an integer from 1 to ${AGENT_RECURSION_LIMIT_MAX} (the server answered 422)`,
      { status: 422, field: "recursion_limit" },
    );
  }
  return limit;
}

/** Default 50; the bridge rejects values outside 1..200 with -32043 instead of clamping (R35). */
export function checkHistoryLimit(value: number | null | undefined, method: string): number {
  const limit = value ?? AGENT_HISTORY_LIMIT_DEFAULT;
  if (!isIntegerIn(limit, 1, AGENT_HISTORY_LIMIT_MAX)) {
    throw catalogError(
      AGENT_ERRORS.INVALID_REQUEST,
      `${method}: 'limit' must be an integer from 1 to ${AGENT_HISTORY_LIMIT_MAX}, got ${String(limit)}`,
    );
  }
  return limit;
}

export interface CreateRequest {
  kind: string;
  submode: AgentSubmode;
  fixedClientId?: string;
  label: string;
  systemPrompt?: string;
  ttlSeconds: number;
  grantedTools: string[];
}

/** Both documented shapes (V2) to one request, with the bridge's and the server's checks (R32). */
export function checkCreate(
  params: AgentSessionCreateParams,
  ctx: ServiceContext<AgentGrant>,
  method: string,
): CreateRequest {
  const kind = params.kind ?? "agent";
  if (!["agent", "fixed", "complete"].includes(kind)) {
    throw catalogError(
      AGENT_ERRORS.INVALID_REQUEST,
      `${method}: 'kind' must be "agent" or "fixed", got ${JSON.stringify(kind)}`,
    );
  }
  const submode = params.agent_submode;
  if (submode !== undefined && submode !== null && submode !== "auto" && submode !== "fixed") {
    throw catalogError(
      AGENT_ERRORS.INVALID_REQUEST,
      `${method}: 'agent_submode' must be "auto" or "fixed", got ${JSON.stringify(submode)}`,
    );
  }
  if (kind === "fixed" && submode === "auto") {
    throw catalogError(
      AGENT_ERRORS.SUBMODE_MISMATCH,
      `${method}: kind "fixed" cannot run with agent_submode "auto"; drop agent_submode or use kind "agent"`,
    );
  }
  const request = normalizeAgentSessionCreate(params);
  if (request.submode === "fixed") {
    if (request.fixedClientId === undefined) {
      throw catalogError(
        AGENT_ERRORS.INVALID_REQUEST,
        `${method}: the fixed submode needs 'fixed_client_id' (the client_id of the tool to pin)`,
      );
    }
    const allowed = ctx.grant.allowedFixedClientIds ?? [];
    if (!allowed.includes(request.fixedClientId)) {
      throw catalogError(
        AGENT_ERRORS.NOT_GRANTED,
        `${method}: fixed_client_id '${request.fixedClientId}' is not in the user's allowed fixed clients`,
        { allowedFixedClientIds: [...allowed] },
      );
    }
  }
  const label = params.label ?? (ctx.pluginName !== "" ? ctx.pluginName : ctx.toolId);
  if ([...label].length > AGENT_LABEL_MAX_CHARS) {
    throw catalogError(
      AGENT_ERRORS.PROVIDER_ERROR,
      `${method}: 'label' is over ${AGENT_LABEL_MAX_CHARS} characters (the server answered 422)`,
      { status: 422, field: "label" },
    );
  }
  checkTtl(request.ttlSeconds, method);
  return {
    kind,
    submode: request.submode,
    ...(request.fixedClientId !== undefined ? { fixedClientId: request.fixedClientId } : {}),
    label,
    ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
    ttlSeconds: request.ttlSeconds,
    grantedTools: grantedTools(params, ctx.grant),
  };
}

/** `0 < ttl ≤ 7200`; the bridge does not check, so the server's 422 is -32046 (R32). */
export function checkTtl(ttl: number, method: string): void {
  if (!isIntegerIn(ttl, 1, AGENT_SESSION_TTL_MAX_S)) {
    throw catalogError(
      AGENT_ERRORS.PROVIDER_ERROR,
      `${method}: 'ttl_seconds' must be an integer with 0 < ttl_seconds ≤ ${AGENT_SESSION_TTL_MAX_S}, got ${String(ttl)} (the server answered 422)`,
      { status: 422, field: "ttl_seconds", max: AGENT_SESSION_TTL_MAX_S },
    );
  }
}

/**
 * `granted_tools` (R32): `["*"]` when the session inherits the host's tools (the default),
 * else the requested `allowed_tools`; both intersected with the user's whitelist when it has one.
 */
export function grantedTools(params: AgentSessionCreateParams, grant: AgentGrant): string[] {
  const whitelist =
    grant.grantedTools === undefined || grant.grantedTools.includes("*")
      ? undefined
      : [...grant.grantedTools];
  const caps = params.quota_caps;
  const inherit = caps?.inherit_host_tools ?? (caps?.allowed_tools ? false : true);
  if (inherit) return whitelist ?? ["*"];
  const requested = [...new Set(caps?.allowed_tools ?? [])];
  return whitelist === undefined ? requested : requested.filter((t) => whitelist.includes(t));
}

/**
 * The tools one run may use (R33): a per-run `allowed_tools` narrows a sandbox session's list
 * (`[]` means none) but not a session that inherits the host's tools (L10145).
 */
export function runTools(
  sessionTools: readonly string[],
  allowed: readonly string[] | null | undefined,
) {
  if (allowed === undefined || allowed === null || sessionTools.includes("*")) {
    return [...sessionTools];
  }
  return sessionTools.filter((tool) => allowed.includes(tool));
}

export function checkComplete(params: AgentCompleteParams, method: string): void {
  if (!Array.isArray(params.messages) || params.messages.length === 0) {
    throw catalogError(
      AGENT_ERRORS.INVALID_REQUEST,
      `${method}: 'messages' must be a non-empty list of {role, content}`,
    );
  }
  const maxTokens = params.maxTokens ?? params.max_tokens;
  if (
    maxTokens !== undefined &&
    maxTokens !== null &&
    (!Number.isInteger(maxTokens) || maxTokens <= 0)
  ) {
    throw catalogError(
      AGENT_ERRORS.INVALID_REQUEST,
      `${method}: 'maxTokens' must be a positive integer`,
    );
  }
}
