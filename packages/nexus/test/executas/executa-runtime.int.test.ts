// The server's executa runtime on real databases (SQLite and PostgreSQL), a real blob store and
// real plugin processes: a version published through the binary upload API installs from the
// blob store under the server's data folder (never over HTTP to itself), once per version,
// shared by concurrent prepares; it is described once per database (a restart and a second
// server read the cached manifest); the examples run in the bwrap sandbox and, with the
// operator's opt-out, without it, their sampling reaching the offline gateway (accounted in
// `llm_usage`) and their storage landing in the SQL KV under the user who ran them. What the
// server cannot run is refused with what is wrong.
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { type SandboxOptions, SandboxRefusedError } from "@anna-ai/agent";
import { describe, expect, it, onTestFinished } from "vitest";
import { BWRAP, SKIP_REASON } from "../../../agent/test/executor/sandbox-helpers.js";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { llmFromEnv } from "../../src/cli/llm-env.js";
import { openCopilot } from "../../src/copilot/copilot-services.js";
import { resolveConfig } from "../../src/core/config.js";
import { NexusError } from "../../src/core/errors.js";
import { memoryLogger } from "../../src/core/logger.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import type { ExecutaRuntime } from "../../src/executas/executa-runtime.js";
import { installRequestOf } from "../../src/executas/frozen-version.js";
import { openExecutaRuntime } from "../../src/executas/open-executa-runtime.js";
import { createSqlFilesService } from "../../src/storage/sql-files-store.js";
import { createSqlStorageService } from "../../src/storage/sql-kv-store.js";
import { type BinaryServer, MY } from "../helpers/binaries.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { storeFixture } from "../helpers/store-fixture.js";
import {
  PLATFORM,
  type PublishedExecuta,
  pluginServer,
  publishArchive,
  pyWeatherArchive,
  reachableTempDir,
  silentArchive,
  tsNotesArchive,
} from "./published-executas.js";

useDialectCleanup();

const SLOW = { timeout: 120_000 };
type SandboxFor = (root: string) => SandboxOptions;
const UNSANDBOXED: SandboxFor = (root) => ({ mode: "none", root, allowUnsandboxed: true });
const BWRAP_SANDBOX: SandboxFor = (root) => ({ mode: "bwrap", root });

interface RunningRuntime {
  runtime: ExecutaRuntime;
  logger: ReturnType<typeof memoryLogger>;
  /** Every URL the runtime fetched over the network. */
  remote: string[];
  /** How many times a plugin was started to describe itself. */
  describes(): number;
}

async function openRuntime(
  db: DatabaseHandle,
  s: BinaryServer,
  dataDir: string,
  sandboxFor: SandboxFor,
): Promise<RunningRuntime> {
  const clock = () => s.clock.now();
  // The server's own blob store: the folder the upload API wrote into.
  const blobs = new FsBlobStore({ root: s.blobRoot, origin: () => s.hub.url, clock });
  await blobs.init();
  const logger = memoryLogger();
  const remote: string[] = [];
  const copilot = await openCopilot({
    db: db.db,
    llm: llmFromEnv({}).llm,
    quota: resolveConfig({}).llmQuota,
    clock,
    blobs,
  });
  const runtime = openExecutaRuntime({
    db: db.db,
    blobs,
    dataDir,
    env: {},
    sandbox: sandboxFor(path.join(dataDir, "sandbox")),
    selfOrigins: () => [s.hub.url],
    copilot,
    storage: {
      kv: createSqlStorageService({ db: db.db, clock }),
      files: createSqlFilesService({ db: db.db, blobs, clock, logger }),
    },
    tokens: s.h.keyring,
    logger,
    clock,
    fetch: (input) => {
      remote.push(String(input));
      return Promise.reject(new Error("this test has no network"));
    },
  });
  onTestFinished(() => runtime.close());
  return {
    runtime,
    logger,
    remote,
    describes: () => logger.lines.filter((l) => l.includes('"msg":"executa described"')).length,
  };
}

async function rejection(p: Promise<unknown>): Promise<NexusError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NexusError);
  return err as NexusError;
}

