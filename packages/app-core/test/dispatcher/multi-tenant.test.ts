// One dispatcher serving two users and two apps at once: a window token of user A / app X never
// reads or acts on user B's (or app Y's) windows, jobs, chat records, deck or storage; grants are
// looked up on every call (a revoke between two calls is refused on the second); a token of app
// X sent with app Y's window, or forged to name it, is refused.
import type { AnnaAppEvent } from "@anna-ai/app-schema";
import {
  createMemoryStorageService,
  createOfflineCredentialsService,
  type CredentialsGrant,
} from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  createEventBus,
  createMemoryChatStore,
  createMemoryEventLog,
  createMultiTenantDispatcher,
  sequencedEventBus,
  type EventBus,
  type EventLog,
  WindowTokenIssuer,
  type AppResolver,
  type CallResult,
  type GrantResolver,
  type ResolvedApp,
  type ToolHost,
} from "../../src/index.js";
import { manifestWith } from "../helpers.js";

const fixedGrantsNone: GrantResolver = { grants: () => Promise.resolve({}) };

const TOOL = "tool-examples-ts-notes-00000001";
const HOST_API = {
  storage: ["*"],
  chat: ["*"],
  apps: ["*"],
  tools: ["required:*"],
  credentials: ["google"],
};

function ok(out: CallResult): Record<string, unknown> {
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.result as Record<string, unknown>;
}

function codeOf(out: CallResult): string {
  if (out.ok) throw new Error(`expected a refusal, got ${JSON.stringify(out.result)}`);
  return out.error.code;
}

/** A pool whose invokes never finish until aborted: jobs stay active while the test looks. */
const idleHost: ToolHost = {
  get: () => ({ manifest: { tools: [] } }),
  invoke: (_u, _t, _tool, _args, options) =>
    new Promise((resolve) => {
      options?.signal?.addEventListener("abort", () =>
        resolve({ ok: true, data: { aborted: true }, durationMs: 0, raw: null }),
      );
    }),
};

function setup(events?: EventBus) {
  const apps = new Map<string, ResolvedApp>(
    ["app-x", "app-y"].map((appId) => [
      appId,
      { appId, versionId: "v1", manifest: manifestWith(HOST_API), name: appId.toUpperCase() },
    ]),
  );
  const resolved: string[] = [];
  const resolver: AppResolver = {
    resolve: ({ appId, versionId }) => {
      resolved.push(`${appId}@${versionId ?? "*"}`);
      const app = apps.get(appId);
      return Promise.resolve(
        app === undefined || (versionId !== undefined && versionId !== app.versionId)
          ? undefined
          : app,
      );
    },
  };
  // The grant table a server keeps: `${user}/${app}` → credentials_grant; edited between calls.
  const credentialGrants = new Map<string, CredentialsGrant>([
    ["alice/app-x", { enabled: true }],
    ["bob/app-x", { enabled: true }],
  ]);
  const grants: GrantResolver = {
    grants: ({ userId, appId }) =>
      Promise.resolve({
        credentialsGrant: credentialGrants.get(`${userId}/${appId}`) ?? { enabled: false },
      }),
  };
  const chat = createMemoryChatStore();
  const tokens = new WindowTokenIssuer();
  const dispatcher = createMultiTenantDispatcher({
    apps: resolver,
    grants,
    tokens,
    ...(events === undefined ? {} : { events }),
    chatStore: chat,
    host: idleHost,
    storage: "aps",
    services: {
      storage: createMemoryStorageService(),
      credentials: createOfflineCredentialsService({
        accounts: { google: [{ account_id: "acct-1", access_token: "ya29.t" }] },
      }),
    },
    installedApps: {
      list: () =>
        [...apps.values()].map((a) => ({
          app_id: a.appId,
          slug: a.appId,
          name: a.appId,
          description: null,
          version_id: a.versionId,
          views: [],
        })),
    },
  });
  onTestFinished(() => dispatcher.close());
  return { dispatcher, chat, tokens, credentialGrants, resolved };
}

