// `@anna-ai/app-core/store-contract`: the contract every implementation of the dispatcher's stores
// must keep: copies in and out (a caller mutating a record changes nothing stored), per-user (and
// per-app) filters, the job store's guarded transitions, the deck's atomic update. The memory
// stores run it (test/stores/memory-stores.test.ts); a database store (Nexus's SQL ones) runs the
// same suites with its own factory. Needs vitest (an optional peer dependency).
import { describe, expect, it } from "vitest";
import {
  pinApp,
  reorderDeck,
  unpinApp,
  type ChatArtifact,
  type ChatMessage,
  type ChatStore,
  type DeckStore,
  type ToolJobRecord,
  type ToolJobStore,
  type WindowRecord,
  type WindowStore,
} from "../index.js";

type Factory<S> = () => S | Promise<S>;

function windowRecord(fields: Partial<WindowRecord> = {}): WindowRecord {
  return {
    windowUuid: crypto.randomUUID(),
    userId: "alice",
    appId: "app-x",
    versionId: "v1",
    view: "main",
    status: "active",
    title: "Main",
    geometry: { x: 0, y: 0, w: 800, h: 600 },
    runtimeState: { a: { n: 1 } },
    stateGeneration: 0,
    entryPayload: null,
    conversationSessionUuid: null,
    zIndex: 1,
    createdAt: 1000,
    lastFocusAt: 1000,
    lastSeenAt: 1000,
    ...fields,
  };
}

export function windowStoreContract(name: string, make: Factory<WindowStore>): void {
  describe(`${name}: WindowStore contract`, () => {
    it("inserts once, returns copies, updates and rejects unknown windows", async () => {
      const store = await make();
      const record = windowRecord();
      await store.insert(record);
      await expect(store.insert(record)).rejects.toThrow(/already exists/);
      record.title = "changed by the caller";
      const got = await store.get(record.windowUuid);
      expect(got?.title).toBe("Main");
      (got?.runtimeState.a as { n: number }).n = 99;
      expect((await store.get(record.windowUuid))?.runtimeState).toEqual({ a: { n: 1 } });
      const updated = await store.update(record.windowUuid, { status: "minimized", zIndex: 7 });
      expect(updated).toMatchObject({
        windowUuid: record.windowUuid,
        status: "minimized",
        zIndex: 7,
        title: "Main",
      });
      await expect(store.update("missing", { title: "x" })).rejects.toThrow(/no window/);
      expect(await store.get("missing")).toBeUndefined();
    });

    it("compare-and-sets on the state generation: of two writers of one state, one lands", async () => {
      const store = await make();
      const record = windowRecord({ stateGeneration: 3 });
      await store.insert(record);
      const write = (n: number) =>
        store.updateIfGeneration(record.windowUuid, 3, {
          runtimeState: { n },
          stateGeneration: 4,
        });
      const outcomes = await Promise.all([write(1), write(2)]);
      const landed = outcomes.filter((o) => o !== undefined);
      expect(landed).toHaveLength(1);
      expect(await store.get(record.windowUuid)).toMatchObject({
        stateGeneration: 4,
        runtimeState: landed[0]?.runtimeState,
      });
      expect(await write(3)).toBeUndefined();
      await expect(store.updateIfGeneration("missing", 0, { title: "x" })).rejects.toThrow(
        /no window/,
      );
    });

    it("lists one user's windows, oldest first, by app, view, conversation and status", async () => {
      const store = await make();
      const first = windowRecord({ createdAt: 1 });
      const second = windowRecord({ createdAt: 2, view: "panel", conversationSessionUuid: "c1" });
      const otherApp = windowRecord({ createdAt: 3, appId: "app-y", status: "closed" });
      const otherUser = windowRecord({ createdAt: 4, userId: "bob" });
      for (const r of [otherUser, second, otherApp, first]) await store.insert(r);
      const ids = async (filter: Parameters<WindowStore["list"]>[0]) =>
        (await store.list(filter)).map((w) => w.windowUuid);
      expect(await ids({ userId: "alice" })).toEqual([
        first.windowUuid,
        second.windowUuid,
        otherApp.windowUuid,
      ]);
      expect(await ids({ userId: "alice", appId: "app-x" })).toEqual([
        first.windowUuid,
        second.windowUuid,
      ]);
      expect(await ids({ userId: "alice", view: "panel" })).toEqual([second.windowUuid]);
      expect(await ids({ userId: "alice", conversationSessionUuid: null })).toEqual([
        first.windowUuid,
        otherApp.windowUuid,
      ]);
      expect(await ids({ userId: "alice", statuses: ["closed"] })).toEqual([otherApp.windowUuid]);
      expect(await ids({ userId: "bob" })).toEqual([otherUser.windowUuid]);
      expect(await ids({ userId: "carol" })).toEqual([]);
    });
  });
}

