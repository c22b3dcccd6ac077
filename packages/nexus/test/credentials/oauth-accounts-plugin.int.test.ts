// A real plugin process reaches the user's connected accounts through the server's pool: it is
// published through the binary upload API, installed and described by the executa runtime, and
// on invoke gets `$access_token` in `context.credentials` (the default account's live token) and
// a `credentials_token` whose claim covers the provider its declared name maps to; its
// `credentials/listAccounts|getToken` calls come back with metadata and a refreshed token, and a
// provider outside the claim is -32061. No token reaches the answer or a log; the refresh token
// never reaches the plugin.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { sqlCredentialVault } from "../../src/credentials/credential-vault.js";
import { brokeredInvokeCredentials } from "../../src/credentials/invoke-credentials.js";
import { platformCredentialsService } from "../../src/credentials/platform-credentials-service.js";
import { openExecutaRuntime } from "../../src/executas/open-executa-runtime.js";
import { tarGz } from "../../../../tests/support/archives.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { pluginServer, publishArchive, reachableTempDir } from "../executas/published-executas.js";
import { ADA_HOME, ADA_WORK, oauthWorld } from "./oauth-world.js";

useDialectCleanup();

const PLUGIN = fileURLToPath(new URL("./fixtures/oauth-accounts.mjs", import.meta.url));
const sha = (v: string) => createHash("sha256").update(v).digest("hex");

describe.each(DIALECTS)("a plugin's connected accounts on $name", (d) => {
  it.skipIf(d.skip)(
    "injects the default account's token and serves credentials/* to a real plugin",
    { timeout: 120_000 },
    async () => {
      const db = await d.open();
      const s = await pluginServer(db);
      const w = await oauthWorld(db);
      const archive = tarGz([
        { name: "bin/oauth-accounts", data: readFileSync(PLUGIN), mode: 0o755 },
      ]);
      const published = await publishArchive(s, archive, "bin/oauth-accounts");
      const clock = () => s.clock.now();
      const blobs = new FsBlobStore({ root: s.blobRoot, origin: () => s.hub.url, clock });
      await blobs.init();
      const vault = sqlCredentialVault({ db: db.db, kek: w.kek, clock: s.clock });
      const dataDir = reachableTempDir("anna-oauth-plugin-data-");
      const runtime = openExecutaRuntime({
        db: db.db,
        blobs,
        dataDir,
        env: {},
        sandbox: { mode: "none", root: path.join(dataDir, "sandbox"), allowUnsandboxed: true },
        selfOrigins: () => [s.hub.url],
        tokens: s.h.keyring,
        credentials: brokeredInvokeCredentials({
          db: db.db,
          vault,
          accounts: w.accounts,
          logger: w.logger,
        }),
        platformCredentials: platformCredentialsService(w.accounts),
        credentialAliases: w.registry.credentialAliases(),
        logger: w.logger,
        clock,
      });
      onTestFinished(() => runtime.close());
      const executa = await runtime.prepare(published.toolId, published.executaVersionId);

      const cookie = await w.h.signup("ada@example.com");
      const ada = (await w.h.stores.users.findCredentials("ada@example.com"))!.user.id;
      const executaId = (
        await db.db
          .selectFrom("executas")
          .select("id")
          .where("tool_id", "=", published.toolId)
          .executeTakeFirstOrThrow()
      ).id;
      await db.db
        .insertInto("user_executas")
        .values({
          user_id: ada,
          executa_id: executaId,
          executa_version_id: published.executaVersionId,
          source: "user",
          source_app_id: null,
          enabled: 1,
          installed_at: clock(),
          updated_at: clock(),
        })
        .execute();
      const invoke = async (args: Record<string, unknown> = {}) => {
        const out = await runtime.pool.invoke(String(ada), executa, "use_accounts", args);
        expect(out, JSON.stringify(out)).toMatchObject({ ok: true });
        return { raw: JSON.stringify(out), data: (out as { data: Record<string, unknown> }).data };
      };

      // Nothing connected yet: a token to ask with, no injected value, NOT_GRANTED from getToken.
      const before = await invoke();
      expect(before.data).toMatchObject({
        has_credentials_token: true,
        injected_sha: null,
        accounts: [],
        token: { error: -32061, reason: "CREDENTIALS_NOT_GRANTED" },
        outside_error: -32061,
      });

      await w.connect(cookie, ADA_WORK);
      await w.connect(cookie, ADA_HOME);
      const work = w.fake.accessTokenOf(ADA_WORK.sub)!;
      const after = await invoke();
      expect(after.data).toMatchObject({
        injected_sha: sha(work),
        accounts: [
          { account_id: ADA_WORK.sub, email: ADA_WORK.email, is_default: true, status: "active" },
          { account_id: ADA_HOME.sub, email: ADA_HOME.email, is_default: false, status: "active" },
        ],
        token: { sha: sha(work), account_id: ADA_WORK.sub },
        outside_error: -32061,
      });

      // The other account by id; then, once expired, the injected and fetched tokens are refreshed.
      const home = await invoke({ account: ADA_HOME.sub });
      expect(home.data.token).toMatchObject({
        sha: sha(w.fake.accessTokenOf(ADA_HOME.sub)!),
        account_id: ADA_HOME.sub,
      });
      w.clock.advance(3600 * 1000);
      const refreshed = await invoke();
      const fresh = w.fake.accessTokenOf(ADA_WORK.sub)!;
      expect(fresh).not.toBe(work);
      expect(refreshed.data).toMatchObject({
        injected_sha: sha(fresh),
        token: { sha: sha(fresh) },
      });
      expect(w.fake.counts.refresh_token).toBe(1);

      const everything = [
        before.raw,
        after.raw,
        home.raw,
        refreshed.raw,
        w.logger.lines.join("\n"),
        s.h.logs.join("\n"),
      ].join("\n");
      for (const t of [work, fresh, ...w.fake.refreshTokens()]) expect(everything).not.toContain(t);
    },
  );
});
