// A chat server whose turns see what a user installed: the Nexus harness with chat on a fake
// OpenAI-compatible provider (real HTTP), turn assembly over the real tables, and the
// ts-notes example plugin as a real process in an ExecutaPool whose sampling is the same gateway
// and whose storage is the server's SQL APS storage. Apps, tools and skills are published
// through the Executa Hub and the store fixture; users install them over HTTP.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createGatewaySamplingService, type AgentTool, type AppViews } from "@anna-ai/agent";
import { createAllowAllGrantPolicy } from "@anna-ai/executa-host";
import { onTestFinished } from "vitest";
import { turnAssembler } from "../../src/chat/turn-assembly.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { executaHub } from "../../src/hub/executa-hub.js";
import { sqlExecutaStore } from "../../src/hub/executa-store.js";
import { createSqlStorageService } from "../../src/storage/sql-kv-store.js";
import { chatHarness, readEvents } from "./chat.js";
import { folderExecutaRuntime, type FolderExecutaRuntime } from "./folder-executa-runtime.js";
import { storeFixture } from "./store-fixture.js";

export const TS_NOTES_DIR = fileURLToPath(
  new URL("../../../../examples/executas/ts-notes/", import.meta.url),
);

export async function chatWorld(
  handle: DatabaseHandle,
  opts: { platformTools?: readonly AgentTool[]; appViews?: AppViews } = {},
) {
  // Filled by the test once the Hub has minted the tool ids.
  const folders = new Map<string, string>();
  const broken = new Set<string>();
  const stuck = new Set<string>();
  let runtime: FolderExecutaRuntime | undefined;
  const sandboxRoot = mkdtempSync(path.join(tmpdir(), "anna-chat-world-"));
  chmodSync(sandboxRoot, 0o711);
  onTestFinished(() => rmSync(sandboxRoot, { recursive: true, force: true }));
  const ch = await chatHarness(handle, {
    assemble: (gateway) => {
      const clock = () => Date.now();
      runtime = folderExecutaRuntime({
        folders,
        broken,
        stuck,
        pool: {
          sandbox: { mode: "none", root: sandboxRoot },
          services: {
            sampling: createGatewaySamplingService({ gateway, clock }),
            storage: createSqlStorageService({ db: handle.db, clock }),
          },
          grants: createAllowAllGrantPolicy(),
        },
      });
      return turnAssembler({
        db: handle.db,
        executas: runtime,
        ...(opts.platformTools ? { platformTools: opts.platformTools } : {}),
        ...(opts.appViews ? { appViews: opts.appViews } : {}),
        logger: { log: () => {} },
      });
    },
  });
  // The pool's plugin processes stop when the test ends.
  const rt = runtime as unknown as FolderExecutaRuntime;
  onTestFinished(() => rt.close());
  const fx = storeFixture(handle.db, ch.h.stores, ch.h.clock);
  const hub = executaHub({ store: sqlExecutaStore(handle.db), clock: ch.h.clock });
  const user = await ch.http.developer(null, ["aps:dev"]);
  const call = (method: string, p: string, body?: unknown) =>
    ch.http.call(user.pat, method, p, body === undefined ? {} : { body });

  return {
    ...ch,
    handle,
    runtime: rt,
    /** Hub tool id → plugin folder the runtime serves it from. */
    folders,
    /** Hub tool ids whose prepare fails. */
    broken,
    /** Hub tool ids whose prepare hangs until the turn is cancelled. */
    stuck,
    fx,
    user,
    call,
    /** A public skill in the Hub (its first promotion freezes the version with the SKILL.md). */
    async publishSkill(slug: string, skillMd: string): Promise<string> {
      const dev = await ch.h.stores.users.create(
        {
          email: `${slug}@skills.example.com`,
          passwordHash: "x",
          isVerified: true,
          handle: `skiller${slug.replace(/[^a-z0-9]/g, "")}`.slice(0, 30),
        },
        ch.h.clock.now(),
      );
      const e = await hub.importSkill(dev, {
        name: slug,
        slug,
        description: `${slug} skill`,
        payload: { skill_content: skillMd, version: "1.0.0" },
      });
      await hub.setVisibility(dev, e.id, "skill", "public");
      return e.toolId;
    },
    async conversation(): Promise<string> {
      const res = await call("POST", "/api/v1/chat/conversations", {});
      return (res.body as { id: string }).id;
    },
    async turn(conversationId: string, text: string): Promise<string> {
      const res = await call("POST", `/api/v1/chat/conversations/${conversationId}/turns`, {
        text,
      });
      if (res.status !== 202) throw new Error(`turn: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as { turn_id: string }).turn_id;
    },
    events: (turnId: string, o: Parameters<typeof readEvents>[2] = {}) =>
      readEvents(`${ch.http.url}/api/v1/chat/turns/${turnId}/events`, user.pat, o),
  };
}

export type ChatWorld = Awaited<ReturnType<typeof chatWorld>>;
