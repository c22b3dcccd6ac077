// @anna-ai/app-runtime/host in real Chromium: a page hosts sandboxed app iframes through
// `createWindowHost` against a small real runtime on 127.0.0.1 (runtime-server.ts). The real SDK
// connects through the module; messages from another frame, a frame inside the app, the page
// itself or naming another window are ignored; each event reaches only the windows it concerns;
// the window token is refreshed before it expires (pulled by the SDK, pushed by the page).
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { openTestPage, useBrowser } from "../../../cli/test/dev/browser.js";
import { APP_ID, claimsOf, startRuntimeServer, type RuntimeServer } from "./runtime-server.js";

/** What the tests reach of the host page (typed without the DOM library). */
interface HostGlobals {
  host: {
    openView(view: string): Promise<{ ok: boolean; window: { window_uuid: string } }>;
    frame(wid: string): { helloed: boolean; title: string } | undefined;
    frames(): Array<{ wid: string }>;
    pushToken(wid: string): Promise<{ ok: boolean }>;
  };
  reports: Array<{ kind: string; reason?: string; data?: { id?: string } }>;
  seenEvents: unknown[];
  resyncs: unknown[];
  postMessage(message: unknown, origin: string): void;
  document: {
    getElementById(id: string): { append(child: unknown): void };
    createElement(tag: string): { setAttribute(name: string, value: string): void; src: string };
  };
}
interface RawAppGlobals {
  received: Array<Record<string, unknown>>;
  send(message: unknown): void;
  sendFromChild(message: unknown): void;
}
interface SdkAppGlobals {
  connected?: boolean;
  origin_seen: string;
  refreshes: unknown[];
  call(ns: string, method: string, args: unknown): Promise<{ result?: unknown; error?: string }>;
}

const UI_TIMEOUT_MS = 15_000;
const poll = <T>(read: () => Promise<T> | T, timeout = UI_TIMEOUT_MS) =>
  expect.poll(read, { timeout, interval: 50 });

const chromium = needs("chromium");

