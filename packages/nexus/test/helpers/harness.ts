import type { Hono } from "hono";
import { TEST_SCRYPT } from "../../src/auth/password.js";
import { manualClock, type ManualClock } from "../../src/core/clock.js";
import { type NexusConfig, resolveConfig } from "../../src/core/config.js";
import { memoryLogger } from "../../src/core/logger.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { createApp } from "../../src/http/app.js";
import type { AppDeps, Env } from "../../src/http/context.js";
import { executaHub } from "../../src/hub/executa-hub.js";
import { appExecutaReferences, appRegistry } from "../../src/apps/app-registry.js";
import { PRE_REVIEW_CHECKS } from "../../src/apps/checks/index.js";
import { memoryRateLimiter } from "../../src/auth/rate-limit.js";
import type { BlobStore } from "../../src/blobs/blob-store.js";
import { sqlExecutaStore } from "../../src/hub/executa-store.js";
import { appStore } from "../../src/store/app-store.js";
import { sqlStores } from "../../src/stores/sql-stores.js";
import type { Stores } from "../../src/stores/types.js";
import { randomBytes } from "node:crypto";
import { kekFromBytes } from "../../src/tokens/key-encryption.js";
import { SigningKeyring } from "../../src/tokens/keyring.js";

export const ORIGIN = "http://127.0.0.1:8080";

export interface Harness {
  app: Hono<Env>;
  clock: ManualClock;
  logs: string[];
  stores: Stores;
  /** The token keyring the app signs with (sealed under a random per-harness KEK). */
  keyring: SigningKeyring;
  /** A request as a browser on our own origin would send it (JSON body, cookie). */
  req(
    method: string,
    path: string,
    opts?: { body?: unknown; cookie?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Signs up and returns the session cookie (`anna_session=…`). */
  signup(email: string, password?: string): Promise<string>;
}

export function harness(
  h: DatabaseHandle,
  config: Partial<NexusConfig> = {},
  extra: {
    clock?: ManualClock;
    storage?: AppDeps["storage"];
    hub?: AppDeps["hub"];
    binaries?: AppDeps["binaries"];
    /** The app registry's blob store (bundles, listing images); the registry is always on. */
    blobs?: BlobStore;
    /** The app runtime, built on the harness's keyring (test/helpers/runtime.ts). */
    runtime?: (keyring: SigningKeyring) => NonNullable<AppDeps["runtime"]>;
    rateLimiter?: AppDeps["rateLimiter"];
    mail?: AppDeps["mail"];
    /** The web dashboard's files at `/` (routes/dashboard.ts). */
    dashboard?: AppDeps["dashboard"];
    /** Chat turns (test/helpers/chat.ts builds them on a fake model provider). */
    chat?: AppDeps["chat"];
    /** The LLM gateway's endpoints (test/copilot/copilot-harness.ts builds one). */
    copilot?: AppDeps["copilot"];
    /** Users' executa credentials (src/credentials/credential-vault.ts). */
    credentials?: AppDeps["credentials"];
    /** Connected accounts at OAuth providers (test/credentials/oauth-world.ts builds them). */
    platformCredentials?: AppDeps["platformCredentials"];
    /** Another node's keyring on the same database (the same KEK), so both verify one token. */
    keyring?: SigningKeyring;
  } = {},
): Harness {
  const clock = extra.clock ?? manualClock();
  const logger = memoryLogger();
  const stores = sqlStores(h.db);
  const keyring =
    extra.keyring ??
    new SigningKeyring({
      store: stores.signingKeys,
      kek: kekFromBytes(randomBytes(32), "test"),
      clock,
    });
  const rateLimiter = extra.rateLimiter ?? memoryRateLimiter(clock);
  const resolved = resolveConfig(config);
  const blobs = extra.blobs ?? extra.storage?.blobs;
  const hub =
    extra.hub ??
    executaHub({ store: sqlExecutaStore(h.db), clock, references: appExecutaReferences(h.db) });
  const app = createApp({
    stores,
    keyring,
    clock,
    logger,
    config: resolved,
    pingDatabase: h.ping,
    passwordParams: TEST_SCRYPT,
    hub,
    apps: appRegistry({
      db: h.db,
      clock,
      limits: resolved.appLimits,
      rateLimiter,
      blobs,
      hub,
      checks: PRE_REVIEW_CHECKS,
    }),
    rateLimiter,
    store: appStore({ db: h.db, clock }),
    ...(extra.storage ? { storage: extra.storage } : {}),
    ...(extra.binaries ? { binaries: extra.binaries } : {}),
    ...(extra.runtime ? { runtime: extra.runtime(keyring) } : {}),
    ...(extra.mail ? { mail: extra.mail } : {}),
    ...(extra.dashboard ? { dashboard: extra.dashboard } : {}),
    ...(extra.chat ? { chat: extra.chat } : {}),
    ...(extra.copilot ? { copilot: extra.copilot } : {}),
    ...(extra.credentials ? { credentials: extra.credentials } : {}),
    ...(extra.platformCredentials ? { platformCredentials: extra.platformCredentials } : {}),
  });
  const req: Harness["req"] = (method, path, opts = {}) => {
    const headers: Record<string, string> = { host: new URL(ORIGIN).host, ...opts.headers };
    if (opts.cookie) headers.cookie = opts.cookie;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    }
    return Promise.resolve(app.request(`${ORIGIN}${path}`, { method, headers, body }));
  };
  return {
    app,
    clock,
    logs: logger.lines,
    stores,
    keyring,
    req,
    async signup(email, password = "correct horse battery") {
      const res = await req("POST", "/api/v1/auth/signup", { body: { email, password } });
      if (res.status !== 201) throw new Error(`signup ${res.status}: ${await res.text()}`);
      return sessionCookie(res);
    },
  };
}

export function sessionCookie(res: Response): string {
  const set = res.headers.get("set-cookie") ?? "";
  const m = /anna_session=([^;]+)/.exec(set);
  if (!m) throw new Error(`no session cookie in '${set}'`);
  return `anna_session=${m[1]}`;
}

export async function detail(
  res: Response,
): Promise<{ code: string; message: string } & Record<string, unknown>> {
  const body = (await res.json()) as { detail: { code: string; message: string } };
  return body.detail;
}
