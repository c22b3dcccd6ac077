// A real Nexus with APS storage for the CLI's real-storage tests: the @anna-ai/nexus app on a temp
// SQLite file (or a database the caller opened) and a filesystem blob store, with its token keyring, listening on 127.0.0.1 port 0.
// The clock and the storage limits are the caller's, so the storage contract suite can move time
// and shrink quotas; developers are created straight in the store with a PAT, as
// `anna-nexus admin create-user --developer` plus a device login would leave them.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import type { StorageLimits } from "@anna-ai/executa-host/storage";
import {
  createApp,
  createSqlFilesService,
  createSqlStorageService,
  hashPassword,
  kekFromBytes,
  migrateToLatest,
  mintPat,
  nullLogger,
  openBlobStore,
  openDatabase,
  resolveConfig,
  SigningKeyring,
  sqlStores,
  systemClock,
  type DatabaseHandle,
  type Stores,
} from "@anna-ai/nexus";
import {
  credentialsPath,
  emptyStore,
  saveCredentials,
  withAccount,
} from "../../src/account/credentials-file.js";

const SCRYPT = { N: 2 ** 10, r: 8, p: 1 };

export interface StorageNexus {
  /** `http://127.0.0.1:<port>`, also its canonical host. */
  url: string;
  stores: Stores;
  /** A verified developer with an `aps:dev` PAT. */
  developer(email: string): Promise<{ userId: number; pat: string; patId: number }>;
  close(): Promise<void>;
}

export async function startStorageNexus(
  options: {
    clock?: () => number;
    limits?: Partial<StorageLimits>;
    /** A migrated database (e.g. PostgreSQL from Nexus's dialect helpers); default SQLite. */
    database?: DatabaseHandle;
  } = {},
): Promise<StorageNexus> {
  const clock = options.clock === undefined ? systemClock : { now: options.clock };
  const dataDir = mkdtempSync(path.join(tmpdir(), "cli-real-storage-nexus-"));
  const handle = options.database ?? openDatabase({ dataDir });
  if (options.database === undefined) await migrateToLatest(handle.db);
  const stores = sqlStores(handle.db);
  const keyring = new SigningKeyring({
    store: stores.signingKeys,
    kek: kekFromBytes(randomBytes(32), "test"),
    clock,
  });
  await keyring.ensureKey();
  let url = "";
  const blobs = await openBlobStore({
    url: undefined,
    dataDir,
    origin: () => url,
    clock: clock.now,
  });
  const limits = options.limits === undefined ? {} : { limits: options.limits };
  const app = createApp({
    stores,
    keyring,
    clock,
    logger: nullLogger,
    config: resolveConfig({}),
    pingDatabase: handle.ping,
    passwordParams: SCRYPT,
    storage: {
      kv: createSqlStorageService({ db: handle.db, clock: clock.now, ...limits }),
      files: createSqlFilesService({
        db: handle.db,
        blobs,
        clock: clock.now,
        logger: nullLogger,
        ...limits,
      }),
      blobs,
    },
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    stores,
    async developer(email) {
      const user = await stores.users.create(
        {
          email,
          passwordHash: await hashPassword("correct horse battery", SCRYPT),
          developer: true,
        },
        clock.now(),
      );
      const { pat, token } = await mintPat(stores, {
        userId: user.id,
        scopes: ["aps:dev"],
        label: null,
        now: clock.now(),
        ttlMs: 86_400_000,
      });
      return { userId: user.id, pat, patId: token.id };
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A config folder (`XDG_CONFIG_HOME`) whose credentials file holds one account, `host` with
 * `pat`, as `anna-app login` leaves it; the env that selects it, with no ANNA_APP_* override.
 */
export async function savedAccountEnv(
  configDir: string,
  host: string,
  pat: string,
): Promise<Record<string, string | undefined>> {
  const env = { XDG_CONFIG_HOME: configDir, ANNA_APP_HOST: undefined, ANNA_APP_PAT: undefined };
  const now = Math.floor(Date.now() / 1000);
  await saveCredentials(
    credentialsPath(env),
    withAccount(emptyStore(), {
      host,
      user_id: null,
      pat,
      issued_at: now,
      expires_at: now + 86_400,
      scopes: ["aps:dev"],
    }),
  );
  return env;
}
