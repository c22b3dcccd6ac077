// The runtime wire as a Hono app, asked with `app.request()` (no socket): the rpc envelope and its
// refusals, the body caps (size, depth, media type), the windows REST statuses and the event
// stream's caps, all over a real dispatcher.
import { describe, expect, it } from "vitest";
import {
  CONVERSATION_ID_MAX_CHARS,
  createRuntimeApp,
  JSON_MAX_DEPTH,
  MAX_BODY_BYTES,
  RUNTIME_EVENTS_ROUTE,
  RUNTIME_RPC_ROUTE,
  RUNTIME_WINDOWS_ROUTE,
  SseStreams,
  type RpcCall,
  type RuntimeAppOptions,
} from "../../src/http/index.js";
import { createEventBus, makeEvent, type Dispatcher } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

async function runtime(options: Partial<RuntimeAppOptions> = {}): Promise<{
  app: ReturnType<typeof createRuntimeApp>;
  dispatcher: Dispatcher;
  token: string;
  wid: string;
}> {
  const { dispatcher, token, wid } = await openDispatcher({ storage: ["get", "set"] });
  const app = createRuntimeApp({
    dispatcher,
    caller: () => ({ userId: dispatcher.userId, appId: dispatcher.appId }),
    windowUrl: (w, t) => `https://cdn.example/app/index.html?wid=${w}&t=${t}`,
    ...options,
  });
  return { app, dispatcher, token, wid };
}

function post(body: string, headers: Record<string, string> = {}): RequestInit {
  return { method: "POST", body, headers: { "content-type": "application/json", ...headers } };
}

describe("POST rpc", () => {
  it("answers a call 200 with its id and the dispatcher's result, as JSON that is never cached", async () => {
    const { app, token, wid } = await runtime();
    const envelope = {
      id: 7,
      window_uuid: wid,
      ns: "storage",
      method: "set",
      args: { key: "k", value: 1 },
    };
    const res = await app.request(
      RUNTIME_RPC_ROUTE,
      post(JSON.stringify(envelope), { "x-anna-app-token": token }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ id: 7, ok: true });
    const get = await app.request(
      RUNTIME_RPC_ROUTE,
      post(JSON.stringify({ ...envelope, id: "g", method: "get", args: { key: "k" } }), {
        "x-anna-app-token": token,
      }),
    );
    expect(await get.json()).toMatchObject({ id: "g", ok: true, result: { value: 1 } });
  });

  it("answers a refused call 200 with ok:false and its code (the envelope carries the error)", async () => {
    const { app, wid } = await runtime();
    const res = await app.request(
      RUNTIME_RPC_ROUTE,
      post(
        JSON.stringify({
          id: 1,
          window_uuid: wid,
          ns: "storage",
          method: "get",
          args: { key: "k" },
        }),
        {
          "x-anna-app-token": "forged",
        },
      ),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 1, ok: false, error: { code: "invalid_token" } });
  });

  it("refuses an envelope without id, window_uuid, ns or method with 400 invalid_arg", async () => {
    const { app, wid } = await runtime();
    for (const body of [
      {},
      { id: 1, window_uuid: wid, ns: "storage" },
      { id: true, window_uuid: wid, ns: "storage", method: "get" },
      [1, 2],
    ]) {
      const res = await app.request(RUNTIME_RPC_ROUTE, post(JSON.stringify(body)));
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(await res.json()).toEqual({
        ok: false,
        error: {
          code: "invalid_arg",
          message: "the envelope needs id, window_uuid, ns and method",
        },
      });
    }
  });

  it("hands the call to the answerCall hook with the token, the checked envelope and a signal", async () => {
    const calls: RpcCall[] = [];
    const { app, wid } = await runtime({
      answerCall: (call) => {
        calls.push(call);
        return Promise.resolve({ ok: true, result: { mocked: true } });
      },
    });
    const res = await app.request(
      RUNTIME_RPC_ROUTE,
      post(JSON.stringify({ id: 3, window_uuid: wid, ns: "x", method: "y" }), {
        "x-anna-app-token": "tok",
      }),
    );
    expect(await res.json()).toEqual({ id: 3, ok: true, result: { mocked: true } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      token: "tok",
      windowUuid: wid,
      id: "3",
      ns: "x",
      method: "y",
      args: {},
    });
    expect(calls[0]?.signal).toBeInstanceOf(AbortSignal);
  });
});