/** A tool whose frozen version has these `binary_urls` (nothing uploaded). */
async function publishUrls(s: BinaryServer, binaryUrls: Record<string, string>) {
  const { pat, id, toolId } = await s.tool();
  const put = await s.hub.call(pat, "PUT", `${MY}/tools/${id}`, {
    body: { name: "Grep", version: "1.0.0", distribution_type: "binary", binary_urls: binaryUrls },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const frozen = await s.hub.call(pat, "POST", `${MY}/tools/${id}/versions`, {
    body: { version: "1.0.0" },
  });
  expect(frozen.status, JSON.stringify(frozen.body)).toBe(201);
  return { toolId, executaVersionId: (frozen.body as { id: number }).id };
}

const toolDir = (dataDir: string, toolId: string) =>
  path.join(dataDir, "executas", "tools", toolId);

describe.each(DIALECTS)("the executa runtime on $name", (d) => {
  it.skipIf(d.skip)(
    "installs a published version from the blob store once and describes it once per database",
    SLOW,
    async () => {
      const db = await d.open();
      const s = await pluginServer(db);
      const notes = await publishArchive(s, await tsNotesArchive(), "bin/ts-notes.mjs");
      expect(notes.url.startsWith(`${s.hub.url}/api/v1/executas/binaries/`)).toBe(true);
      const dataDir = reachableTempDir("anna-runtime-data-");
      const first = await openRuntime(db, s, dataDir, UNSANDBOXED);

      // Concurrent prepares share one install and one describe.
      const [a, b] = await Promise.all([
        first.runtime.prepare(notes.toolId, notes.executaVersionId),
        first.runtime.prepare(notes.toolId, notes.executaVersionId),
      ]);
      expect(b).toBe(a);
      expect(a).toMatchObject({
        toolId: notes.toolId,
        version: "1.0.0",
        executaVersionId: notes.executaVersionId,
        trusted: false,
      });
      expect(a.spec.dir).toBe(path.join(toolDir(dataDir, notes.toolId), "v1.0.0"));
      expect(a.manifest.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["add_note", "list_notes", "summarize_notes", "echo"]),
      );
      expect(readdirSync(toolDir(dataDir, notes.toolId)).filter((f) => f.startsWith("."))).toEqual(
        [],
      );
      expect(first.remote).toEqual([]);
      expect(first.describes()).toBe(1);
      expect(await first.runtime.prepare(notes.toolId, notes.executaVersionId)).toBe(a);
      const cached = await db.db
        .selectFrom("executa_manifests")
        .selectAll()
        .where("executa_version_id", "=", notes.executaVersionId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(cached.manifest)).toEqual(a.manifest);

      const echoed = await first.runtime.pool.invoke("1", a, "echo", { text: "hi" });
      expect(echoed).toMatchObject({ ok: true, data: { text: "hi" } });
      await first.runtime.close();

      // A restart on the same data folder and database: nothing installed or described again.
      const restarted = await openRuntime(db, s, dataDir, UNSANDBOXED);
      const again = await restarted.runtime.prepare(notes.toolId, notes.executaVersionId);
      expect(again.manifest).toEqual(a.manifest);
      expect(again.spec.dir).toBe(a.spec.dir);
      expect(restarted.describes()).toBe(0);

      // A second server on the same database installs its own copy and reads the manifest.
      const otherData = reachableTempDir("anna-runtime-data-");
      const second = await openRuntime(db, s, otherData, UNSANDBOXED);
      const theirs = await second.runtime.prepare(notes.toolId, notes.executaVersionId);
      expect(theirs.spec.dir.startsWith(otherData)).toBe(true);
      expect(existsSync(path.join(theirs.spec.dir, "INSTALL.json"))).toBe(true);
      expect(second.describes()).toBe(0);
      expect(second.remote).toEqual([]);
    },
  );

  it.skipIf(d.skip)("refuses what it cannot run, saying what is wrong", SLOW, async () => {
    const db = await d.open();
    const s = await pluginServer(db);
    const dataDir = reachableTempDir("anna-runtime-data-");
    const r = await openRuntime(db, s, dataDir, UNSANDBOXED);

    const uv = await storeFixture(db.db, s.h.stores, s.clock).tool("uv-tool");
    const pm = await rejection(r.runtime.prepare(uv.toolId, uv.versionId));
    expect(pm.code).toBe("executa_not_installable");
    expect(pm.message).toMatch(
      /distributed through uv .*the server runs only binary distributions/,
    );

    const elsewhere = await publishUrls(s, {
      "windows-x86_64": "https://dl.example.com/t-windows.zip",
      "darwin-arm64": "https://dl.example.com/t-darwin.tar.gz",
    });
    const noAsset = await rejection(
      r.runtime.prepare(elsewhere.toolId, elsewhere.executaVersionId),
    );
    expect(noAsset.code).toBe("executa_not_installable");
    expect(noAsset.details).toMatchObject({ install_error: "NO_ASSET" });
    expect(noAsset.message).toContain(PLATFORM);

    // Not this server's own URL and not https: never fetched.
    const plain = await publishUrls(s, { [PLATFORM]: "http://127.0.0.1:9/plugin.tar.gz" });
    const http = await rejection(r.runtime.prepare(plain.toolId, plain.executaVersionId));
    expect(http.code).toBe("upstream_error");
    expect(http.message).toMatch(/only over https/);
    expect(r.remote).toEqual([]);
    expect(existsSync(path.join(toolDir(dataDir, plain.toolId), "v1.0.0"))).toBe(false);

    const silent = await publishArchive(s, silentArchive(), "bin/silent");
    const mute = await rejection(r.runtime.prepare(silent.toolId, silent.executaVersionId));
    expect(mute.code).toBe("executa_not_installable");
    expect(mute.details).toMatchObject({ stage: "describe" });
    expect(mute.message).toMatch(/did not describe itself: .*answer `describe` on stdio/);
    const rows = await db.db
      .selectFrom("executa_manifests")
      .select("executa_version_id")
      .where("executa_version_id", "=", silent.executaVersionId)
      .execute();
    expect(rows).toEqual([]);

    // A version id of another tool is not served under this one's name.
    const wrong = await rejection(r.runtime.prepare(uv.toolId, silent.executaVersionId));
    expect(wrong.code).toBe("not_found");
    expect(wrong.message).toContain(`belongs to ${silent.toolId}, not ${uv.toolId}`);
    const missing = await rejection(r.runtime.prepare(uv.toolId, 999_999));
    expect(missing.code).toBe("not_found");
  });
});

describe("what the runtime refuses before any work", () => {
  it("says a skill has no process to run", () => {
    const v = {
      toolId: "skill-x",
      executaType: "skill",
      version: "1.0.0",
      executaVersionId: 1,
      snapshot: {},
    };
    expect(() => installRequestOf(v)).toThrow(/is a skill: it has no process to run/);
  });
});

const SANDBOXES = [
  { name: "in the bwrap sandbox", sandbox: BWRAP_SANDBOX, skip: !BWRAP.usable },
  { name: "unsandboxed with the operator's opt-out", sandbox: UNSANDBOXED, skip: false },
];
if (!BWRAP.usable) console.warn(`skipping the bwrap half of the executa runtime: ${SKIP_REASON}`);
const sqlite = DIALECTS[0]!;

describe.each(SANDBOXES)("installed examples run $name", ({ sandbox, skip }) => {
  async function setUp(archive: Buffer, entrypoint: string) {
    const db = await sqlite.open();
    const s = await pluginServer(db);
    const published: PublishedExecuta = await publishArchive(s, archive, entrypoint);
    const r = await openRuntime(db, s, reachableTempDir("anna-runtime-data-"), sandbox);
    const executa = await r.runtime.prepare(published.toolId, published.executaVersionId);
    return { db, s, r, executa };
  }

  it.skipIf(skip)("runs the Python example's tool", SLOW, async () => {
    const { s, r, executa } = await setUp(pyWeatherArchive(), "bin/py-weather");
    const { userId } = await s.hub.developer(null);
    expect(executa.manifest.tools.map((t) => t.name)).toContain("get_weather");
    const status = await r.runtime.pool.invoke(String(userId), executa, "api_key_status", {});
    // This runtime is opened without a credential vault: an invoke carries no credentials.
    expect(status).toMatchObject({ ok: true, data: { configured: false } });
  });

  it.skipIf(skip)(
    "serves the Node example's storage and sampling from the server's services, per user",
    SLOW,
    async () => {
      const { db, s, r, executa } = await setUp(await tsNotesArchive(), "bin/ts-notes.mjs");
      const alice = String((await s.hub.developer(null)).userId);
      const bob = String((await s.hub.developer(null)).userId);
      const { pool } = r.runtime;

      const added = await pool.invoke(alice, executa, "add_note", { text: "buy figs" });
      expect(added, JSON.stringify(added)).toMatchObject({ ok: true, data: { count: 1 } });
      const rows = await db.db
        .selectFrom("storage_kv")
        .select(["user_id", "scope", "owner_id", "key", "payload"])
        .where("deleted_at", "is", null)
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatchObject({ user_id: alice });
      expect(rows.some((row) => row.payload.includes("buy figs"))).toBe(true);

      const mine = await pool.invoke(alice, executa, "list_notes", {});
      expect(mine).toMatchObject({ ok: true, data: { total: 1 } });
      const theirs = await pool.invoke(bob, executa, "list_notes", {});
      expect(theirs).toMatchObject({ ok: true, data: { notes: [], total: 0 } });

      const summary = await pool.invoke(alice, executa, "summarize_notes", { max_tokens: 50 });
      expect(summary, JSON.stringify(summary)).toMatchObject({ ok: true, data: { note_count: 1 } });
      const usage = await db.db
        .selectFrom("llm_usage")
        .select(["user_id", "tool_id", "purpose", "provider"])
        .execute();
      expect(usage).toEqual([
        expect.objectContaining({ user_id: alice, tool_id: executa.toolId, provider: "offline" }),
      ]);
    },
  );
});

describe("an unsandboxed server without the opt-out", () => {
  it("refuses to run a Hub executa, saying how to opt out", SLOW, async () => {
    const db = await sqlite.open();
    const s = await pluginServer(db);
    const published = await publishArchive(s, pyWeatherArchive(), "bin/py-weather");
    const r = await openRuntime(db, s, reachableTempDir("anna-runtime-data-"), (root) => ({
      mode: "none",
      root,
    }));
    const prepared = r.runtime.prepare(published.toolId, published.executaVersionId);
    // Even describing it would run it: the refusal comes at prepare.
    const err = await prepared.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NexusError);
    expect((err as NexusError).code).toBe("unavailable");
    expect((err as NexusError).cause).toBeInstanceOf(SandboxRefusedError);
    expect((err as NexusError).message).toMatch(/ANNA_SANDBOX_ALLOW_UNSANDBOXED=1/);
  });
});
