// The one way the CLI talks to a Nexus: `<canonical host><path>`, the saved PAT as Bearer, JSON
// in and out, and every failure as a NexusRequestError whose one-line message names what failed
// and what to do (nexus-error.ts). Wire details follow the published CLI's client
// (real-world-cli.md §0.2): `user-agent: anna-app-cli`, `accept: application/json`, query values
// skipped when undefined/null, `undefined` body keys omitted, exactly one immediate retry of a GET
// that got ≥ 500, `x-anna-idempotent: hit` surfaced. Unlike it, every request has a timeout.
// Dev endpoints that take the PAT in the body (`auth: false` plus a `pat` field) use it too.
import { EXIT_SERVER } from "../cli/exit-error.js";
import { errorForStatus, NexusRequestError } from "./nexus-error.js";

/** A Nexus that has not answered in this long is reported as unreachable. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const USER_AGENT = "anna-app-cli";

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Readonly<Record<string, QueryValue>>;
  /** Sent as JSON; keys whose value is undefined are left out. */
  body?: unknown;
  /** Sent as multipart/form-data instead (fetch sets the boundary); excludes `body`. */
  form?: FormData;
  headers?: Readonly<Record<string, string>>;
  /** Statuses besides 2xx that are answers, not errors (e.g. 202 and 410 of the device poll). */
  allowStatuses?: readonly number[];
  /**
   * Every status is an answer, never an error nor a retry: for callers that map statuses
   * themselves (the storage REST client turns them into JSON-RPC codes).
   */
  anyStatus?: boolean;
  /** Whether to send the PAT as Bearer (default: when the client has one). */
  auth?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** How errors name this call, e.g. "setting the handle"; default `<METHOD> <path>`. */
  what?: string;
}

export interface NexusResponse<T = unknown> {
  status: number;
  /** Parsed JSON; the raw text when it is not JSON; null when empty. */
  body: T;
  headers: Headers;
  /** `x-anna-idempotent: hit`: the server had this exact write already. */
  idempotentHit: boolean;
}

export interface NexusClientOptions {
  /** Canonical host (canonical-host.ts), e.g. `https://nexus.example.com`. */
  host: string;
  /** The developer PAT; a bearer secret that never appears in messages. */
  pat?: string;
  fetch?: typeof fetch;
}

export class NexusClient {
  readonly host: string;
  readonly #pat: string | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: NexusClientOptions) {
    this.host = options.host;
    this.#pat = options.pat;
    this.#fetch = options.fetch ?? fetch;
  }

  get hasPat(): boolean {
    return this.#pat !== undefined;
  }

  /**
   * A fetch for URLs the server handed out (binary downloads): a URL on the server's own origin
   * carries the PAT, since an `app_bundled` executa's archive is for signed-in users only; any
   * other origin gets no credential (and fetch drops it on a redirect to another origin).
   */
  downloadFetch(): typeof fetch {
    const origin = new URL(this.host).origin;
    const pat = this.#pat;
    const send = this.#fetch;
    return (input, init) => {
      const url = typeof input === "string" || input instanceof URL ? input : input.url;
      if (pat === undefined || new URL(url).origin !== origin) return send(input, init);
      const headers = new Headers(init?.headers);
      headers.set("authorization", `Bearer ${pat}`);
      return send(input, { ...init, headers });
    };
  }

  get<T = unknown>(path: string, options?: RequestOptions): Promise<NexusResponse<T>> {
    return this.request<T>("GET", path, options);
  }

  post<T = unknown>(path: string, options?: RequestOptions): Promise<NexusResponse<T>> {
    return this.request<T>("POST", path, options);
  }

  put<T = unknown>(path: string, options?: RequestOptions): Promise<NexusResponse<T>> {
    return this.request<T>("PUT", path, options);
  }

  delete<T = unknown>(path: string, options?: RequestOptions): Promise<NexusResponse<T>> {
    return this.request<T>("DELETE", path, options);
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<NexusResponse<T>> {
    const what = options.what ?? `${method} ${path}`;
    const first = await this.#send(method, path, options, what);
    const retry =
      method === "GET" &&
      first.status >= 500 &&
      options.anyStatus !== true &&
      !options.allowStatuses?.includes(first.status);
    const res = retry ? await this.#send(method, path, options, what) : first;
    const body = parseBody(await res.text());
    if (!res.ok && options.anyStatus !== true && !options.allowStatuses?.includes(res.status)) {
      throw errorForStatus(this.host, what, res.status, body);
    }
    return {
      status: res.status,
      body: body as T,
      headers: res.headers,
      idempotentHit: res.headers.get("x-anna-idempotent") === "hit",
    };
  }

  async #send(
    method: string,
    path: string,
    options: RequestOptions,
    what: string,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      "user-agent": USER_AGENT,
      accept: "application/json",
      ...options.headers,
    };
    if (options.auth !== false && this.#pat !== undefined) {
      headers.authorization = `Bearer ${this.#pat}`;
    }
    let body: string | FormData | undefined;
    if (options.form !== undefined) body = options.form;
    else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await this.#fetch(this.#url(path, options.query), { method, headers, body, signal });
    } catch (error) {
      // The caller's own abort (Ctrl-C) is not a network problem: let it through as it is.
      if (options.signal?.aborted) throw error;
      const why = timeout.aborted ? `no answer within ${timeoutMs / 1000} s` : networkReason(error);
      throw new NexusRequestError(EXIT_SERVER, `cannot reach ${this.host} (${what}): ${why}`, {
        cause: error,
      });
    }
  }

  #url(path: string, query: RequestOptions["query"]): string {
    const url = new URL(path, this.host);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.href;
  }
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `ECONNREFUSED`, `ENOTFOUND`, … from fetch's cause; the message when there is no code. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused (is the server running?)";
  if (cause?.code === "ENOTFOUND") return "no such host";
  if (cause?.code !== undefined) return cause.code;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}