describe("request bodies", () => {
  it("refuses a body over MAX_BODY_BYTES with 413 value_too_large", async () => {
    const { app, wid } = await runtime();
    const big = JSON.stringify({
      id: 1,
      window_uuid: wid,
      ns: "storage",
      method: "set",
      args: { pad: "x".repeat(MAX_BODY_BYTES) },
    });
    const res = await app.request(RUNTIME_RPC_ROUTE, post(big));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: {
        code: "value_too_large",
        message: expect.stringContaining(`over ${MAX_BODY_BYTES} bytes`),
      },
    });
  });

  it("refuses JSON nested deeper than JSON_MAX_DEPTH with 400 invalid_arg, and accepts the limit itself", async () => {
    const { app, wid, token } = await runtime();
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    const envelope = (depth: number) =>
      `{"id":1,"window_uuid":"${wid}","ns":"storage","method":"set","args":{"key":"k","value":${nested(depth - 2)}}}`;
    const deep = await app.request(RUNTIME_RPC_ROUTE, post(envelope(JSON_MAX_DEPTH + 1)));
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      error: {
        code: "invalid_arg",
        message: expect.stringContaining(`deeper than ${JSON_MAX_DEPTH}`),
      },
    });
    const atLimit = await app.request(
      RUNTIME_RPC_ROUTE,
      post(envelope(JSON_MAX_DEPTH), { "x-anna-app-token": token }),
    );
    expect(atLimit.status).toBe(200);
  });

  it("refuses a body that is not JSON with 400 invalid_arg", async () => {
    const { app } = await runtime();
    const res = await app.request(RUNTIME_RPC_ROUTE, post("{not json"));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: "invalid_arg", message: expect.stringContaining("not JSON") },
    });
  });

  it("refuses a form, multipart or HTML body with 415; reads JSON, +json, text/plain and no type", async () => {
    const { app, wid, token } = await runtime();
    const body = JSON.stringify({
      id: 1,
      window_uuid: wid,
      ns: "storage",
      method: "get",
      args: { key: "k" },
    });
    for (const type of [
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/html",
    ]) {
      const res = await app.request(RUNTIME_RPC_ROUTE, {
        method: "POST",
        body,
        headers: { "content-type": type },
      });
      expect({ type, status: res.status }).toEqual({ type, status: 415 });
      expect(await res.json()).toMatchObject({
        error: {
          code: "unsupported_media_type",
          message: expect.stringContaining("application/json"),
        },
      });
    }
    for (const type of [
      "application/json; charset=utf-8",
      "application/vnd.x+json",
      "text/plain;charset=UTF-8",
      undefined,
    ]) {
      const res = await app.request(RUNTIME_RPC_ROUTE, {
        method: "POST",
        body: new TextEncoder().encode(body),
        headers: {
          "x-anna-app-token": token,
          ...(type === undefined ? {} : { "content-type": type }),
        },
      });
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
    }
  });
});

