// App sessions of the dev tools, PAT-authed (spec L7535–7580, L11617): `kind=complete` and
// `kind=agent` sessions minted by `POST /api/v1/anna-apps/dev/session/mint` for a dev app (and,
// for `executa dev`, its executa), refreshed by `…/session/refresh` (which also slides the idle
// window), released by `…/session/revoke`, listed by `GET …/dev/sessions`. The session is the
// durable thing; its `app_session_token` is a capability of ≤ 600 s that is re-derived from the
// PAT and the uuid when it nears expiry, so a restart or a long pause never strands a session.
import type { NexusClient } from "../account/nexus-client.js";
import { NexusRequestError } from "../account/nexus-error.js";

const DEV = "/api/v1/anna-apps/dev";
export const SESSION_MINT_PATH = `${DEV}/session/mint`;
export const SESSION_REFRESH_PATH = `${DEV}/session/refresh`;
export const SESSION_REVOKE_PATH = `${DEV}/session/revoke`;
export const SESSIONS_LIST_PATH = `${DEV}/sessions`;
/** What the published CLI asks for; the server caps tokens there too. */
export const SESSION_TOKEN_TTL_S = 600;
/** A token this close to its expiry is re-derived first (the storage tokens' margin). */
export const SESSION_RENEW_BEFORE_MS = 30_000;

export type DevSessionKind = "complete" | "agent";

/** A minted or refreshed session as the dev endpoints answer it. */
export interface DevAppSession {
  uuid: string;
  kind: DevSessionKind;
  submode: "auto" | "fixed" | null;
  label: string | null;
  token: string;
  /** Epoch ms after which the token is no longer accepted. */
  tokenExpiresAt: number;
  /** The session's idle deadline, ISO (`expires_at`). */
  expiresAt: string;
  createdAt: string;
}

export interface MintRequest {
  kind: DevSessionKind;
  submode?: "auto" | "fixed";
  fixedClientId?: string;
  label?: string;
  systemPrompt?: string;
  quotaCaps?: Record<string, unknown>;
}

export interface DevSessionListing {
  app_session_uuid: string;
  kind: string;
  submode: "auto" | "fixed" | null;
  label: string | null;
  executa_tool_id: string | null;
  created_at: string;
  expires_at: string;
  expired: boolean;
}

export interface DevAppSessionsOptions {
  /** Carries the saved PAT as Bearer, which the dev endpoints accept besides `pat`. */
  client: NexusClient;
  appSlug: string;
  /** `executa dev`: the plugin's tool id, so usage is accounted to it. */
  toolId?: string;
  now?: () => number;
  /** Each token, so transcripts and traces can hide it. */
  onToken?: (token: string) => void;
}

export class DevAppSessions {
  readonly host: string;
  readonly appSlug: string;
  readonly #client: NexusClient;
  readonly #toolId: string | undefined;
  readonly #now: () => number;
  readonly #onToken: ((token: string) => void) | undefined;

  constructor(options: DevAppSessionsOptions) {
    this.#client = options.client;
    this.host = options.client.host;
    this.appSlug = options.appSlug;
    this.#toolId = options.toolId;
    this.#now = options.now ?? Date.now;
    this.#onToken = options.onToken;
  }