function jobRecord(fields: Partial<ToolJobRecord> = {}): ToolJobRecord {
  return {
    jobId: `tjob_${crypto.randomUUID().replaceAll("-", "")}`,
    userId: "alice",
    appId: "app-x",
    versionId: "v1",
    toolId: "tool-a",
    tool: "echo",
    clientTag: null,
    state: "queued",
    createdAt: 1000,
    updatedAt: 1000,
    deadlineMs: 60_000,
    seq: 1,
    ...fields,
  };
}

export function toolJobStoreContract(name: string, make: Factory<ToolJobStore>): void {
  describe(`${name}: ToolJobStore contract`, () => {
    it("transitions only from the named states, bumping seq and updatedAt", async () => {
      const store = await make();
      const job = jobRecord();
      await store.insert(job);
      await expect(store.insert(job)).rejects.toThrow(/already exists/);
      const running = await store.transition(job.jobId, ["queued"], { state: "running" }, 2000);
      expect(running).toMatchObject({ state: "running", seq: 2, updatedAt: 2000 });
      // A second "start" finds it running: refused, nothing changes.
      expect(
        await store.transition(job.jobId, ["queued"], { state: "running" }, 3000),
      ).toBeUndefined();
      const done = await store.transition(
        job.jobId,
        ["queued", "running"],
        { state: "succeeded", result: { n: 1 } },
        4000,
      );
      expect(done).toMatchObject({ state: "succeeded", seq: 3, result: { n: 1 } });
      // A cancel arriving after success loses.
      expect(
        await store.transition(
          job.jobId,
          ["queued", "running"],
          { state: "cancelled", error: { code: "cancelled", message: "late" } },
          5000,
        ),
      ).toBeUndefined();
      const stored = await store.get(job.jobId);
      expect(stored).toMatchObject({ state: "succeeded", seq: 3, updatedAt: 4000 });
      expect(stored?.error).toBeUndefined();
      (stored?.result as { n: number }).n = 2;
      expect((await store.get(job.jobId))?.result).toEqual({ n: 1 });
      expect(
        await store.transition("tjob_missing", ["queued"], { state: "running" }, 1),
      ).toBeUndefined();
      // Records are JSON: they survive serialisation unchanged.
      expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    });

    it("lists one user's jobs newest first, by app, state, tool, tag and age", async () => {
      const store = await make();
      const a = jobRecord({ createdAt: 1, clientTag: "t" });
      const b = jobRecord({ createdAt: 2, toolId: "tool-b" });
      const c = jobRecord({ createdAt: 3, appId: "app-y", state: "failed" });
      const bob = jobRecord({ createdAt: 4, userId: "bob" });
      for (const r of [a, b, c, bob]) await store.insert(r);
      const ids = async (filter: Parameters<ToolJobStore["list"]>[0]) =>
        (await store.list(filter)).map((j) => j.jobId);
      expect(await ids({ userId: "alice" })).toEqual([c.jobId, b.jobId, a.jobId]);
      expect(await ids({ userId: "alice", appId: "app-x" })).toEqual([b.jobId, a.jobId]);
      expect(await ids({ userId: "alice", states: ["queued", "running"] })).toEqual([
        b.jobId,
        a.jobId,
      ]);
      expect(await ids({ userId: "alice", toolId: "tool-b" })).toEqual([b.jobId]);
      expect(await ids({ userId: "alice", clientTag: "t" })).toEqual([a.jobId]);
      expect(await ids({ userId: "alice", createdSince: 2 })).toEqual([c.jobId, b.jobId]);
      expect(await ids({ userId: "bob" })).toEqual([bob.jobId]);
    });
  });
}