async function open(
  dispatcher: ReturnType<typeof setup>["dispatcher"],
  userId: string,
  appId: string,
) {
  const opened = await dispatcher.openWindow("main", { userId, appId });
  const wid = opened.window.window_uuid as string;
  const call = (ns: string, method: string, args?: unknown, appRoute?: string) =>
    dispatcher.call(opened.token, ns, method, args, {
      windowUuid: wid,
      ...(appRoute === undefined ? {} : { appId: appRoute }),
    });
  return { wid, token: opened.token, call };
}

describe("the multi-tenant dispatcher", () => {
  it("answers a call, a patch and a close only once the events they published are in the log", async () => {
    const log = createMemoryEventLog();
    let release: (() => void) | undefined;
    const held: EventLog = {
      async append(userId, events) {
        if (release === undefined) await new Promise<void>((r) => (release = r));
        return log.append(userId, events);
      },
      read: (userId, after, limit) => log.read(userId, after, limit),
    };
    let holding = false;
    const gated: EventLog = {
      append: (userId, events) =>
        holding ? held.append(userId, events) : log.append(userId, events),
      read: held.read,
    };
    const { dispatcher } = setup(sequencedEventBus(createEventBus(), gated));
    const alice = await open(dispatcher, "alice", "app-x");
    holding = true;
    let answered = false;
    const titled = alice.call("window", "set_title", { title: "Logged" }).then((out) => {
      answered = true;
      return out;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false);
    release!();
    expect((await titled).ok).toBe(true);
    const kinds = (await log.read("alice", 0, 10)).events.map((e) => e.event.kind);
    expect(kinds).toContain("title_changed");

    release = undefined;
    let closed = false;
    const closing = dispatcher
      .closeWindow(alice.wid, "user", "alice", "app-x")
      .then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(false);
    release!();
    await closing;
    expect((await log.read("alice", 0, 10)).events.map((e) => e.event.kind)).toContain(
      "close_view",
    );
  });

  it("keeps two users and two apps apart: windows, storage, chat, jobs, deck and events", async () => {
    const { dispatcher, chat } = setup();
    const aliceX = await open(dispatcher, "alice", "app-x");
    const aliceY = await open(dispatcher, "alice", "app-y");
    const bobX = await open(dispatcher, "bob", "app-x");
    const events: Record<string, AnnaAppEvent[]> = { alice: [], bob: [] };
    dispatcher.events.subscribe({ userId: "alice", appId: "app-x" }, (e) => events.alice?.push(e));
    dispatcher.events.subscribe({ userId: "bob" }, (e) => events.bob?.push(e));

    // Windows: each user sees only their own, per app when asked.
    expect((await dispatcher.listWindows("alice")).map((w) => w.window_uuid).sort()).toEqual(
      [aliceX.wid, aliceY.wid].sort(),
    );
    expect(
      (await dispatcher.listWindows("alice", undefined, "app-x")).map((w) => w.window_uuid),
    ).toEqual([aliceX.wid]);
    expect((await dispatcher.listWindows("bob")).map((w) => w.window_uuid)).toEqual([bobX.wid]);
    // Alice's window cannot close Bob's, nor her app X window her app Y one.
    expect(codeOf(await aliceX.call("window", "close", { window_uuid: bobX.wid }))).toBe(
      "not_found",
    );
    expect(codeOf(await aliceX.call("window", "close", { window_uuid: aliceY.wid }))).toBe(
      "not_found",
    );
    await expect(
      dispatcher.patchWindow(bobX.wid, { title: "mine" }, "alice"),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(dispatcher.mintToken(bobX.wid, "alice")).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(dispatcher.closeWindow(aliceY.wid, "x", "alice", "app-x")).rejects.toMatchObject({
      code: "not_found",
    });

    // Storage: the same key is three different values, one per (user, app).
    ok(await aliceX.call("storage", "set", { key: "k", value: "alice-x" }));
    ok(await aliceY.call("storage", "set", { key: "k", value: "alice-y" }));
    expect(ok(await bobX.call("storage", "get", { key: "k" }))).toMatchObject({ exists: false });
    expect(ok(await aliceX.call("storage", "get", { key: "k" }))).toMatchObject({
      value: "alice-x",
    });
    expect(ok(await aliceY.call("storage", "get", { key: "k" }))).toMatchObject({
      value: "alice-y",
    });
    // Naming another app as the owner does not reach its bucket.
    expect(codeOf(await aliceX.call("storage", "get", { key: "k", owner: "app-y" }))).toBe(
      "not_implemented",
    );

    // Chat: records carry their user and app; reads by filter never cross.
    ok(await aliceX.call("chat", "write_message", { content: "from alice x" }));
    ok(await bobX.call("chat", "write_message", { content: "from bob x" }));
    expect((await chat.listMessages({ userId: "alice" })).map((m) => m.content)).toEqual([
      "from alice x",
    ]);
    expect(await chat.listMessages({ userId: "alice", appId: "app-y" })).toEqual([]);
    expect((await chat.listMessages({ userId: "bob" })).map((m) => [m.content, m.app_id])).toEqual([
      ["from bob x", "app-x"],
    ]);

    // Jobs: private to their user and app; another's id is job_not_found, not an oracle.
    const job = ok(await aliceX.call("tools", "invokeAsync", { tool_id: TOOL, method: "echo" }));
    const jobId = job.jobId as string;
    expect(ok(await aliceX.call("tools", "getJob", { jobId }))).toMatchObject({ jobId });
    expect(codeOf(await bobX.call("tools", "getJob", { jobId }))).toBe("job_not_found");
    expect(codeOf(await aliceY.call("tools", "getJob", { jobId }))).toBe("job_not_found");
    expect(codeOf(await bobX.call("tools", "cancelJob", { jobId }))).toBe("job_not_found");
    expect(ok(await bobX.call("tools", "listJobs", {}))).toEqual({ jobs: [], truncated: false });
    expect(ok(await aliceY.call("tools", "listJobs", {}))).toEqual({ jobs: [], truncated: false });
    expect((ok(await aliceX.call("tools", "listJobs", {})).jobs as unknown[]).length).toBe(1);
    expect(ok(await aliceX.call("tools", "cancelJob", { jobId }))).toMatchObject({
      cancelled: true,
    });

    // Deck: per user, shared by the user's apps, never another user's.
    ok(await aliceX.call("apps", "deck.add", { app_ref: "app-y" }));
    expect(ok(await aliceY.call("apps", "deck.list", {})).app_ids).toEqual(["app-y"]);
    expect(ok(await bobX.call("apps", "deck.list", {})).app_ids).toEqual([]);

    // Events: Bob's stream never carries Alice's, and her app X stream none of app Y's.
    expect(events.bob?.length).toBeGreaterThan(0);
    expect(
      events.bob?.every((e) => e.window_uuid === undefined || e.window_uuid === bobX.wid),
    ).toBe(true);
    expect(JSON.stringify(events.bob)).not.toContain(aliceX.wid);
    expect(JSON.stringify(events.bob)).not.toContain("from alice x");
    expect(events.alice?.some((e) => e.kind === "chat_message_from_app")).toBe(true);
    expect(events.alice?.every((e) => e.app_id === "app-x")).toBe(true);
  });

  it("looks grants up on every call: a revoke between two calls is refused on the second", async () => {
    const { dispatcher, credentialGrants } = setup();
    const aliceX = await open(dispatcher, "alice", "app-x");
    const bobX = await open(dispatcher, "bob", "app-x");
    const aliceY = await open(dispatcher, "alice", "app-y");
    expect(ok(await aliceX.call("credentials", "get_token", { provider: "google" }))).toMatchObject(
      { access_token: "ya29.t" },
    );
    // Never granted for app Y, though the same user granted app X.
    expect(codeOf(await aliceY.call("credentials", "get_token", { provider: "google" }))).toBe(
      "APP_NOT_GRANTED",
    );

    credentialGrants.set("alice/app-x", { enabled: false });
    expect(codeOf(await aliceX.call("credentials", "get_token", { provider: "google" }))).toBe(
      "APP_NOT_GRANTED",
    );
    // Bob's grant for the same app is his own and still stands.
    expect(ok(await bobX.call("credentials", "get_token", { provider: "google" }))).toMatchObject({
      access_token: "ya29.t",
    });
    credentialGrants.set("alice/app-x", { enabled: true });
    expect(ok(await aliceX.call("credentials", "get_token", { provider: "google" }))).toMatchObject(
      { access_token: "ya29.t" },
    );
  });

  it("refuses a token of app X with app Y's window, on app Y's route, or forged to name it", async () => {
    const { dispatcher, tokens } = setup();
    const aliceX = await open(dispatcher, "alice", "app-x");
    const aliceY = await open(dispatcher, "alice", "app-y");
    const bobX = await open(dispatcher, "bob", "app-x");
    // The envelope names Y's window: the token is X's.
    expect(
      await dispatcher.call(aliceX.token, "window", "hello", {}, { windowUuid: aliceY.wid }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_token", message: "the token belongs to another window" },
    });
    // The route serves app Y.
    expect(await aliceX.call("window", "hello", {}, "app-y")).toMatchObject({
      ok: false,
      error: { code: "invalid_token", message: "the token belongs to another app" },
    });
    expect(ok(await aliceX.call("window", "hello", {}, "app-x"))).toMatchObject({
      window_uuid: aliceX.wid,
    });
    // Validly signed but naming Y's window as X, or Bob's window as Alice: no such window.
    for (const claims of [
      { windowUuid: aliceY.wid, userId: "alice", appId: "app-x", versionId: "v1" },
      { windowUuid: bobX.wid, userId: "alice", appId: "app-x", versionId: "v1" },
      { windowUuid: aliceX.wid, userId: "alice", appId: "app-x", versionId: "v0" },
    ]) {
      const forged = await tokens.mint(claims);
      expect(await dispatcher.call(forged, "storage", "get", { key: "k" })).toMatchObject({
        ok: false,
        error: { code: "invalid_token", message: "the token names no window of this app" },
      });
    }
  });

  it("resolves the caller's app version on every call and opens only apps the user has", async () => {
    const { dispatcher, resolved } = setup();
    const aliceX = await open(dispatcher, "alice", "app-x");
    resolved.length = 0;
    ok(await aliceX.call("window", "heartbeat"));
    ok(await aliceX.call("window", "heartbeat"));
    expect(resolved).toEqual(["app-x@v1", "app-x@v1"]);
    await expect(
      dispatcher.openWindow("main", { userId: "alice", appId: "app-z" }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(dispatcher.openWindow("main", { userId: "alice" })).rejects.toMatchObject({
      code: "invalid_arg",
    });
    await expect(dispatcher.openWindow("main", { appId: "app-x" })).rejects.toMatchObject({
      code: "invalid_arg",
    });
    await expect(dispatcher.listWindows()).rejects.toMatchObject({ code: "invalid_arg" });
  });

  it("stacks windows of all apps in one z-order, raises one with patch.focus, and reaps idle ones of every app", async () => {
    let now = Date.UTC(2026, 0, 1);
    const apps = new Map<string, ResolvedApp>(
      ["app-x", "app-y"].map((appId) => [
        appId,
        { appId, versionId: "v1", manifest: manifestWith({}) },
      ]),
    );
    const dispatcher = createMultiTenantDispatcher({
      apps: { resolve: ({ appId }) => Promise.resolve(apps.get(appId)) },
      grants: fixedGrantsNone,
      clock: () => now,
      windowIdleMs: 1000,
    });
    const x = await dispatcher.openWindow("main", { userId: "alice", appId: "app-x" });
    const y = await dispatcher.openWindow("main", { userId: "alice", appId: "app-y" });
    expect(y.window.z_index).toBeGreaterThan(x.window.z_index as number);
    const raised = await dispatcher.patchWindow(
      x.window.window_uuid as string,
      { focus: true },
      "alice",
    );
    expect(raised.z_index).toBeGreaterThan(y.window.z_index as number);
    now += 2000;
    expect((await dispatcher.reapIdle()).sort()).toEqual(
      [x.window.window_uuid, y.window.window_uuid].sort(),
    );
    expect(await dispatcher.listWindows("alice")).toEqual([]);
  });
});
