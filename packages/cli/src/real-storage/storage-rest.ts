// `storage/*` and `files/*` answered by a Nexus's storage REST (`/api/v1/storage/*`) with a
// `storage_token` as Bearer: the mapping the published CLI uses (real-world-cli.md §7). Query
// calls carry every param in the query (non-strings JSON-encoded, nulls skipped); body calls put
// everything but `scope` in a JSON body. The service's answer comes back as it is; an error comes
// back as the catalogued storage error the server raised (its body keeps `rpc_code` and
// `errorCode`), else by status: 401/403 not granted, 404 not found, 409/412 precondition failed,
// 400 invalid request, 429 rate limited, anything else upstream error.
import { STORAGE_ERRORS, type CatalogEntry } from "@anna-ai/app-schema/errors";
import {
  catalogError,
  type FilesService,
  type ServiceContext,
  type StorageGrant,
  type StorageService,
} from "@anna-ai/executa-host";
import { NexusClient } from "../account/nexus-client.js";
import { NexusRequestError, readErrorDetail } from "../account/nexus-error.js";

type Ctx = ServiceContext<StorageGrant>;
type Params = Record<string, unknown>;

/** Where a call's storage token comes from: minted on first use, renewed before it expires. */
export interface StorageTokenSource {
  /** `ctx` is the call's (absent when warming up): a source may mint per user, tool or app. */
  token(ctx?: Ctx): Promise<string>;
  /** Forgets the token `ctx` used: the server said it expired or was revoked. */
  invalidate(ctx?: Ctx): void;
}

export interface RestStorageOptions {
  /** Canonical host of the Nexus, e.g. `http://127.0.0.1:8080`. */
  host: string;
  tokens: StorageTokenSource;
  fetch?: typeof fetch;
}

type Route = readonly [
  method: "GET" | "PUT" | "POST" | "DELETE",
  path: string,
  kind: "query" | "body",
];

const KV_ROUTES = {
  get: ["GET", "/api/v1/storage/kv", "query"],
  set: ["PUT", "/api/v1/storage/kv", "body"],
  delete: ["DELETE", "/api/v1/storage/kv", "query"],
  list: ["GET", "/api/v1/storage/list", "query"],
} as const satisfies Record<keyof StorageService, Route>;

const FILES_ROUTES = {
  uploadBegin: ["POST", "/api/v1/storage/files/init", "body"],
  uploadComplete: ["POST", "/api/v1/storage/files/finalize", "body"],
  downloadUrl: ["GET", "/api/v1/storage/files/url", "query"],
  list: ["GET", "/api/v1/storage/files", "query"],
  delete: ["DELETE", "/api/v1/storage/files", "query"],
} as const satisfies Record<keyof FilesService, Route>;

const RPC_CODES = new Map<number, CatalogEntry>(
  Object.values(STORAGE_ERRORS).map((e) => [e.code, e]),
);

/** The REST status → the storage error a plugin sees, when the body names none. */
function entryForStatus(status: number): CatalogEntry {
  if (status === 401 || status === 403) return STORAGE_ERRORS.NOT_GRANTED;
  if (status === 404) return STORAGE_ERRORS.NOT_FOUND;
  if (status === 409 || status === 412) return STORAGE_ERRORS.PRECONDITION_FAILED;
  if (status === 400 || status === 422) return STORAGE_ERRORS.INVALID_REQUEST;
  if (status === 429) return STORAGE_ERRORS.RATE_LIMITED;
  return STORAGE_ERRORS.UPSTREAM_ERROR;
}

/** Non-strings JSON-encoded, nulls and undefined skipped (what the server's query parser reads). */
function queryOf(params: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    out[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  return out;
}

export function createRestStorage(options: RestStorageOptions): {
  storage: StorageService;
  files: FilesService;
} {
  const client = new NexusClient({
    host: options.host,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });

  async function send(route: Route, params: Params, token: string) {
    const [method, path, kind] = route;
    const { scope, ...rest } = params;
    const query = kind === "query" ? queryOf(params) : queryOf({ scope });
    return client.request(method, path, {
      query,
      ...(kind === "body" ? { body: rest } : {}),
      headers: { authorization: `Bearer ${token}` },
      auth: false,
      anyStatus: true,
      what: `${method} ${path}`,
    });
  }

  async function call(route: Route, params: Params, ctx: Ctx): Promise<never> {
    let res;
    try {
      res = await send(route, params, await options.tokens.token(ctx));
      // An expired or revoked token is renewed once, and so is one whose call budget is spent
      // (`max_calls`, counted by the server per token): a dev session is not one invoke, and a
      // developer clicking through an app passes 200 calls within a token's 600 s. A second
      // refusal is the answer.
      if (needsNewToken(res)) {
        options.tokens.invalidate(ctx);
        res = await send(route, params, await options.tokens.token(ctx));
      }
    } catch (error) {
      if (error instanceof NexusRequestError) {
        throw catalogError(STORAGE_ERRORS.UPSTREAM_ERROR, error.message, {}, { cause: error });
      }
      throw error;
    }
    if (res.status >= 200 && res.status < 300) {
      const deleted = route[0] === "DELETE" && (res.status === 204 || typeof res.body !== "object");
      return (deleted ? { deleted: true } : res.body) as never;
    }
    throw errorOf(res.status, res.body, `${route[0]} ${route[1]}`, options.host);
  }

  const bind = <S>(routes: Record<string, Route>): S =>
    Object.fromEntries(
      Object.entries(routes).map(([name, route]) => [
        name,
        (params: Params, ctx: Ctx) => call(route, params, ctx),
      ]),
    ) as S;

  return { storage: bind<StorageService>(KV_ROUTES), files: bind<FilesService>(FILES_ROUTES) };
}

function errorOf(status: number, body: unknown, what: string, host: string) {
  const raw = (body as { detail?: unknown } | null)?.detail;
  const detail = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const entry =
    (typeof detail.rpc_code === "number" ? RPC_CODES.get(detail.rpc_code) : undefined) ??
    entryForStatus(status);
  const { message } = readErrorDetail(body);
  // The service's own data (limits, etags) passes on; the REST layer's bookkeeping does not.
  const { code, message: _m, rpc_code: _r, errorCode: _e, ...data } = detail;
  const fromServer = typeof detail.rpc_code === "number";
  return catalogError(
    entry,
    fromServer
      ? message
      : `${host} answered ${what} with ${status}${typeof code === "string" ? ` ${code}` : ""}: ${message}`,
    { ...data, http_status: status },
  );
}

/** A refusal a fresh token answers: expired or revoked, or this token's `max_calls` spent. */
function needsNewToken(res: { status: number; body: unknown }): boolean {
  if (res.status === 401) {
    const code = readErrorDetail(res.body).code;
    return code === "token_expired" || code === "token_revoked";
  }
  if (res.status !== 429) return false;
  const detail = (res.body as { detail?: { max_calls?: unknown } } | null)?.detail;
  return typeof detail?.max_calls === "number";
}