function message(fields: Partial<ChatMessage> = {}): ChatMessage {
  return {
    message_id: "m",
    role: "assistant",
    content: "hi",
    window_uuid: "w1",
    user_id: "alice",
    app_id: "app-x",
    ts: 1,
    ...fields,
  };
}

function artifact(fields: Partial<ChatArtifact> = {}): ChatArtifact {
  return {
    artifact_id: "a",
    kind: "note",
    window_uuid: "w1",
    user_id: "alice",
    app_id: "app-x",
    ts: 1,
    data: { n: 1 },
    ...fields,
  };
}

export function chatStoreContract(name: string, make: Factory<ChatStore>): void {
  describe(`${name}: ChatStore contract`, () => {
    it("keeps records in write order, filtered by user, app and window, as copies", async () => {
      const store = await make();
      await store.appendMessage(message({ message_id: "1" }));
      await store.appendMessage(message({ message_id: "2", app_id: "app-y", window_uuid: "w2" }));
      await store.appendMessage(message({ message_id: "3", user_id: "bob" }));
      const mine = artifact({ artifact_id: "a1" });
      await store.appendArtifact(mine);
      await store.appendArtifact(artifact({ artifact_id: "a2", user_id: "bob" }));
      (mine.data as { n: number }).n = 2;
      const ids = (records: { message_id?: string; artifact_id?: string }[]) =>
        records.map((r) => r.message_id ?? r.artifact_id);
      expect(ids(await store.listMessages({ userId: "alice" }))).toEqual(["1", "2"]);
      expect(ids(await store.listMessages({ userId: "alice", appId: "app-x" }))).toEqual(["1"]);
      expect(ids(await store.listMessages({ userId: "alice", windowUuid: "w2" }))).toEqual(["2"]);
      expect(ids(await store.listMessages({ userId: "bob" }))).toEqual(["3"]);
      const artifacts = await store.listArtifacts({ userId: "alice" });
      expect(artifacts).toEqual([artifact({ artifact_id: "a1" })]);
      (artifacts[0]?.data as { n: number }).n = 3;
      expect((await store.listArtifacts({ userId: "alice" }))[0]?.data).toEqual({ n: 1 });
      expect(await store.listArtifacts({ userId: "carol" })).toEqual([]);
    });
  });
}

export function deckStoreContract(name: string, make: Factory<DeckStore>): void {
  describe(`${name}: DeckStore contract`, () => {
    it("pins, unpins and reorders per user, reporting whether anything changed", async () => {
      const store = await make();
      expect(await store.get("alice")).toEqual([]);
      expect(await store.update("alice", pinApp("x"))).toEqual({ deck: ["x"], changed: true });
      expect(await store.update("alice", pinApp("y", 0))).toEqual({
        deck: ["y", "x"],
        changed: true,
      });
      expect(await store.update("alice", pinApp("x"))).toEqual({
        deck: ["y", "x"],
        changed: false,
      });
      expect(await store.update("alice", reorderDeck(["x", "y"]))).toEqual({
        deck: ["x", "y"],
        changed: true,
      });
      await expect(store.update("alice", reorderDeck(["x"]))).rejects.toMatchObject({
        code: "invalid_arg",
      });
      expect(await store.get("alice")).toEqual(["x", "y"]);
      expect(await store.update("alice", unpinApp("z"))).toEqual({
        deck: ["x", "y"],
        changed: false,
      });
      expect(await store.update("alice", unpinApp("x"))).toEqual({ deck: ["y"], changed: true });
      expect(await store.get("bob")).toEqual([]);
      const copy = await store.get("alice");
      copy.push("mutated");
      expect(await store.get("alice")).toEqual(["y"]);
    });

    it("applies concurrent changes one after another: none is lost", async () => {
      const store = await make();
      await Promise.all(["a", "b", "c", "d"].map((id) => store.update("alice", pinApp(id))));
      expect((await store.get("alice")).sort()).toEqual(["a", "b", "c", "d"]);
    });
  });
}
