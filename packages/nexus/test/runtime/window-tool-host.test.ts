// A window's `tools.invoke` on the server: the user's installed executa, prepared by the executa
// runtime and run in its pool (the ts-notes example as a real process, its storage the SQL APS
// store), one process shared with the chat's invokes; one not installed, disabled or that cannot
// be prepared answers `executa_unavailable` saying which and what to do.
import { createAllowAllGrantPolicy } from "@anna-ai/executa-host";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { systemClock } from "../../src/core/clock.js";
import { executaToolHost } from "../../src/runtime/window-tool-host.js";
import { createSqlStorageService } from "../../src/storage/sql-kv-store.js";
import { sqlStores } from "../../src/stores/sql-stores.js";
import { TS_NOTES_DIR } from "../helpers/chat-world.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { folderExecutaRuntime } from "../helpers/folder-executa-runtime.js";
import { storeFixture } from "../helpers/store-fixture.js";

useDialectCleanup();

async function world() {
  const handle = await DIALECTS[0]!.open();
  const stores = sqlStores(handle.db);
  const root = mkdtempSync(path.join(tmpdir(), "anna-window-tools-"));
  chmodSync(root, 0o711);
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const folders = new Map<string, string>();
  const broken = new Set<string>();
  const runtime = folderExecutaRuntime({
    folders,
    broken,
    pool: {
      sandbox: { mode: "none", root },
      services: { storage: createSqlStorageService({ db: handle.db, clock: () => Date.now() }) },
      grants: createAllowAllGrantPolicy(),
    },
  });
  onTestFinished(() => runtime.close());
  const fx = storeFixture(handle.db, stores, systemClock);
  const tool = await fx.tool("ts-notes");
  folders.set(tool.toolId, TS_NOTES_DIR);
  const user = await stores.users.create(
    { email: "windows@example.com", passwordHash: "x", isVerified: true },
    Date.now(),
  );
  const install = (enabled: number) =>
    handle.db
      .insertInto("user_executas")
      .values({
        user_id: user.id,
        executa_id: tool.executaId,
        executa_version_id: tool.versionId,
        source: "app",
        source_app_id: null,
        enabled,
        installed_at: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
  return {
    handle,
    runtime,
    tool,
    user,
    install,
    broken,
    host: executaToolHost(handle.db, runtime),
  };
}

describe("executaToolHost", () => {
  it("runs the user's installed executa in the runtime's pool, its storage the server's", async () => {
    const w = await world();
    await w.install(1);
    const userId = String(w.user.id);
    const outcome = await w.host.invoke(userId, w.tool.toolId, "add_note", { text: "buy milk" });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(outcome.ok && outcome.data).toMatchObject({ count: 1 });
    // The chat's process: the pool holds one for (user, tool), started once.
    expect(w.runtime.pool.pidOf(userId, w.tool.toolId)).toBeDefined();
    expect(w.runtime.prepared).toEqual([
      { toolId: w.tool.toolId, executaVersionId: w.tool.versionId },
    ]);
    const rows = await w.handle.db
      .selectFrom("storage_kv")
      .select(["user_id", "payload"])
      .where("key", "like", "notes/%")
      .execute();
    expect(rows.map((r) => r.user_id)).toEqual([userId]);
    expect(rows[0]?.payload).toContain("buy milk");
    // Described once, the manifest gives the declared timeouts.
    expect(w.host.get(userId, w.tool.toolId)?.manifest?.tools.map((t) => t.name)).toContain(
      "add_note",
    );
  });

  it("answers executa_unavailable for one not installed, disabled or that cannot run", async () => {
    const w = await world();
    const userId = String(w.user.id);
    const call = () => w.host.invoke(userId, w.tool.toolId, "add_note", { text: "x" });
    await expect(call()).rejects.toMatchObject({
      code: "executa_unavailable",
      message: expect.stringMatching(/is not installed for this user \(installing the app/),
    });
    await w.install(0);
    await expect(call()).rejects.toMatchObject({
      code: "executa_unavailable",
      message: expect.stringMatching(/is disabled for this user \(enable it in My apps\)/),
    });
    await w.handle.db.updateTable("user_executas").set({ enabled: 1 }).execute();
    w.broken.add(w.tool.toolId);
    await expect(call()).rejects.toMatchObject({
      code: "executa_unavailable",
      message: expect.stringMatching(/cannot run here: no plugin folder is configured/),
    });
    expect(w.runtime.pool.size).toBe(0);
  });
});
