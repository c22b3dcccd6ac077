// Nexus serving app windows, over real HTTP on 127.0.0.1: the whole app (createApp) with SQL
// storage, the SQL runtime stores and the keyring's window tokens on one database, and the
// focus-flow example app loaded into its catalogue the way `anna-nexus admin load-app` does.
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { EventBus } from "@anna-ai/app-core";
import { serve } from "@hono/node-server";
import { afterAll } from "vitest";
import { nullLogger } from "../../src/core/logger.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { installApp, putAppVersion } from "../../src/runtime/app-catalog-writes.js";
import { readAppFolder } from "../../src/runtime/load-app-folder.js";
import { createNexusRuntime, type NexusRuntime } from "../../src/runtime/nexus-runtime.js";
import { type Harness, harness, sessionCookie } from "./harness.js";
import { type SqlStorageFixture, sqlStorage } from "./storage.js";
import { type ManualClock, manualClock } from "../../src/core/clock.js";
import type { SigningKeyring } from "../../src/tokens/keyring.js";

export const FOCUS_FLOW = fileURLToPath(
  new URL("../../../../examples/apps/focus-flow", import.meta.url),
);

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

export interface RuntimeServer extends Harness {
  url: string;
  runtime: NexusRuntime;
  /** Another node on the same database and keys: a runtime of its own. */
  secondNode(): NexusRuntime;
  /**
   * Another whole node over HTTP on the same database (or `db`, a second connection to it) and
   * keys, with its own runtime on `events` (its own in-process bus without).
   */
  secondServer(opts?: {
    db?: DatabaseHandle;
    events?: EventBus;
  }): Promise<Pick<RuntimeServer, "url" | "http" | "runtime">>;
  /** The registry's database and the blob store bundles are served from. */
  db: DatabaseHandle["db"];
  blobs: SqlStorageFixture["blobs"];
  /** The numeric app id focus-flow got. */
  appId: string;
  version: string;
  /** A request over the socket; JSON bodies, optional cookie and window token. */
  http(
    method: string,
    path: string,
    opts?: { body?: unknown; cookie?: string; token?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Signs up over HTTP; the user's id and session cookie. */
  user(email: string): Promise<{ id: number; cookie: string }>;
  /** Installs focus-flow for the user (`enabled: false` disables it again). */
  install(userId: number, opts?: { enabled?: boolean }): Promise<void>;
  /** One rpc call of `window_uuid` with `token`; the parsed envelope. */
  rpc(
    token: string | undefined,
    windowUuid: string,
    ns: string,
    method: string,
    args?: unknown,
  ): Promise<{ ok: boolean; result?: unknown; error?: { code: string; message: string } }>;
}

/** One node: the whole app with its runtime, listening on a free port. */
async function serveNode(
  h: DatabaseHandle,
  opts: {
    clock: ManualClock;
    fixture: SqlStorageFixture;
    keyring?: SigningKeyring;
    events?: EventBus;
  },
) {
  const { clock, fixture } = opts;
  let runtime: NexusRuntime | undefined;
  const base = harness(
    h,
    {},
    {
      clock,
      storage: { kv: fixture.kv, files: fixture.files, blobs: fixture.blobs },
      ...(opts.keyring === undefined ? {} : { keyring: opts.keyring }),
      runtime: (keyring) =>
        (runtime = createNexusRuntime({
          db: h.db,
          keyring,
          clock,
          logger: nullLogger,
          storage: fixture.kv,
          ...(opts.events === undefined ? {} : { events: opts.events }),
        })),
    },
  );
  const server = serve({ fetch: base.app.fetch, port: 0, hostname: "127.0.0.1" });
  servers.push({
    close: async () => {
      server.close();
      await runtime?.close();
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, runtime: runtime as NexusRuntime, url, http: httpTo(url) };
}

function httpTo(url: string): RuntimeServer["http"] {
  return (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.token !== undefined) headers["x-anna-app-token"] = opts.token;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.body);
    }
    return fetch(`${url}${path}`, { method, headers, body });
  };
}

export async function runtimeServer(
  h: DatabaseHandle,
  opts: { events?: EventBus } = {},
): Promise<RuntimeServer> {
  const clock = manualClock(Date.now());
  const fixture = await sqlStorage(h, clock);
  const { base, runtime, url, http } = await serveNode(h, { clock, fixture, ...opts });
  const loaded = await readAppFolder(FOCUS_FLOW);
  const { appId } = await putAppVersion(h.db, loaded, clock.now());
  return {
    ...base,
    url,
    runtime,
    async secondServer(second = {}) {
      const node = await serveNode(second.db ?? h, {
        clock,
        fixture,
        keyring: base.keyring,
        ...(second.events === undefined ? {} : { events: second.events }),
      });
      return { url: node.url, http: node.http, runtime: node.runtime };
    },
    secondNode: () =>
      createNexusRuntime({
        db: h.db,
        keyring: base.keyring,
        clock,
        logger: nullLogger,
        storage: fixture.kv,
      }),
    db: h.db,
    blobs: fixture.blobs,
    appId: String(appId),
    version: loaded.version,
    http,
    async user(email) {
      const res = await http("POST", "/api/v1/auth/signup", {
        body: { email, password: "correct horse battery" },
      });
      if (res.status !== 201) throw new Error(`signup ${res.status}: ${await res.text()}`);
      const cookie = sessionCookie(res);
      const me = (await (await http("GET", "/api/v1/me", { cookie })).json()) as { id: number };
      return { id: me.id, cookie };
    },
    install: (userId, opts = {}) =>
      installApp(h.db, { userId, appId, version: loaded.version, ...opts }, clock.now()),
    async rpc(token, windowUuid, ns, method, args = {}) {
      const res = await http("POST", "/api/v1/anna-apps/runtime/rpc", {
        ...(token === undefined ? {} : { token }),
        body: { id: "1", window_uuid: windowUuid, ns, method, args },
      });
      if (res.status !== 200) throw new Error(`rpc answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as Awaited<ReturnType<RuntimeServer["rpc"]>>;
    },
  };
}
