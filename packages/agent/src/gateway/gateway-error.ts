// The gateway's one local error. Callers branch on `code`; host services map it onto their
// family's wire codes (sampling -32003/-32002/-32005, embeddings -32503…). Messages say what
// went wrong and what to do, and pass through `redactSecrets` so a key never leaves in one.
import { APICallError } from "ai";
import type { Secret } from "../config/secret.js";
import { ResponseTooLargeError } from "./bounded-fetch.js";
import { redactSecrets } from "../config/secret.js";

export type GatewayErrorCode =
  /** The provider answered an error (4xx other than 429, or 5xx after the retries). */
  | "provider_error"
  /** 429 after the retries, or a `retry-after` longer than the gateway waits. */
  | "rate_limited"
  /** The provider could not be reached (connection refused, DNS, TLS). */
  | "unreachable"
  /** The call's own time budget ran out. */
  | "timeout"
  /** The caller aborted. */
  | "aborted"
  /** The `QuotaPolicy` refused the call before it was made. */
  | "quota_exceeded"
  /** The provider has no such capability (e.g. images on Anthropic). */
  | "not_supported"
  /** The purpose has no model configured. */
  | "not_configured"
  /** The request itself cannot be sent (e.g. a tool result for an unknown call). */
  | "invalid_request";

export class GatewayError extends Error {
  readonly code: GatewayErrorCode;
  readonly provider: string;
  /** HTTP status of the provider's answer, when there was one. */
  readonly status: number | undefined;
  /** How long the provider asked to wait, when it said. */
  readonly retryAfterMs: number | undefined;
  /** Attempts made, retries included. */
  readonly attempts: number;

  constructor(
    code: GatewayErrorCode,
    message: string,
    details: {
      provider: string;
      status?: number;
      retryAfterMs?: number;
      attempts?: number;
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
    this.name = "GatewayError";
    this.code = code;
    this.provider = details.provider;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
  }
}

/** Statuses worth another attempt: rate limits and the provider's own failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status === 409 || status >= 500;
}

/** A longer provider message is cut: it is for a log line, not a document. */
const PROVIDER_MESSAGE_MAX_CHARS = 500;

/**
 * Any failure of a provider call as a GatewayError. The cause is kept only for errors the SDK
 * made from an HTTP answer (it holds the request body, never the headers with the key).
 */
export function toGatewayError(
  error: unknown,
  provider: string,
  secrets: readonly (Secret | undefined)[],
  extra: { attempts?: number; signal?: AbortSignal; timedOut?: boolean } = {},
): GatewayError {
  if (error instanceof GatewayError) return error;
  if (extra.timedOut === true) {
    return new GatewayError("timeout", `${provider} did not answer within the time budget`, {
      provider,
      attempts: extra.attempts,
    });
  }
  if (extra.signal?.aborted === true || isAbortError(error)) {
    return new GatewayError("aborted", `the ${provider} call was cancelled`, {
      provider,
      attempts: extra.attempts,
    });
  }
  const clean = (text: string) => redactSecrets(text, secrets).slice(0, PROVIDER_MESSAGE_MAX_CHARS);
  const tooLarge = causeChain(error).find((e) => e instanceof ResponseTooLargeError);
  if (tooLarge !== undefined) {
    return new GatewayError("provider_error", `${provider}: ${clean(tooLarge.message)}`, {
      provider,
      attempts: extra.attempts,
    });
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const retryAfterMs = retryAfterFromHeaders(error.responseHeaders);
    if (status === undefined) {
      return new GatewayError(
        "unreachable",
        `cannot reach ${provider} at ${clean(error.url)}: ${clean(error.message)}; check the base URL and that the server is running`,
        { provider, attempts: extra.attempts },
      );
    }
    const what = status === 401 || status === 403 ? " (check the API key)" : "";
    // A 2xx the SDK could not read: the reason is in the cause (e.g. a body that is not JSON).
    const why = status < 300 && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return new GatewayError(
      status === 429 ? "rate_limited" : "provider_error",
      `${provider} answered HTTP ${status}${what}: ${clean(error.message + why)}`,
      {
        provider,
        status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        attempts: extra.attempts,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|socket/i.test(message)) {
    return new GatewayError(
      "unreachable",
      `cannot reach ${provider}: ${clean(message)}; check the base URL and that the server is running`,
      { provider, attempts: extra.attempts },
    );
  }
  return new GatewayError("provider_error", `${provider} call failed: ${clean(message)}`, {
    provider,
    attempts: extra.attempts,
  });
}

/** The error and its causes, outermost first (bounded: cause chains can be cycles). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Upper bound of a `retry-after` the gateway reads at all (a day, as a guard against garbage). */
const RETRY_AFTER_MAX_READ_MS = 86_400_000;

/**
 * `retry-after-ms` (OpenAI) or `retry-after` in seconds or as an HTTP date (RFC 9110), in ms.
 * Undefined when absent or unreadable.
 */
export function retryAfterFromHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const get = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") !== undefined && Number.isFinite(ms) && ms >= 0) {
    return Math.min(ms, RETRY_AFTER_MAX_READ_MS);
  }
  const value = get("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(Number(value) * 1000, RETRY_AFTER_MAX_READ_MS);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - nowMs), RETRY_AFTER_MAX_READ_MS);
}
