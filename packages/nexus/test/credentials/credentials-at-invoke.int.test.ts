// Credentials reach a real plugin process per invoke (H10): a plugin published through the
// binary upload API, installed and described by the server's executa runtime, run by its pool
// whose credentials hook is the vault. The plugin answers which names it received (and a digest
// of each value); the values are never in its log, the server's log or the answer; another user
// invoking the same executa receives none of them.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { sqlCredentialVault } from "../../src/credentials/credential-vault.js";
import { memoryLogger } from "../../src/core/logger.js";
import { openExecutaRuntime } from "../../src/executas/open-executa-runtime.js";
import { kekFromBytes } from "../../src/tokens/key-encryption.js";
import { tarGz } from "../../../../tests/support/archives.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { pluginServer, publishArchive, reachableTempDir } from "../executas/published-executas.js";

useDialectCleanup();

const PLUGIN = fileURLToPath(new URL("./fixtures/credential-names.mjs", import.meta.url));
const SECRET = `sk_live_${randomBytes(12).toString("hex")}`;
const sha = (v: string) => createHash("sha256").update(v).digest("hex");

describe.each(DIALECTS)("credentials at invoke on $name", (d) => {
  it.skipIf(d.skip)(
    "passes the user's values to a real plugin in context.credentials, and nobody else's",
    { timeout: 120_000 },
    async () => {
      const db = await d.open();
      const s = await pluginServer(db);
      const archive = tarGz([
        { name: "bin/credential-names", data: readFileSync(PLUGIN), mode: 0o755 },
      ]);
      const published = await publishArchive(s, archive, "bin/credential-names");
      const clock = () => s.clock.now();
      const blobs = new FsBlobStore({ root: s.blobRoot, origin: () => s.hub.url, clock });
      await blobs.init();
      const vault = sqlCredentialVault({
        db: db.db,
        kek: kekFromBytes(randomBytes(32), "test"),
        clock: s.clock,
      });
      const logger = memoryLogger();
      const dataDir = reachableTempDir("anna-credentials-data-");
      const runtime = openExecutaRuntime({
        db: db.db,
        blobs,
        dataDir,
        env: {},
        sandbox: { mode: "none", root: path.join(dataDir, "sandbox"), allowUnsandboxed: true },
        selfOrigins: () => [s.hub.url],
        tokens: s.h.keyring,
        credentials: vault.forInvoke,
        logger,
        clock,
      });
      onTestFinished(() => runtime.close());
      const executa = await runtime.prepare(published.toolId, published.executaVersionId);

      const ada = (await s.hub.developer(null)).userId;
      const eve = (await s.hub.developer(null)).userId;
      const executaId = (
        await db.db
          .selectFrom("executas")
          .select("id")
          .where("tool_id", "=", published.toolId)
          .executeTakeFirstOrThrow()
      ).id;
      // Both have the executa, as an app install gives it them.
      for (const user_id of [ada, eve]) {
        await db.db
          .insertInto("user_executas")
          .values({
            user_id,
            executa_id: executaId,
            executa_version_id: published.executaVersionId,
            source: "user",
            source_app_id: null,
            enabled: 1,
            installed_at: clock(),
            updated_at: clock(),
          })
          .execute();
      }

      // The declaration comes from the plugin's own describe.
      const view = await vault.view(ada, published.toolId);
      expect(view.credentials.map((c) => [c.name, c.sensitive])).toEqual([
        ["WEATHER_API_KEY", true],
        ["WEATHER_UNITS", false],
      ]);
      const before = await runtime.pool.invoke(String(ada), executa, "which_credentials", {});
      expect(before).toMatchObject({ ok: true, data: { names: [] } });

      await vault.set(ada, published.toolId, { WEATHER_API_KEY: SECRET, WEATHER_UNITS: "metric" });
      const after = await runtime.pool.invoke(String(ada), executa, "which_credentials", {});
      expect(after).toMatchObject({
        ok: true,
        data: {
          names: ["WEATHER_API_KEY", "WEATHER_UNITS"],
          digests: { WEATHER_API_KEY: sha(SECRET), WEATHER_UNITS: sha("metric") },
        },
      });
      expect(JSON.stringify(after)).not.toContain(SECRET);

      // Eve runs the same executa (her own process, H11) and receives none of Ada's.
      const theirs = await runtime.pool.invoke(String(eve), executa, "which_credentials", {});
      expect(theirs).toMatchObject({ ok: true, data: { names: [] } });

      // A cleared value is gone from the next invoke of the same warm process.
      await vault.set(ada, published.toolId, { WEATHER_API_KEY: null });
      const cleared = await runtime.pool.invoke(String(ada), executa, "which_credentials", {});
      expect(cleared).toMatchObject({ ok: true, data: { names: ["WEATHER_UNITS"] } });

      expect(logger.lines.join("\n")).not.toContain(SECRET);
      expect(s.h.logs.join("\n")).not.toContain(SECRET);
    },
  );
});