  async mint(request: MintRequest, signal?: AbortSignal): Promise<DevAppSession> {
    const res = await this.#client.post(SESSION_MINT_PATH, {
      body: {
        kind: request.kind,
        app_slug: this.appSlug,
        executa_tool_id: this.#toolId,
        submode: request.submode,
        fixed_client_id: request.fixedClientId,
        label: request.label,
        system_prompt: request.systemPrompt,
        quota_caps: request.quotaCaps,
        ttl_seconds: SESSION_TOKEN_TTL_S,
      },
      what: `POST ${SESSION_MINT_PATH} (a ${request.kind} session for app ${this.appSlug})`,
      ...(signal === undefined ? {} : { signal }),
    });
    return this.#session(res.body, SESSION_MINT_PATH);
  }

  /** A new token for a live session; 404/410 when it is gone or expired (NexusRequestError). */
  async refresh(uuid: string, signal?: AbortSignal): Promise<DevAppSession> {
    const res = await this.#client.post(SESSION_REFRESH_PATH, {
      body: { app_session_uuid: uuid, ttl_seconds: SESSION_TOKEN_TTL_S },
      what: `POST ${SESSION_REFRESH_PATH} (session ${uuid})`,
      ...(signal === undefined ? {} : { signal }),
    });
    return this.#session(res.body, SESSION_REFRESH_PATH);
  }

  /** Token-free release by uuid (L7551); false when the server knows no such session. */
  async revoke(uuid: string): Promise<boolean> {
    const res = await this.#client.post(SESSION_REVOKE_PATH, {
      body: { app_session_uuid: uuid },
      allowStatuses: [404],
      what: `POST ${SESSION_REVOKE_PATH} (session ${uuid})`,
    });
    return res.status === 200;
  }

  async list(options: {
    kind: DevSessionKind;
    includeExpired: boolean;
    limit: number;
  }): Promise<DevSessionListing[]> {
    const res = await this.#client.get<{ sessions?: unknown }>(SESSIONS_LIST_PATH, {
      query: {
        app_slug: this.appSlug,
        kind: options.kind,
        include_expired: options.includeExpired,
        limit: options.limit,
      },
      what: `GET ${SESSIONS_LIST_PATH} (app ${this.appSlug})`,
    });
    const sessions = res.body.sessions;
    if (!Array.isArray(sessions)) {
      throw new NexusRequestError(1, `GET ${SESSIONS_LIST_PATH} answered without sessions`);
    }
    const mine = this.#toolId ?? null;
    return (sessions as DevSessionListing[]).filter((s) => (s.executa_tool_id ?? null) === mine);
  }

  #session(body: unknown, path: string): DevAppSession {
    const b = (body ?? {}) as Record<string, unknown>;
    const token = b.app_session_token ?? b.token;
    if (typeof token !== "string" || token === "" || typeof b.app_session_uuid !== "string") {
      throw new NexusRequestError(
        1,
        `POST ${path} answered without app_session_uuid and app_session_token; is ${this.host} a Nexus?`,
      );
    }
    this.#onToken?.(token);
    const ttl = typeof b.expires_in === "number" ? b.expires_in : SESSION_TOKEN_TTL_S;
    const now = this.#now();
    return {
      uuid: b.app_session_uuid,
      kind: b.kind === "agent" ? "agent" : "complete",
      submode: b.submode === "auto" || b.submode === "fixed" ? b.submode : null,
      label: typeof b.label === "string" ? b.label : null,
      token,
      tokenExpiresAt: now + ttl * 1000,
      expiresAt: typeof b.expires_at === "string" ? b.expires_at : new Date(now).toISOString(),
      createdAt: typeof b.created_at === "string" ? b.created_at : new Date(now).toISOString(),
    };
  }

  /** Whether a token must be re-derived before it is sent. */
  stale(session: Pick<DevAppSession, "tokenExpiresAt">): boolean {
    return this.#now() >= session.tokenExpiresAt - SESSION_RENEW_BEFORE_MS;
  }
}

/**
 * One shared `kind=complete` session per key (executa dev: the process; anna-app dev: the
 * window), minted on first use, refreshed before its token lapses, re-minted when the server
 * says the session itself ended. Concurrent callers share one request.
 */
export class CompleteSessions {
  readonly #sessions: DevAppSessions;
  readonly #live = new Map<string, DevAppSession>();
  readonly #pending = new Map<string, Promise<DevAppSession>>();
  readonly #max: number;

  constructor(sessions: DevAppSessions, maxKeys = 256) {
    this.#sessions = sessions;
    this.#max = maxKeys;
  }

  async token(key: string): Promise<string> {
    const current = this.#live.get(key);
    if (current !== undefined && !this.#sessions.stale(current)) return current.token;
    let pending = this.#pending.get(key);
    if (pending === undefined) {
      pending = this.#renew(current).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    const next = await pending;
    this.#live.delete(key);
    if (this.#live.size >= this.#max) {
      const oldest = this.#live.keys().next().value;
      if (oldest !== undefined) this.#live.delete(oldest);
    }
    this.#live.set(key, next);
    return next.token;
  }

  /** The server refused the token: the next call derives a new one. */
  forget(key: string): void {
    this.#live.delete(key);
  }

  async #renew(current: DevAppSession | undefined): Promise<DevAppSession> {
    if (current !== undefined) {
      try {
        return await this.#sessions.refresh(current.uuid);
      } catch (error) {
        const status = error instanceof NexusRequestError ? error.status : undefined;
        if (status !== 404 && status !== 410) throw error;
      }
    }
    return this.#sessions.mint({ kind: "complete", label: "dev tools" });
  }
}
