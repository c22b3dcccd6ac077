// A failed call to a Nexus's copilot or dev-session endpoints as the catalogued error of the
// reverse-RPC family it served (sampling, agent, upload, image), so a plugin or an app window
// sees the same codes as in production. The server's own catalogue code (`detail.error_code`,
// e.g. `SAMPLING_QUOTA_EXCEEDED`) wins when it belongs to the family; otherwise the HTTP status
// and the Nexus code decide: refused or expired credentials are NOT_GRANTED with the login
// command, quota and rate limits QUOTA_EXCEEDED, an unreachable or unconfigured server the
// family's provider (or storage) error.
import {
  AGENT_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  UPLOAD_ERRORS,
  type CatalogEntry,
} from "@anna-ai/app-schema/errors";
import { catalogError } from "@anna-ai/executa-host";
import type { RpcError } from "@anna-ai/jsonrpc";
import { NexusRequestError, loginHint, readErrorDetail } from "../account/nexus-error.js";

export type CopilotFamily = "sampling" | "agent" | "upload" | "image";

const CATALOG: Record<CopilotFamily, Readonly<Record<string, CatalogEntry>>> = {
  sampling: SAMPLING_ERRORS,
  agent: AGENT_ERRORS,
  upload: UPLOAD_ERRORS,
  image: IMAGE_ERRORS,
};

/** What each family calls "the server could not do it" (no gateway, 5xx, unreachable). */
const UNAVAILABLE: Record<CopilotFamily, CatalogEntry> = {
  sampling: SAMPLING_ERRORS.PROVIDER_ERROR,
  agent: AGENT_ERRORS.PROVIDER_ERROR,
  upload: UPLOAD_ERRORS.STORAGE_ERROR,
  image: IMAGE_ERRORS.PROVIDER_ERROR,
};

/** The answer of a failed request, as every copilot client reads it. */
export interface FailedAnswer {
  host: string;
  /** How the message names the call, e.g. `POST /api/v1/copilot/app/complete`. */
  what: string;
  status: number;
  body: unknown;
}

function entryByErrorCode(family: CopilotFamily, errorCode: unknown): CatalogEntry | undefined {
  if (typeof errorCode !== "string") return undefined;
  return Object.values(CATALOG[family]).find(
    (e) => e.errorCode === errorCode || e.aka?.includes(errorCode) === true,
  );
}

function entryOf(family: CopilotFamily, status: number, code: string | undefined): CatalogEntry {
  const f = CATALOG[family] as Record<string, CatalogEntry | undefined>;
  const pick = (key: string) => f[key] ?? UNAVAILABLE[family];
  if (status === 401 || status === 403) return pick("NOT_GRANTED");
  if (status === 429 || code === "quota_exceeded" || code === "rate_limited") {
    return pick("QUOTA_EXCEEDED");
  }
  if (status === 410 || code === "APP_SESSION_EXPIRED" || code === "APP_SESSION_REVOKED") {
    return family === "agent" ? AGENT_ERRORS.SESSION_NOT_FOUND : pick("NOT_GRANTED");
  }
  if (status === 404) {
    return family === "agent" ? AGENT_ERRORS.SESSION_NOT_FOUND : pick("NOT_FOUND");
  }
  if (status === 413) return pick("TOO_LARGE");
  if (status === 415) return pick("MIME_REJECTED");
  if (status === 400 || status === 422) return pick("INVALID_REQUEST");
  return UNAVAILABLE[family];
}

/** What to do about it, by what went wrong. */
function advice(entry: CatalogEntry, status: number, host: string, code: string | undefined) {
  if (status === 401) return `; ${loginHint(host)} for a new token`;
  if (code === "unavailable") return `; ask the operator of ${host} to configure it`;
  if (entry.errorCode.endsWith("QUOTA_EXCEEDED")) {
    return "; wait for the quota window to pass or ask the operator to raise it";
  }
  return "";
}

/** The catalogued error for a non-2xx answer of a copilot or dev-session endpoint. */
export function copilotAnswerError(family: CopilotFamily, answer: FailedAnswer): RpcError {
  const d = readErrorDetail(answer.body);
  const raw = (answer.body as { detail?: Record<string, unknown> } | null)?.detail;
  const errorCode = raw !== null && typeof raw === "object" ? raw.error_code : undefined;
  const entry = entryByErrorCode(family, errorCode) ?? entryOf(family, answer.status, d.code);
  const tag = d.code === undefined ? `${answer.status}` : `${answer.status} ${d.code}`;
  return catalogError(
    entry,
    `${answer.host} refused ${answer.what} (${tag}): ${d.message}${advice(entry, answer.status, answer.host, d.code)}`,
    { http_status: answer.status, ...(d.code === undefined ? {} : { nexus_code: d.code }) },
  );
}

/**
 * Any other failure of such a call: a NexusRequestError (unreachable server, a refused PAT on
 * the dev-session endpoints, whose message already names what to do) keeps its message; an
 * error that already is catalogued passes through.
 */
export function copilotFailure(family: CopilotFamily, error: unknown): unknown {
  if (!(error instanceof NexusRequestError)) return error;
  const status = error.status ?? 0;
  const entry = status === 0 ? UNAVAILABLE[family] : entryOf(family, status, error.code);
  return catalogError(
    entry,
    error.message,
    { ...(status === 0 ? {} : { http_status: status }) },
    {
      cause: error,
    },
  );
}