describe.skipIf(chromium.skip)(`the window host in Chromium${chromium.reason}`, () => {
  const browser = useBrowser();
  let server: RuntimeServer;
  beforeAll(async () => {
    if (!chromium.skip) server = await startRuntimeServer();
  });
  afterAll(() => server?.close());

  /** The host page, once its event stream is open. */
  async function openHost(): Promise<Page> {
    const { page, errors } = await openTestPage(browser());
    const before = server.streams();
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready]");
    await poll(() => server.streams()).toBeGreaterThan(before);
    expect(errors).toEqual([]);
    return page;
  }

  /** Opens a window of `view` ("raw" or "sdk") through the host; answers its id and app frame. */
  async function openWindow(page: Page, view: "raw" | "sdk"): Promise<{ wid: string; app: Frame }> {
    const out = await page.evaluate(
      (v) => (globalThis as unknown as HostGlobals).host.openView(v),
      view,
    );
    expect(out.ok).toBe(true);
    const wid = out.window.window_uuid;
    let app: Frame | null = null;
    await poll(async () => {
      app = page.frame({ url: new RegExp(`/${view}-app\\?wid=${wid}&`) });
      if (app === null) return false;
      return app.evaluate(
        (v) =>
          v === "sdk"
            ? (globalThis as unknown as SdkAppGlobals).connected === true
            : "send" in globalThis,
        view,
      );
    }).toBe(true);
    return { wid, app: app as unknown as Frame };
  }

  const request = (wid: string, fields: Record<string, unknown> = {}) => ({
    type: "anna-app/rpc",
    id: `r-${wid}-${String(fields["method"] ?? "get")}-${String(fields["tag"] ?? "")}`,
    window_uuid: wid,
    token: `tok-${wid}`,
    ns: "storage",
    method: "get",
    args: {},
    timeout_ms: 5000,
    ...fields,
  });
  const received = (app: Frame) =>
    app.evaluate(() => (globalThis as unknown as RawAppGlobals).received);
  const send = (app: Frame, message: unknown) =>
    app.evaluate((m) => (globalThis as unknown as RawAppGlobals).send(m), message);
  const hello = async (page: Page, app: Frame, wid: string) => {
    await send(app, request(wid, { ns: "window", method: "hello" }));
    await poll(() =>
      page.evaluate((w) => (globalThis as unknown as HostGlobals).host.frame(w)?.helloed, wid),
    ).toBe(true);
  };
  const rpcIds = () => server.rpcs.map((seen) => seen.body.id);

  it("hosts the SDK in a sandboxed iframe: its calls reach the rpc route with its token, the answer comes back", async () => {
    const page = await openHost();
    const { wid, app } = await openWindow(page, "sdk");
    const frame = page.locator(`.frame[data-wid="${wid}"]`);
    const sandbox = (await frame.locator("iframe").getAttribute("sandbox"))?.split(" ");
    expect(sandbox).toContain("allow-scripts");
    expect(sandbox).not.toContain("allow-same-origin");
    expect(await app.evaluate(() => (globalThis as unknown as SdkAppGlobals).origin_seen)).toBe(
      "null",
    );
    expect(await frame.locator(".title").textContent()).toBe(`win ${wid}`);

    const out = await app.evaluate(() =>
      (globalThis as unknown as SdkAppGlobals).call("storage", "get", { key: "k" }),
    );
    expect(out).toEqual({ result: { echoed: "storage.get" } });
    const first = server.minted.find((token) => claimsOf(token)["wid"] === wid);
    const calls = server.rpcs.filter((seen) => seen.body.window_uuid === wid);
    expect(calls.map((seen) => `${seen.body.ns}.${seen.body.method}`)).toEqual(
      expect.arrayContaining(["window.hello", "window.ready", "storage.get"]),
    );
    expect(calls.every((seen) => seen.token === first)).toBe(true);
    expect(calls.find((seen) => seen.body.method === "get")?.body).toMatchObject({
      window_uuid: wid,
      ns: "storage",
      method: "get",
      args: { key: "k" },
    });
    expect(
      await page.evaluate(
        (w) => (globalThis as unknown as HostGlobals).host.frame(w)?.helloed,
        wid,
      ),
    ).toBe(true);
    expect(await page.evaluate(() => (globalThis as unknown as HostGlobals).reports)).toEqual([]);
  });

  it("ignores a message from another frame, from a frame inside the app, from the page itself, and one naming another window", async () => {
    const page = await openHost();
    const a = await openWindow(page, "raw");
    const b = await openWindow(page, "raw");
    await hello(page, a.app, a.wid);
    const before = server.rpcs.length;

    // The app's own iframe speaking for the other window.
    await send(a.app, request(b.wid, { tag: "as-b" }));
    // A frame inside the app's document: the message's source is not the app's contentWindow.
    await a.app.evaluate(
      (m) => (globalThis as unknown as RawAppGlobals).sendFromChild(m),
      request(a.wid, { tag: "child" }),
    );
    // A sibling frame the host did not create, posting a's exact request (its id, token, window).
    await page.evaluate(() => {
      const { document } = globalThis as unknown as HostGlobals;
      const evil = document.createElement("iframe");
      evil.setAttribute("sandbox", "allow-scripts");
      evil.src = "/raw-app?wid=evil";
      document.getElementById("frames").append(evil);
    });
    let evil: Frame | null = null;
    await poll(async () => {
      evil = page.frame({ url: /\/raw-app\?wid=evil$/ });
      return evil === null ? false : evil.evaluate(() => "send" in globalThis);
    }).toBe(true);
    await send(evil as unknown as Frame, request(a.wid, { tag: "sibling" }));
    // The page itself.
    await page.evaluate(
      (m) => (globalThis as unknown as HostGlobals).postMessage(m, "*"),
      request(a.wid, { tag: "self" }),
    );
    // Not a request at all (no token).
    await send(a.app, { ...request(a.wid, { tag: "bad" }), token: undefined });

    const dropped = () =>
      page.evaluate(() =>
        (globalThis as unknown as HostGlobals).reports
          .filter((r) => r.kind === "dropped")
          .map((r) => `${r.data?.id ?? "?"}: ${r.reason}`),
      );
    await poll(async () => (await dropped()).length).toBe(5);
    expect((await dropped()).sort()).toEqual(
      [
        `r-${b.wid}-get-as-b: names window ${b.wid}, but its iframe is window ${a.wid}`,
        `r-${a.wid}-get-child: not from an app iframe of this page`,
        `r-${a.wid}-get-sibling: not from an app iframe of this page`,
        `r-${a.wid}-get-self: not from an app iframe of this page`,
        `r-${a.wid}-get-bad: not an anna-app/rpc request (type, id, window_uuid, token, ns, method, args)`,
      ].sort(),
    );
    expect(server.rpcs.length).toBe(before);
    // Nobody was answered but a's hello.
    expect((await received(a.app)).map((m) => m["id"])).toEqual([`r-${a.wid}-hello-`]);
    expect(await received(b.app)).toEqual([]);
    expect(await received(evil as unknown as Frame)).toEqual([]);
  });

  it("answers the app's deadline itself when the runtime does not answer", async () => {
    const page = await openHost();
    const { wid, app } = await openWindow(page, "raw");
    await send(app, request(wid, { method: "hang", timeout_ms: 50 }));
    await poll(async () => (await received(app))[0]).toMatchObject({
      type: "anna-app/rpc-result",
      id: `r-${wid}-hang-`,
      ok: false,
      error: { code: "timeout", message: "no answer from the server within 50 ms" },
    });
    expect(rpcIds()).toContain(`r-${wid}-hang-`);
  });

  it("applies a numbered event and hands an anna.resync frame to onResync, not to the windows", async () => {
    const page = await openHost();
    const a = await openWindow(page, "raw");
    await hello(page, a.app, a.wid);
    const globals = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as HostGlobals;
        return { events: g.seenEvents.length, resyncs: g.resyncs };
      });
    const before = (await globals()).events;
    server.emit(
      { app_id: APP_ID, kind: "title_changed", window_uuid: a.wid, payload: { title: "seq 7" } },
      7,
    );
    await poll(() => page.locator(`.frame[data-wid="${a.wid}"] .title`).textContent()).toBe(
      "seq 7",
    );
    server.resync({ reason: "expired", after: 3, resumed_at: 9 });
    await poll(async () => (await globals()).resyncs).toEqual([
      { reason: "expired", after: 3, resumed_at: 9 },
    ]);
    expect((await globals()).events).toBe(before + 1);
    expect((await received(a.app)).filter((m) => m["type"] === "anna-app/event").length).toBe(1);
  });

  it("relays each event of the stream only to the helloed windows it concerns", async () => {
    const page = await openHost();
    const a = await openWindow(page, "raw");
    const b = await openWindow(page, "raw");
    const c = await openWindow(page, "raw");
    await hello(page, a.app, a.wid);
    await hello(page, b.app, b.wid);
    const events = async (app: Frame) =>
      (await received(app))
        .filter((m) => m["type"] === "anna-app/event")
        .map((m) => (m["event"] as { kind: string; tag?: string }).tag);

    const emit = (tag: string, event: Record<string, unknown>) =>
      server.emit({ app_id: APP_ID, payload: {}, ...event, tag });
    emit("a-title", { kind: "title_changed", window_uuid: a.wid, payload: { title: "renamed" } });
    emit("app-wide", { kind: "tool_job", window_uuid: null });
    emit("other-app", {
      kind: "title_changed",
      window_uuid: a.wid,
      app_id: "app-2",
      payload: { title: "hijacked" },
    });
    emit("b-state", { kind: "runtime_state_synced", window_uuid: b.wid });
    await poll(() => events(a.app)).toEqual(["a-title", "app-wide"]);
    await poll(() => events(b.app)).toEqual(["app-wide", "b-state"]);

    // A sibling's close reaches the other windows of the app; the closed one's frame goes.
    emit("b-closed", { kind: "close_view", window_uuid: b.wid, payload: { window_uuid: b.wid } });
    await poll(() => events(a.app)).toEqual(["a-title", "app-wide", "b-closed"]);
    expect(
      await page.evaluate(() => (globalThis as unknown as HostGlobals).seenEvents.length),
    ).toBe(5);
    // Not helloed: nothing, not even app-wide events.
    expect(await received(c.app)).toEqual([]);
    // The page applied a's title (not the other app's) and removed b's frame.
    expect(await page.locator(`.frame[data-wid="${a.wid}"] .title`).textContent()).toBe("renamed");
    await poll(() => page.locator(`.frame[data-wid="${b.wid}"]`).count()).toBe(0);
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as HostGlobals).host.frames().map((f) => f.wid),
      ),
    ).toEqual([a.wid, c.wid]);
  });

  it(
    "refreshes the window token before it expires: the SDK pulls one, the page pushes one",
    { timeout: 60_000 },
    async () => {
      // The SDK asks 30 s before expiry (and no sooner than 5 s from now): ~6 s here.
      server.firstTokenLifetimeS = 36;
      const page = await openHost();
      let opened: { wid: string; app: Frame };
      try {
        opened = await openWindow(page, "sdk");
      } finally {
        server.firstTokenLifetimeS = 3600;
      }
      const { wid, app } = opened;
      const tokensOf = () => server.minted.filter((token) => claimsOf(token)["wid"] === wid);
      const call = () =>
        app.evaluate(() => (globalThis as unknown as SdkAppGlobals).call("storage", "get", {}));
      const lastToken = () => server.rpcs.filter((s) => s.body.window_uuid === wid).at(-1)?.token;

      // Pulled: `auth.refresh` answered from GET /windows/{wid}, never forwarded to the rpc route.
      await poll(() => tokensOf().length, 20_000).toBe(2);
      await poll(async () => {
        await call();
        return lastToken();
      }).toBe(tokensOf()[1]);
      expect(server.rpcs.some((s) => s.body.ns === "auth")).toBe(false);

      // Pushed: the page mints one and posts it as the `auth.refresh` event.
      expect(
        await page.evaluate((w) => (globalThis as unknown as HostGlobals).host.pushToken(w), wid),
      ).toMatchObject({ ok: true });
      expect(tokensOf()).toHaveLength(3);
      await poll(() =>
        app.evaluate(() => (globalThis as unknown as SdkAppGlobals).refreshes.length),
      ).toBe(1);
      await call();
      expect(lastToken()).toBe(tokensOf()[2]);
    },
  );
});