describe("windows REST", () => {
  it("lists, opens (201 with its URL), reads, patches and closes windows; a closed one is 404", async () => {
    const { app, wid } = await runtime();
    const list = await app.request(RUNTIME_WINDOWS_ROUTE);
    expect(list.status).toBe(200);
    expect(
      ((await list.json()) as { windows: { window_uuid: string }[] }).windows.map(
        (w) => w.window_uuid,
      ),
    ).toEqual([wid]);

    const opened = await app.request(
      RUNTIME_WINDOWS_ROUTE,
      post(JSON.stringify({ view: "main", payload: [1] })),
    );
    expect(opened.status).toBe(201);
    const openedBody = (await opened.json()) as {
      window: { window_uuid: string; entry_payload: unknown };
      token: string;
      url: string;
    };
    const second = openedBody.window.window_uuid;
    expect(openedBody.url).toBe(
      `https://cdn.example/app/index.html?wid=${second}&t=${openedBody.token}`,
    );
    expect(openedBody.window.entry_payload).toEqual([1]);

    const read = await app.request(`${RUNTIME_WINDOWS_ROUTE}/${encodeURIComponent(second)}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      window: { window_uuid: second },
      token: expect.any(String),
      url: expect.stringContaining(second),
    });

    const patched = await app.request(`${RUNTIME_WINDOWS_ROUTE}/${second}`, {
      method: "PATCH",
      body: JSON.stringify({ title: "Renamed", focus: true }),
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      window: { window_uuid: second, title: "Renamed" },
    });

    const closed = await app.request(`${RUNTIME_WINDOWS_ROUTE}/${second}`, { method: "DELETE" });
    expect(closed.status).toBe(200);
    expect(await closed.json()).toEqual({ ok: true });
    const gone = await app.request(`${RUNTIME_WINDOWS_ROUTE}/${second}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      ok: false,
      error: { code: "not_found", message: `no live window ${second}` },
    });
  });

  it("scopes a single-instance open to the conversation named in the body, and refuses a bad one", async () => {
    const { app } = await runtime();
    const open = async (body: Record<string, unknown>) => {
      const res = await app.request(RUNTIME_WINDOWS_ROUTE, post(JSON.stringify(body)));
      return {
        status: res.status,
        body: (await res.json()) as {
          window?: { window_uuid: string; conversation_session_uuid: string | null };
          reused?: boolean;
          error?: { code: string; message: string };
        },
      };
    };
    const first = await open({ view: "panel", conversation_session_uuid: "conv-1" });
    expect(first.status).toBe(201);
    expect(first.body.window?.conversation_session_uuid).toBe("conv-1");
    const again = await open({ view: "panel", conversation_session_uuid: "conv-1" });
    expect(again.body.reused).toBe(true);
    expect(again.body.window?.window_uuid).toBe(first.body.window?.window_uuid);
    const other = await open({ view: "panel", conversation_session_uuid: "conv-2" });
    const none = await open({ view: "panel" });
    const ids = new Set([first, other, none].map((o) => o.body.window?.window_uuid));
    expect(ids.size).toBe(3);

    const listed = async (query: string) =>
      (
        (await (await app.request(`${RUNTIME_WINDOWS_ROUTE}${query}`)).json()) as {
          windows: { window_uuid: string }[];
        }
      ).windows.map((w) => w.window_uuid);
    expect(await listed("?conversation_session_uuid=conv-1")).toEqual([
      first.body.window?.window_uuid,
    ]);
    expect(await listed("")).toEqual(
      expect.arrayContaining([...ids].filter((id) => id !== undefined)),
    );

    for (const bad of [7, "", "x".repeat(CONVERSATION_ID_MAX_CHARS + 1)]) {
      const refused = await open({ view: "panel", conversation_session_uuid: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.error?.code).toBe("invalid_arg");
      expect(refused.body.error?.message).toContain("conversation_session_uuid must be");
    }
  });

  it("tells the URL builder the view and the form factor a window is opened or linked for", async () => {
    const seen: unknown[] = [];
    const { app } = await runtime({
      windowUrl: (w, t, context) => {
        seen.push(context);
        return `https://cdn.example/${context?.formFactor === "mobile" ? "mobile" : "index"}.html?wid=${w}&t=${t}`;
      },
    });
    const opened = await app.request(
      RUNTIME_WINDOWS_ROUTE,
      post(JSON.stringify({ view: "panel", form_factor: "mobile" })),
    );
    expect(opened.status).toBe(201);
    const body = (await opened.json()) as { window: { window_uuid: string }; url: string };
    expect(body.url).toMatch(/^https:\/\/cdn\.example\/mobile\.html\?/);
    const one = `${RUNTIME_WINDOWS_ROUTE}/${body.window.window_uuid}`;
    const desktop = await app.request(one);
    expect(((await desktop.json()) as { url: string }).url).toContain("/index.html?");
    const mobile = await app.request(`${one}?form_factor=mobile`);
    expect(((await mobile.json()) as { url: string }).url).toContain("/mobile.html?");
    expect(seen).toEqual([
      { view: "panel", formFactor: "mobile" },
      { view: "panel" },
      { view: "panel", formFactor: "mobile" },
    ]);

    const bad = await app.request(`${one}?form_factor=watch`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain(
      "form_factor must be one of desktop, mobile",
    );
    const badOpen = await app.request(
      RUNTIME_WINDOWS_ROUTE,
      post(JSON.stringify({ view: "panel", form_factor: 3 })),
    );
    expect(badOpen.status).toBe(400);
  });

  it("answers the dispatcher's refusals with the status their code maps to", async () => {
    const { app, wid } = await runtime();
    const unknownView = await app.request(
      RUNTIME_WINDOWS_ROUTE,
      post(JSON.stringify({ view: "nope" })),
    );
    expect(unknownView.status).toBe(400);
    expect(await unknownView.json()).toMatchObject({ ok: false, error: { code: "invalid_arg" } });
    const missing = await app.request(`${RUNTIME_WINDOWS_ROUTE}/no-such-window`, {
      method: "PATCH",
      body: '{"title":"x"}',
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "not_found" } });
    const huge = await app.request(`${RUNTIME_WINDOWS_ROUTE}/${wid}`, {
      method: "PATCH",
      body: JSON.stringify({ runtime_state_patch: { pad: "x".repeat(300_000) } }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: "state_too_large" } });
  });

  it("refuses a bad PATCH body with 400 invalid_arg naming the field", async () => {
    const { app, wid } = await runtime();
    const res = await app.request(`${RUNTIME_WINDOWS_ROUTE}/${wid}`, {
      method: "PATCH",
      body: '{"z_index":3}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: {
        code: "invalid_arg",
        message: expect.stringContaining("unknown PATCH field z_index"),
      },
    });
  });

  it("answers a malformed %-escape in a window id with 400 invalid_path on every method", async () => {
    const { app } = await runtime();
    for (const escape of ["%zz", "%", "%ff"]) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const res = await app.request(`${RUNTIME_WINDOWS_ROUTE}/${escape}`, {
          method,
          ...(method === "PATCH" ? { body: '{"title":"x"}' } : {}),
        });
        expect({ escape, method, status: res.status }).toEqual({ escape, method, status: 400 });
        expect(await res.json()).toMatchObject({ error: { code: "invalid_path" } });
      }
    }
  });

  it("acts for the caller the server resolves: another user sees none of this user's windows", async () => {
    const { dispatcher } = await openDispatcher({});
    const app = createRuntimeApp({
      dispatcher,
      caller: (c) => ({ userId: c.req.header("x-user") ?? "", appId: dispatcher.appId }),
      windowUrl: () => "",
    });
    const mine = (await (
      await app.request(RUNTIME_WINDOWS_ROUTE, { headers: { "x-user": dispatcher.userId } })
    ).json()) as { windows: unknown[] };
    const theirs = (await (
      await app.request(RUNTIME_WINDOWS_ROUTE, { headers: { "x-user": "someone-else" } })
    ).json()) as { windows: unknown[] };
    expect(mine.windows).toHaveLength(1);
    expect(theirs.windows).toEqual([]);
  });

  it("answers a route it does not have with 404 not_found as JSON", async () => {
    const { app } = await runtime();
    const res = await app.request(`${RUNTIME_WINDOWS_ROUTE}`, { method: "PATCH", body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      ok: false,
      error: { code: "not_found", message: `no route PATCH ${RUNTIME_WINDOWS_ROUTE}` },
    });
  });
});

