// app-core's store contracts (windows, tool jobs, chat, deck) on Nexus's SQL stores, on a real
// SQLite file and a real PostgreSQL database; plus what only a shared database shows: two
// store instances (two server nodes) racing on one job or one deck.
import {
  chatStoreContract,
  deckStoreContract,
  toolJobStoreContract,
  windowStoreContract,
} from "@anna-ai/app-core/store-contract";
import { pinApp } from "@anna-ai/app-core";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/core/clock.js";
import { sqlChatStore } from "../../src/runtime/sql-chat-store.js";
import { sqlDeckStore } from "../../src/runtime/sql-deck-store.js";
import { sqlToolJobStore } from "../../src/runtime/sql-tool-job-store.js";
import { sqlWindowStore } from "../../src/runtime/sql-window-store.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";

useDialectCleanup();

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(`runtime stores on ${dialect.name}`, () => {
    const db = async () => (await dialect.open()).db;
    windowStoreContract(dialect.name, async () => sqlWindowStore(await db()));
    toolJobStoreContract(dialect.name, async () => sqlToolJobStore(await db()));
    chatStoreContract(dialect.name, async () => sqlChatStore(await db()));
    deckStoreContract(dialect.name, async () => sqlDeckStore(await db(), systemClock));

    it("lets exactly one of two nodes' racing transitions win a job", async () => {
      const handle = await dialect.open();
      const [a, b] = [sqlToolJobStore(handle.db), sqlToolJobStore(handle.db)];
      for (let i = 0; i < 20; i++) {
        const jobId = `tjob_race_${i}`;
        await a.insert({
          jobId,
          userId: "alice",
          appId: "app-x",
          versionId: "v1",
          toolId: "t",
          tool: "m",
          clientTag: null,
          state: "running",
          createdAt: 1,
          updatedAt: 1,
          deadlineMs: 9,
          seq: 1,
        });
        const outcomes = await Promise.all([
          a.transition(jobId, ["running"], { state: "succeeded", result: i }, 2),
          b.transition(jobId, ["running"], { state: "cancelled" }, 3),
        ]);
        expect(outcomes.filter((o) => o !== undefined)).toHaveLength(1);
        expect((await a.get(jobId))?.seq).toBe(2);
      }
    });

    it("loses no pin when two nodes update one deck at once", async () => {
      const handle = await dialect.open();
      const nodes = [sqlDeckStore(handle.db, systemClock), sqlDeckStore(handle.db, systemClock)];
      const ids = Array.from({ length: 16 }, (_, i) => `app-${i}`);
      await Promise.all(ids.map((id, i) => nodes[i % 2]!.update("alice", pinApp(id))));
      expect((await nodes[0]!.get("alice")).sort()).toEqual([...ids].sort());
    });
  });
}
