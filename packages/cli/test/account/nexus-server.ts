// A real Nexus for the CLI's account tests: the @anna-ai/nexus app on a temp SQLite folder,
// listening on 127.0.0.1 port 0, closed when the suite ends. People are signed up and device
// logins approved over HTTP with a session cookie, the way /device does it in a browser.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import {
  appExecutaReferences,
  appRegistry,
  appStore,
  createApp,
  createNexusRuntime,
  createSqlStorageService,
  executaBinaries,
  executaHub,
  kekFromBytes,
  memoryRateLimiter,
  migrateToLatest,
  PRE_REVIEW_CHECKS,
  nullLogger,
  oidcVerifier,
  OAuthRegistry,
  oauthProvidersFromEnv,
  openBlobStore,
  openPlatformCredentials,
  openDatabase,
  resolveConfig,
  sqlCredentialVault,
  SigningKeyring,
  sqlExecutaStore,
  sqlStores,
  systemClock,
  type AppDeps,
  type BlobStore,
  type ChatDeps,
  type DashboardFiles,
  type DatabaseHandle,
  type NexusConfig,
  type NexusRuntime,
} from "@anna-ai/nexus";

const PASSWORD = "correct horse battery";
const DEV = "/api/v1/anna-apps/dev";

export interface TestNexus {
  /** `http://127.0.0.1:<port>`, which is also its canonical host. */
  url: string;
  /** Signs up and returns the session cookie. */
  signup(email: string): Promise<string>;
  /** What the /device page posts when the signed-in person presses Approve. */
  approve(cookie: string, userCode: string): Promise<void>;
  /** A PAT by the device flow over plain HTTP (no CLI), for files the published CLI wrote. */
  devicePat(cookie: string): Promise<{ pat: string; token_id: number; expires_in: number }>;
  /** Makes the person an admin of this Nexus (who approves and rejects apps). */
  makeAdmin(email: string): Promise<void>;
  /** Marks the person's email verified, as the link in the verification mail does. */
  verifyEmail(email: string): Promise<void>;
  /** Makes the person a verified developer, as `anna-nexus admin` or self-serve activation do. */
  makeDeveloper(email: string): Promise<void>;
  /** A JSON request with an optional Bearer PAT. */
  call(method: string, p: string, pat?: string): Promise<Response>;
  close(): Promise<void>;
}