/** Reads a stream until `text` appears in it. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  text: string,
): Promise<string> {
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done)
      throw new Error(
        `the stream ended before ${JSON.stringify(text)}; it sent ${JSON.stringify(seen)}`,
      );
    seen += decoder.decode(value, { stream: true });
  }
  return seen;
}

describe("GET events/stream", () => {
  it("streams the caller's app events as data_model/AnnaAppEvent frames, with the SSE headers", async () => {
    const { app, wid } = await runtime();
    const res = await app.request(RUNTIME_EVENTS_ROUTE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(await readUntil(reader, ": connected\n\n")).toBe(": connected\n\n");
    await app.request(`${RUNTIME_WINDOWS_ROUTE}/${wid}`, {
      method: "PATCH",
      body: '{"focus":true}',
    });
    const frames = await readUntil(reader, "window_focus_changed");
    expect(frames).toContain("event: data_model/AnnaAppEvent\ndata: {");
    await reader.cancel();
  });

  it("streams from the event bus it is given, for the caller's user and app only", async () => {
    const bus = createEventBus();
    const { app, dispatcher } = await runtime({ events: bus });
    const res = await app.request(RUNTIME_EVENTS_ROUTE);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await readUntil(reader, ": connected");
    bus.publish(
      "someone-else",
      makeEvent("ping", { appId: dispatcher.appId }, { n: 0 }, Date.now()),
    );
    bus.publish(dispatcher.userId, makeEvent("ping", { appId: "other-app" }, { n: 1 }, Date.now()));
    bus.publish(
      dispatcher.userId,
      makeEvent("ping", { appId: dispatcher.appId }, { n: 2 }, Date.now()),
    );
    const frames = await readUntil(reader, '"n":2');
    expect(frames).not.toContain('"n":0');
    expect(frames).not.toContain('"n":1');
    await reader.cancel();
  });

  it("numbers each event (id:), and a reconnect with Last-Event-ID gets what it missed, once", async () => {
    const { app, wid } = await runtime();
    const focus = () =>
      app.request(`${RUNTIME_WINDOWS_ROUTE}/${wid}`, { method: "PATCH", body: '{"focus":true}' });
    const first = await app.request(RUNTIME_EVENTS_ROUTE);
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    await readUntil(reader, ": connected");
    await focus();
    const seen = await readUntil(reader, "window_focus_changed");
    await reader.cancel();
    const ids = [...seen.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length).toBe(1);
    const last = ids[0]!;
    // While no stream is open the window changes twice.
    await focus();
    await app.request(`${RUNTIME_WINDOWS_ROUTE}/${wid}`, {
      method: "PATCH",
      body: '{"title":"Resumed"}',
    });
    const again = await app.request(RUNTIME_EVENTS_ROUTE, {
      headers: { "last-event-id": String(last) },
    });
    const resumed = (again.body as ReadableStream<Uint8Array>).getReader();
    const replay = await readUntil(resumed, "Resumed");
    await resumed.cancel();
    expect([...replay.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual([
      last + 1,
      last + 2,
    ]);
    expect(replay.match(/window_focus_changed/g)?.length).toBe(1);
  });

  it("refuses a Last-Event-ID that is not an event id with 400 invalid_arg, naming what it takes", async () => {
    const { app } = await runtime();
    const res = await app.request(RUNTIME_EVENTS_ROUTE, { headers: { "last-event-id": "abc" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", message: expect.stringContaining("Last-Event-ID must be") },
    });
    const query = await app.request(`${RUNTIME_EVENTS_ROUTE}?after=-1`);
    expect(query.status).toBe(400);
  });

  it("sends anna.resync when the events after the cursor are no longer kept", async () => {
    const { app } = await runtime();
    const res = await app.request(RUNTIME_EVENTS_ROUTE, { headers: { "last-event-id": "99" } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const text = await readUntil(reader, "event: anna.resync\n");
    await reader.cancel();
    expect(text).toContain('"reason":"unknown_cursor","after":99');
  });

  it("caps streams per route with 429 too_many_streams, and frees a slot when a client goes", async () => {
    const streams = new SseStreams(
      { debug() {}, info() {}, warn() {}, error() {} },
      { perRouteMax: 2, totalMax: 3 },
    );
    const { app } = await runtime({ streams });
    const open = [await app.request(RUNTIME_EVENTS_ROUTE), await app.request(RUNTIME_EVENTS_ROUTE)];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    const refused = await app.request(RUNTIME_EVENTS_ROUTE);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      ok: false,
      error: { code: "too_many_streams", message: expect.stringContaining("at most 2") },
    });
    // The total counts every route sharing these streams (the harness's panel stream).
    streams.open("/other");
    await (open[0]?.body as ReadableStream).cancel();
    expect(streams.size).toBe(2);
    expect((await app.request(RUNTIME_EVENTS_ROUTE)).status).toBe(200);
    expect((await app.request(RUNTIME_EVENTS_ROUTE)).status).toBe(429);
  });

  it("counts the per-route cap per user: one person's tabs leave room for the others", async () => {
    const streams = new SseStreams(
      { debug() {}, info() {}, warn() {}, error() {} },
      { perRouteMax: 2, totalMax: 10 },
    );
    const { app } = await runtime({
      streams,
      caller: (c) => ({ userId: c.req.header("x-test-user") ?? "nobody" }),
    });
    const as = (user: string) =>
      app.request(RUNTIME_EVENTS_ROUTE, { headers: { "x-test-user": user } });
    expect([(await as("alice")).status, (await as("alice")).status]).toEqual([200, 200]);
    const refused = await as("alice");
    expect(refused.status).toBe(429);
    await refused.body?.cancel();
    // Bob's streams are his own.
    expect([(await as("bob")).status, (await as("bob")).status]).toEqual([200, 200]);
    expect(streams.size).toBe(4);
  });

  it("drops a client that stops reading once its unsent bytes pass the limit, and logs it", async () => {
    const warnings: Record<string, unknown>[] = [];
    const streams = new SseStreams(
      { debug() {}, info() {}, warn: (_m, fields) => warnings.push(fields ?? {}), error() {} },
      { clientBufferMaxBytes: 4096 },
    );
    const { app, dispatcher } = await runtime({ streams });
    const stalled = await app.request(RUNTIME_EVENTS_ROUTE);
    const reader = (stalled.body as ReadableStream<Uint8Array>).getReader();
    expect(streams.size).toBe(1);
    // The stream reads its log's head before it writes live events (event-feed.ts).
    await new Promise((resolve) => setTimeout(resolve, 0));
    const pad = "x".repeat(1024);
    for (let i = 0; i < 8; i++) {
      dispatcher.emit(
        dispatcher.userId,
        makeEvent("ping", { appId: dispatcher.appId }, { pad }, Date.now()),
      );
    }
    expect(streams.size).toBe(0);
    expect(warnings).toEqual([
      expect.objectContaining({ route: RUNTIME_EVENTS_ROUTE, limit_bytes: 4096 }),
    ]);
    await expect(reader.read()).rejects.toThrow(/stopped reading/);
  });

  it("ends every stream on endAll (a server closing), after what was already queued", async () => {
    const streams = new SseStreams({ debug() {}, info() {}, warn() {}, error() {} });
    const { app } = await runtime({ streams });
    const res = await app.request(RUNTIME_EVENTS_ROUTE);
    streams.endAll();
    expect(streams.size).toBe(0);
    expect(await res.text()).toBe(": connected\n\n");
  });

  it("answers HEAD with the stream's headers without holding a stream open", async () => {
    const streams = new SseStreams({ debug() {}, info() {}, warn() {}, error() {} });
    const { app } = await runtime({ streams });
    const res = await app.request(RUNTIME_EVENTS_ROUTE, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(streams.size).toBe(0);
  });
});
