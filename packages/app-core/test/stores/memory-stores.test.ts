// The store contracts (store-contracts.ts) on the in-memory implementations, plus the memory job
// store's retention of finished jobs.
import { describe, expect, it } from "vitest";
import {
  createMemoryChatStore,
  createMemoryDeckStore,
  createMemoryToolJobStore,
  createMemoryWindowStore,
} from "../../src/index.js";
import {
  chatStoreContract,
  deckStoreContract,
  toolJobStoreContract,
  windowStoreContract,
} from "../../src/store-contract/index.js";

windowStoreContract("memory", createMemoryWindowStore);
toolJobStoreContract("memory", () => createMemoryToolJobStore());
chatStoreContract("memory", createMemoryChatStore);
deckStoreContract("memory", createMemoryDeckStore);

describe("the memory ToolJobStore's retention", () => {
  it("forgets the oldest finished jobs past its limit, never an active one", async () => {
    const store = createMemoryToolJobStore({ retainedMax: 2 });
    const base = {
      userId: "u",
      appId: "a",
      versionId: "v",
      toolId: "t",
      tool: "m",
      clientTag: null,
      createdAt: 1,
      updatedAt: 1,
      deadlineMs: 9,
      seq: 1,
    };
    await store.insert({ ...base, jobId: "active", state: "running" });
    await store.insert({ ...base, jobId: "done-1", state: "queued" });
    await store.insert({ ...base, jobId: "done-2", state: "queued" });
    await store.transition("done-1", ["queued"], { state: "succeeded" }, 2);
    await store.transition("done-2", ["queued"], { state: "failed" }, 3);
    expect((await store.list({ userId: "u" })).map((j) => j.jobId)).toEqual(["done-2", "active"]);
  });
});
