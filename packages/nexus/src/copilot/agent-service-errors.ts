// The agent family's wire errors (-32041…-32048, R38) for what the copilot pieces under the agent
// service throw in their own vocabulary: AgentRuns' NexusErrors (limits), the sampling service's
// catalog errors (`agent/complete` rides on it). Each keeps what it wrapped in `data` and as
// `cause`, so nothing a plugin could act on is lost.
import { AGENT_ERRORS, type CatalogEntry } from "@anna-ai/app-schema/errors";
import { catalogError } from "@anna-ai/executa-host";
import { RpcError } from "@anna-ai/jsonrpc";
import { NexusError } from "../core/errors.js";

/** The agent entry a sampling (or any family's) error code maps to, by its suffix. */
const BY_SUFFIX: readonly [string, CatalogEntry][] = [
  ["_NOT_GRANTED", AGENT_ERRORS.NOT_GRANTED],
  ["_NOT_NEGOTIATED", AGENT_ERRORS.NOT_GRANTED],
  ["_USER_DENIED", AGENT_ERRORS.NOT_GRANTED],
  ["_QUOTA_EXCEEDED", AGENT_ERRORS.QUOTA_EXCEEDED],
  ["_MAX_CALLS_EXCEEDED", AGENT_ERRORS.QUOTA_EXCEEDED],
  ["_MAX_TOKENS_EXCEEDED", AGENT_ERRORS.QUOTA_EXCEEDED],
  ["_INVALID_REQUEST", AGENT_ERRORS.INVALID_REQUEST],
];

/** A limit AgentRuns refused with (`rate_limited`, a duplicate run id) as the agent code. */
export function agentLimitError(err: unknown, method: string): unknown {
  if (!(err instanceof NexusError)) return err;
  const entry =
    err.code === "rate_limited" ? AGENT_ERRORS.QUOTA_EXCEEDED : AGENT_ERRORS.INVALID_REQUEST;
  return catalogError(
    entry,
    `${method}: ${err.message}`,
    {
      reason: err.code,
      ...(err.retryAfterS !== undefined ? { retryAfterMs: err.retryAfterS * 1000 } : {}),
    },
    { cause: err },
  );
}

/**
 * An error of the sampling service under `agent/complete` as the agent family's: a plugin that
 * called `agent/*` catches agent codes (R38). The original code stays in `data.samplingCode`.
 */
export function agentErrorFromSampling(err: unknown, method: string): unknown {
  if (!(err instanceof RpcError)) return err;
  const data = (err.data ?? {}) as Record<string, unknown>;
  const errorCode = typeof data["errorCode"] === "string" ? data["errorCode"] : "";
  if (errorCode.startsWith("AGENT_")) return err;
  const entry =
    BY_SUFFIX.find(([suffix]) => errorCode.endsWith(suffix))?.[1] ?? AGENT_ERRORS.PROVIDER_ERROR;
  return catalogError(
    entry,
    `${method}: ${err.message}`,
    { ...data, samplingCode: err.code, samplingErrorCode: errorCode || undefined },
    { cause: err },
  );
}
