// The dashboard's routes over HTTP on 127.0.0.1: its assets, the windows PATCH (focus, a refused
// body, a closed window) answering statuses instead of 500s, and the simulate route publishing on
// the event stream; page-local simulated events recorded in the session.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { copyFixtureApp, startHarness } from "./helpers.js";
import { FRAMES_APP } from "./dashboard-session.js";

const API = "api/v1/anna-apps/runtime";

async function send(url: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("anna-app dev dashboard routes", () => {
  it("serves the page, its modules and stylesheet, and 404s anything else under /dev/", async () => {
    const server = await startHarness(copyFixtureApp(FRAMES_APP));
    const page = await fetch(server.url);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/dev/main.js"></script>');
    const boot = JSON.parse(/id="boot">(.*?)<\/script>/s.exec(html)?.[1] ?? "{}") as {
      dashboard: { view_specs: { name: string; max_size: unknown }[]; simulate: unknown[] };
    };
    expect(boot.dashboard.view_specs[0]).toMatchObject({
      name: "main",
      max_size: { w: 640, h: 480 },
    });
    expect(boot.dashboard.simulate.length).toBeGreaterThan(2);
    const js = await fetch(`${server.url}dev/frames.js`);
    expect(js.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(await js.text()).toContain("export function addFrame");
    expect((await fetch(`${server.url}dev/page.html`)).status).toBe(404);
    expect((await fetch(`${server.url}dev/dashboard.js`)).status).toBe(404);
  });

  it("patches and focuses a window, and answers refusals with their status and code", async () => {
    const server = await startHarness(copyFixtureApp(FRAMES_APP));
    const url = `${server.url}${API}/windows/${server.window.window_uuid}`;
    const before = (await server.dispatcher.getWindow(server.window.window_uuid))
      ?.z_index as number;
    const focused = await send(url, "PATCH", { geometry: { x: 40, w: 9999 }, focus: true });
    expect(focused.status).toBe(200);
    expect(focused.body.window).toMatchObject({ geometry: { x: 40, w: 640 } });
    expect((focused.body.window as { z_index: number }).z_index).toBeGreaterThan(before);

    expect(await send(url, "PATCH", { status: "sideways" })).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: "invalid_arg" } },
    });
    expect(await send(url, "DELETE")).toMatchObject({ status: 200 });
    expect(await send(url, "PATCH", { focus: true })).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    expect(await send(url, "DELETE")).toMatchObject({ status: 404 });
  });

  it("publishes a simulated event on the event stream", async () => {
    const server = await startHarness(copyFixtureApp(FRAMES_APP));
    const seen = new Promise<unknown>((resolve) => {
      const stop = server.dispatcher.events.subscribe(
        { userId: server.dispatcher.userId, appId: server.app.slug },
        (event) => {
          if (event.kind === "deck_changed") {
            stop();
            resolve(event);
          }
        },
      );
    });
    const out = await send(`${server.url}dev/api/events`, "POST", { kind: "deck_changed" });
    expect(out.status).toBe(202);
    expect(await seen).toEqual(out.body.event);
    expect(
      await send(`${server.url}dev/api/events`, "POST", { kind: "tool_job", payload: {} }),
    ).toMatchObject({ status: 400, body: { error: { code: "invalid_arg" } } });
  });

  it("records a page-local entry_payload and auth.refresh in the session (the token is not written) and answers what the page posts", async () => {
    const app = copyFixtureApp(FRAMES_APP);
    const record = path.join(app.dir, "session.jsonl");
    const server = await startHarness(app, { record });
    const wid = server.window.window_uuid;
    const events = `${server.url}dev/api/events`;
    const entry = await send(events, "POST", {
      kind: "entry_payload",
      window_uuid: wid,
      payload: ["any", "json"],
    });
    expect(entry).toEqual({
      status: 200,
      body: { page_event: { name: "entry_payload", window_uuid: wid, payload: ["any", "json"] } },
    });
    const refresh = await send(events, "POST", { kind: "auth.refresh", window_uuid: wid });
    const minted = (refresh.body.page_event as { payload: { token: string } }).payload.token;
    expect(refresh.body.page_event).toMatchObject({
      name: "auth.refresh",
      payload: { token: expect.any(String), expires_in: 120 },
    });
    // The minted token is a real one for the window.
    const ok = await fetch(`${server.url}${API}/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Anna-App-Token": minted },
      body: JSON.stringify({ id: 2, window_uuid: wid, ns: "window", method: "heartbeat" }),
    });
    expect(await ok.json()).toMatchObject({ ok: true });
    expect(
      await send(events, "POST", { kind: "entry_payload", window_uuid: "gone" }),
    ).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });

    const lines = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const recorded = lines.filter(
      (l) => l.kind === "event" && (l.name === "entry_payload" || l.name === "auth.refresh"),
    );
    expect(recorded).toEqual([
      expect.objectContaining({
        name: "entry_payload",
        window_uuid: wid,
        payload: ["any", "json"],
      }),
      expect.objectContaining({
        name: "auth.refresh",
        window_uuid: wid,
        payload: { expires_in: 120 },
      }),
    ]);
    expect(readFileSync(record, "utf8")).not.toContain(minted);
  });

  it("refuses to open a view the manifest does not declare with its status and code, not a 500", async () => {
    const server = await startHarness(copyFixtureApp(FRAMES_APP));
    const out = await send(`${server.url}${API}/windows`, "POST", { view: "nope" });
    expect(out).toEqual({
      status: 400,
      body: {
        ok: false,
        error: {
          code: "invalid_arg",
          message: 'no view named "nope" in ui.views (known: main, note)',
        },
      },
    });
  });

  it("opens a view with any JSON entry_payload, and a re-open without one keeps it", async () => {
    const server = await startHarness(copyFixtureApp(FRAMES_APP));
    const windows = `${server.url}${API}/windows`;
    const first = await send(windows, "POST", { view: "main", payload: "write" });
    expect(first.body).toMatchObject({
      reused: true,
      window: { entry_payload: "write" },
    });
    const again = await send(windows, "POST", { view: "main" });
    expect(again.body).toMatchObject({
      reused: true,
      window: { entry_payload: "write" },
    });
  });
});
