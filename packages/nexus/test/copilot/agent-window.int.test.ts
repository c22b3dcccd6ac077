// The Host API `agent.session.*` of a window Nexus serves, over `/runtime/rpc` and the window's
// event stream, on the same agent service, sessions and usage as the copilot endpoints: a run's
// frames arrive as `rpc.stream` events ending in `end`, live while the model answers; cancel
// mid-run; the manifest's submode gate; one app's and one user's sessions invisible to another.
import type { AppManifest } from "@anna-ai/app-schema";
import { describe, expect, it, onTestFinished } from "vitest";
import { installApp, putAppVersion } from "../../src/runtime/app-catalog-writes.js";
import { readAppFolder } from "../../src/runtime/load-app-folder.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { sessionCookie } from "../helpers/harness.js";
import { FOCUS_FLOW } from "../helpers/runtime.js";
import { type CopilotHttp, copilotHttp, MODEL, sseStream } from "./copilot-harness.js";

useDialectCleanup();

interface RpcReply {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

let slugs = 0;

/** Focus Flow under a fresh slug, its manifest's `ui.host_api` replaced by `hostApi`. */
async function putApp(t: CopilotHttp, hostApi: Record<string, unknown>): Promise<number> {
  const folder = await readAppFolder(FOCUS_FLOW);
  const manifest = {
    ...folder.manifest,
    ui: { ...folder.manifest.ui, host_api: { ...folder.manifest.ui?.host_api, ...hostApi } },
  } as AppManifest;
  const slug = `agent-window-${++slugs}`;
  const { appId } = await putAppVersion(
    t.copilot.db,
    { ...folder, slug, name: slug, manifest },
    t.h.clock.now(),
  );
  return appId;
}

async function person(t: CopilotHttp, email: string) {
  const signup = await t.post("/api/v1/auth/signup", { email, password: "correct horse battery" });
  const cookie = sessionCookie(signup);
  const me = (await (await fetch(`${t.url}/api/v1/me`, { headers: { cookie } })).json()) as {
    id: number;
  };
  return { id: me.id, cookie };
}

/** Installs the app for the user and opens its main view; an `rpc` bound to that window. */
async function openWindow(t: CopilotHttp, user: { id: number; cookie: string }, appId: number) {
  const { version } = await readAppFolder(FOCUS_FLOW);
  await installApp(t.copilot.db, { userId: user.id, appId, version }, t.h.clock.now());
  const opened = await fetch(`${t.url}/api/v1/anna-apps/runtime/windows?app_id=${appId}`, {
    method: "POST",
    headers: { cookie: user.cookie, "content-type": "application/json", origin: t.url },
    body: JSON.stringify({ view: "main" }),
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const win = (await opened.json()) as { window: { window_uuid: string }; token: string };
  let id = 0;
  return {
    token: win.token,
    uuid: win.window.window_uuid,
    async rpc(ns: string, method: string, args: unknown): Promise<RpcReply> {
      const res = await t.post(
        "/api/v1/anna-apps/runtime/rpc",
        { id: String(++id), window_uuid: win.window.window_uuid, ns, method, args },
        { "x-anna-app-token": win.token },
      );
      return (await res.json()) as RpcReply;
    },
  };
}

/** The payloads of one `rpc.stream`, in `seq` order, up to its `done` frame. */
async function streamFrames(
  events: AsyncGenerator<Record<string, unknown>>,
  streamId: string,
): Promise<Record<string, unknown>[]> {
  const frames: { seq: number; payload: Record<string, unknown> }[] = [];
  // next() rather than for-await: breaking out of a for-await would close the shared stream.
  for (let r = await events.next(); r.done !== true; r = await events.next()) {
    const event = r.value;
    const p = event.payload as Record<string, unknown> | undefined;
    if (event.kind !== "rpc.stream" || p?.stream_id !== streamId) continue;
    frames.push({ seq: p.seq as number, payload: p.payload as Record<string, unknown> });
    if (p.done === true) break;
  }
  return frames.sort((a, b) => a.seq - b.seq).map((f) => f.payload);
}

/** A `fetch` for provider calls that tells when a chat request has left for the model. */
function watchedFetch() {
  let sent: () => void = () => undefined;
  return {
    fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const done = fetch(input, init);
      if (String(input instanceof Request ? input.url : input).endsWith("/chat/completions"))
        sent();
      return done;
    }) as typeof fetch,
    /** Resolves at the next chat request from now on. */
    nextChat(): Promise<void> {
      return new Promise<void>((r) => (sent = r));
    },
  };
}

describe.each(DIALECTS)("a window's agent.session.* on $name", (d) => {
  it.skipIf(d.skip)(
    "create, run (rpc.stream frames ending in end), history, list, cancel mid-run and delete",
    async () => {
      const watch = watchedFetch();
      const t = await copilotHttp(await d.open(), { runtime: true, fetch: watch.fetch });
      const appId = await putApp(t, { agent: { session: { auto: true } } });
      const alice = await person(t, "agent-win@example.com");
      const win = await openWindow(t, alice, appId);
      const hangUp = new AbortController();
      onTestFinished(() => hangUp.abort());
      const stream = await fetch(
        `${t.url}/api/v1/anna-apps/runtime/events/stream?app_id=${appId}`,
        { headers: { cookie: alice.cookie }, signal: hangUp.signal },
      );
      expect(stream.status).toBe(200);
      const events = sseStream(stream);

      const created = await win.rpc("agent", "session.create", {
        submode: "auto",
        systemPrompt: "Answer in one line.",
      });
      expect(created).toMatchObject({
        ok: true,
        result: { submode: "auto", granted_tools: ["*"], system_prompt: "Answer in one line." },
      });
      const uuid = created.result!.app_session_uuid as string;

      t.fake.enqueue({ text: ["Hi ", "window"] });
      const run = await win.rpc("agent", "session.run", {
        app_session_uuid: uuid,
        content: "Hello",
      });
      expect(run.ok, JSON.stringify(run)).toBe(true);
      const frames = await streamFrames(events, run.result!.stream_id as string);
      expect(frames.map((f) => f.event)).toEqual([
        "run_meta",
        "delta",
        "delta",
        "final",
        "complete",
        "end",
      ]);
      expect(frames[0]).toMatchObject({ model: MODEL, thread_id: uuid });
      expect(frames[3]).toMatchObject({ text: "Hi window" });
      expect(frames.at(-1)).toEqual({ event: "end", run_id: run.result!.run_id });

      const history = await win.rpc("agent", "session.history", { app_session_uuid: uuid });
      expect(
        (history.result!.messages as { role: string; content: { text: string } }[]).map((m) => [
          m.role,
          m.content.text,
        ]),
      ).toEqual([
        ["user", "Hello"],
        ["assistant", "Hi window"],
      ]);
      const listed = await win.rpc("agent", "session.list", {});
      expect(listed.result!.sessions).toEqual([
        expect.objectContaining({ app_session_uuid: uuid, submode: "auto" }),
      ]);
      // One source of truth: the copilot endpoints list the same session for this window.
      const overHttp = (await (
        await fetch(`${t.url}/api/v1/copilot/app/sessions`, {
          headers: { "x-anna-app-token": win.token },
        })
      ).json()) as { sessions: { app_session_uuid: string }[] };
      expect(overHttp.sessions.map((s) => s.app_session_uuid)).toEqual([uuid]);
      expect(
        await t.copilot.db
          .selectFrom("llm_usage")
          .select(["user_id", "app_id", "tool_id", "purpose"])
          .execute(),
      ).toEqual([
        { user_id: String(alice.id), app_id: `app:${appId}`, tool_id: "", purpose: "agent" },
      ]);

      // Cancel while the model is answering: the run ends aborted, the stream still ends.
      t.fake.enqueue({ text: ["partial "], stall: true });
      const chatSent = watch.nextChat();
      const pending = win.rpc("agent", "session.run", {
        app_session_uuid: uuid,
        content: "Write a long essay",
        run_id: "run_essay",
      });
      await chatSent;
      expect(
        await win.rpc("agent", "session.cancel", { app_session_uuid: uuid, run_id: "run_essay" }),
      ).toMatchObject({ ok: true, result: { cancelled: true } });
      const cancelled = await pending;
      expect(cancelled).toMatchObject({ ok: true, result: { run_id: "run_essay" } });
      const aborted = await streamFrames(events, cancelled.result!.stream_id as string);
      expect(aborted.map((f) => f.event).slice(-2)).toEqual(["complete", "end"]);
      expect(aborted.at(-2)).toMatchObject({ aborted: true });
      await t.fake.waitForStalledDisconnect(5_000);

      expect(await win.rpc("agent", "session.delete", { app_session_uuid: uuid })).toMatchObject({
        ok: true,
        result: { deleted: true },
      });
      expect(await win.rpc("agent", "session.delete", { app_session_uuid: uuid })).toMatchObject({
        ok: true,
        result: { deleted: true },
      });
      const gone = await win.rpc("agent", "session.run", { app_session_uuid: uuid, content: "hi" });
      expect(gone).toMatchObject({ ok: false, error: { code: "APP_SESSION_NOT_FOUND" } });
      expect(gone.error!.message).toMatch(/not a live session of this user and app/);
    },
  );

  it.skipIf(d.skip)(
    "streams a run's frames while the model is still answering: the first delta before the end",
    async () => {
      const t = await copilotHttp(await d.open(), { runtime: true });
      const appId = await putApp(t, { agent: { session: { auto: true } } });
      const alice = await person(t, "agent-live@example.com");
      const win = await openWindow(t, alice, appId);
      const hangUp = new AbortController();
      onTestFinished(() => hangUp.abort());
      const stream = await fetch(
        `${t.url}/api/v1/anna-apps/runtime/events/stream?app_id=${appId}`,
        { headers: { cookie: alice.cookie }, signal: hangUp.signal },
      );
      const events = sseStream(stream);
      const created = await win.rpc("agent", "session.create", { submode: "auto" });
      const uuid = created.result!.app_session_uuid as string;

      // The model sends "Once " and then holds the rest until the test has seen it.
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      onTestFinished(() => release());
      t.fake.enqueue({ text: ["Once ", "upon ", "a time"], restAfter: gate });
      const run = await win.rpc("agent", "session.run", { app_session_uuid: uuid, content: "Go" });
      expect(run.ok, JSON.stringify(run)).toBe(true);
      const streamId = run.result!.stream_id as string;

      const early: Record<string, unknown>[] = [];
      for (let r = await events.next(); r.done !== true; r = await events.next()) {
        const p = r.value.payload as Record<string, unknown> | undefined;
        if (r.value.kind !== "rpc.stream" || p?.stream_id !== streamId) continue;
        early.push(p);
        if ((p.payload as { event: string }).event === "delta") break;
      }
      expect(early.map((p) => [p.seq, (p.payload as { event: string }).event, p.done])).toEqual([
        [0, "run_meta", false],
        [1, "delta", false],
      ]);
      expect(early[1]!.payload).toMatchObject({ text: "Once " });

      release();
      const rest = await streamFrames(events, streamId);
      expect(rest.map((f) => f.event)).toEqual(["delta", "delta", "final", "complete", "end"]);
      expect(rest[2]).toMatchObject({ text: "Once upon a time" });
      expect(rest.at(-1)).toEqual({ event: "end", run_id: run.result!.run_id });
    },
  );

  it.skipIf(d.skip)(
    "the manifest gates the submode; another app's or another user's window sees none of the sessions",
    async () => {
      const t = await copilotHttp(await d.open(), { runtime: true });
      const appId = await putApp(t, { agent: { session: { auto: true } } });
      const otherApp = await putApp(t, { agent: { session: { auto: true } } });
      const ungated = await putApp(t, { agent: { tools: [] } });
      const alice = await person(t, "agent-iso-a@example.com");
      const bob = await person(t, "agent-iso-b@example.com");
      const mine = await openWindow(t, alice, appId);
      const created = await mine.rpc("agent", "session.create", { submode: "auto" });
      const uuid = created.result!.app_session_uuid as string;

      const fixed = await mine.rpc("agent", "session.create", {
        submode: "fixed",
        fixed_client_id: "desktop",
      });
      expect(fixed).toMatchObject({ ok: false, error: { code: "permission_denied" } });
      expect(fixed.error!.message).toMatch(/submode 'fixed' is not enabled/);
      const noAgent = await openWindow(t, alice, ungated);
      expect(await noAgent.rpc("agent", "session.create", { submode: "auto" })).toMatchObject({
        ok: false,
        error: { code: "permission_denied" },
      });

      for (const other of [await openWindow(t, alice, otherApp), await openWindow(t, bob, appId)]) {
        expect(await other.rpc("agent", "session.list", { include_expired: true })).toMatchObject({
          ok: true,
          result: { sessions: [] },
        });
        for (const [method, args] of [
          ["session.run", { app_session_uuid: uuid, content: "hi" }],
          ["session.history", { app_session_uuid: uuid }],
          ["session.cancel", { app_session_uuid: uuid, run_id: "r" }],
        ] as const) {
          expect(await other.rpc("agent", method, args)).toMatchObject({
            ok: false,
            error: { code: "APP_SESSION_NOT_FOUND" },
          });
        }
      }
      expect((await mine.rpc("agent", "session.list", {})).result!.sessions).toHaveLength(1);
      expect(t.fake.requests).toEqual([]);
    },
  );
});