/** Polling every second keeps a login test at about one second (the default is 5 s). */
export async function startTestNexus(
  options: Partial<Omit<NexusConfig, "binaries">> & {
    binaries?: Partial<NexusConfig["binaries"]>;
    /** Another database than the temp folder's SQLite (a test PostgreSQL); closed with it. */
    database?: DatabaseHandle;
    /** Serve the web dashboard's built files at `/` (the dashboard's browser tests). */
    dashboard?: DashboardFiles;
    /**
     * Chat turns at /api/v1/chat, built on this Nexus's database (and its app runtime, with
     * `runtime: true`, for turns that open app windows); closed with it.
     */
    chat?: (
      db: DatabaseHandle["db"],
      on: { blobs: BlobStore; runtime: NexusRuntime | undefined },
    ) => ChatDeps;
    /**
     * The app runtime (windows REST, rpc, event stream) on this database, with window tokens from a
     * keyring of its own and `storage.*` on SQL APS storage (the dashboard's app-window tests).
     */
    runtime?: boolean;
    /** The LLM gateway and what the copilot endpoints keep beside it, on this database. */
    copilot?: (db: DatabaseHandle["db"]) => Promise<NonNullable<AppDeps["copilot"]>>;
    /** Connected accounts at the OAuth providers these ANNA_OAUTH_* variables configure. */
    oauthEnv?: NodeJS.ProcessEnv;
  } = {},
): Promise<TestNexus> {
  const {
    database,
    dashboard,
    chat: makeChat,
    runtime: withRuntime,
    copilot: makeCopilot,
    oauthEnv,
    ...config
  } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cli-accounts-nexus-"));
  const handle = database ?? openDatabase({ dataDir });
  await migrateToLatest(handle.db);
  let origin = "";
  const blobs = await openBlobStore({
    url: undefined,
    dataDir,
    origin: () => origin,
    clock: systemClock.now,
  });
  const resolved = resolveConfig({ devicePollIntervalS: 1, ...config });
  const rateLimiter = memoryRateLimiter(systemClock);
  const hub = executaHub({
    store: sqlExecutaStore(handle.db),
    clock: systemClock,
    references: appExecutaReferences(handle.db),
  });
  const stores = sqlStores(handle.db);
  const keyring = withRuntime
    ? new SigningKeyring({
        store: stores.signingKeys,
        kek: kekFromBytes(randomBytes(32), "test"),
        clock: systemClock,
      })
    : undefined;
  const runtime = keyring
    ? createNexusRuntime({
        db: handle.db,
        keyring,
        clock: systemClock,
        logger: nullLogger,
        storage: createSqlStorageService({ db: handle.db, clock: systemClock.now }),
      })
    : undefined;
  const chat = makeChat?.(handle.db, { blobs, runtime });
  const copilot = await makeCopilot?.(handle.db);
  const app = createApp({
    stores,
    clock: systemClock,
    logger: nullLogger,
    config: resolved,
    pingDatabase: handle.ping,
    passwordParams: { N: 2 ** 10, r: 8, p: 1 },
    rateLimiter,
    hub,
    binaries: executaBinaries({
      db: handle.db,
      blobs,
      clock: systemClock,
      logger: nullLogger,
      config: resolved.binaries,
      oidc: oidcVerifier({
        issuers: resolved.binaries.oidcIssuers,
        audience: resolved.binaries.oidcAudience,
        clock: systemClock,
      }),
    }),
    apps: appRegistry({
      db: handle.db,
      clock: systemClock,
      limits: resolved.appLimits,
      rateLimiter,
      blobs,
      hub,
      checks: PRE_REVIEW_CHECKS,
    }),
    store: appStore({ db: handle.db, clock: systemClock }),
    credentials: sqlCredentialVault({
      db: handle.db,
      kek: kekFromBytes(randomBytes(32), "test"),
      clock: systemClock,
    }),
    ...(dashboard ? { dashboard } : {}),
    ...(oauthEnv
      ? {
          platformCredentials: openPlatformCredentials({
            db: handle.db,
            kek: kekFromBytes(randomBytes(32), "test"),
            clock: systemClock,
            logger: nullLogger,
            registry: new OAuthRegistry(oauthProvidersFromEnv(oauthEnv)),
          }),
        }
      : {}),
    ...(chat ? { chat } : {}),
    ...(copilot ? { copilot } : {}),
    ...(keyring && runtime ? { keyring, runtime } : {}),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = url;
  const json = async (method: string, p: string, body: unknown, cookie?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json", origin: url };
    if (cookie) headers.cookie = cookie;
    return fetch(`${url}${p}`, { method, headers, body: JSON.stringify(body) });
  };
  const nexus: TestNexus = {
    url,
    async signup(email) {
      const res = await json("POST", "/api/v1/auth/signup", { email, password: PASSWORD });
      if (res.status !== 201) throw new Error(`signup ${res.status}: ${await res.text()}`);
      const m = /anna_session=([^;]+)/.exec(res.headers.get("set-cookie") ?? "");
      if (!m) throw new Error("signup set no session cookie");
      return `anna_session=${m[1]}`;
    },
    async approve(cookie, userCode) {
      const res = await json("POST", `${DEV}/login/approve`, { user_code: userCode }, cookie);
      if (res.status !== 200) throw new Error(`approve ${res.status}: ${await res.text()}`);
    },
    async devicePat(cookie) {
      const start = (await (
        await fetch(`${url}${DEV}/login/start`, { method: "POST" })
      ).json()) as {
        device_code: string;
        user_code: string;
      };
      await nexus.approve(cookie, start.user_code);
      const res = await json("POST", `${DEV}/login/poll`, { device_code: start.device_code });
      if (res.status !== 200) throw new Error(`poll ${res.status}: ${await res.text()}`);
      return (await res.json()) as { pat: string; token_id: number; expires_in: number };
    },
    async makeAdmin(email) {
      await handle.db
        .updateTable("users")
        .set({ is_admin: 1 })
        .where("email", "=", email)
        .execute();
    },
    async verifyEmail(email) {
      await handle.db
        .updateTable("users")
        .set({ is_verified: 1 })
        .where("email", "=", email)
        .execute();
    },
    async makeDeveloper(email) {
      await handle.db
        .updateTable("users")
        .set({ is_verified_developer: 1 })
        .where("email", "=", email)
        .execute();
    },
    call(method, p, pat) {
      const headers: Record<string, string> = {};
      if (pat) headers.authorization = `Bearer ${pat}`;
      return fetch(`${url}${p}`, { method, headers });
    },
    async close() {
      await chat?.close();
      // Its event streams would hold the server open.
      await runtime?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await handle.close();
      await blobs.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return nexus;
}

/** A 127.0.0.1 port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
