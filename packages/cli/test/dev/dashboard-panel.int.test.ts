// The dashboard's developer panel in Chromium: the simulate form delivers page-local and
// harness-published events to the app's `anna.on` handlers and refuses bad payloads with the
// reason; a denied call is a denied row whose click shows the full payload; messages from another
// origin or posted as another window are dropped and logged; a bundle edit reloads the window;
// and the session recording passes `anna-app fixture verify`.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { openTestPage, screenshot, useBrowser } from "./browser.js";
import { needs } from "../../../../tests/support/toolchains.js";
import { editManifest } from "./edit-manifest.js";
import {
  classOf,
  eventually,
  openDashboard,
  textOf,
  type DashboardSession,
} from "./dashboard-session.js";

const CLI = fileURLToPath(new URL("../../bin/anna-app.js", import.meta.url));
/** The built CLI answers `fixture verify` well within this. */
const CLI_TIMEOUT_MS = 10_000;

async function simulate(s: DashboardSession, kind: string, payload: string): Promise<void> {
  await s.page.selectOption("#sim-kind", kind);
  await s.page.fill("#sim-payload", payload);
  await s.page.click("#sim-send");
}

function verify(file: string): Promise<{ code: number; report: Record<string, unknown> }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, "fixture", "verify", file, "--json"],
      { timeout: CLI_TIMEOUT_MS },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, report: JSON.parse(stdout || "{}") as Record<string, unknown> });
      },
    );
  });
}

const chromium = needs("chromium");

describe.skipIf(chromium.skip)(`anna-app dev dashboard: developer panel${chromium.reason}`, () => {
  const browser = useBrowser();

  it("simulates entry_payload and a tool_job to the app's handlers, and refuses bad payloads", async () => {
    const s = await openDashboard(browser());
    const wid = s.server.window.window_uuid;
    const title = s.frame(wid).locator(".title");
    await eventually(() => textOf(title)).toBe("ready main v1");

    await simulate(s, "entry_payload", '{"mode": "simulated"}');
    await eventually(() => textOf(title)).toBe('entry_payload {"mode":"simulated"}');

    // Not JSON: the form says where, and sends nothing.
    await s.page.fill("#sim-payload", '{"mode": }');
    await eventually(() => classOf(s.page.locator("#sim-feedback"))).toBe("bad");
    expect(await textOf(s.page.locator("#sim-feedback"))).toMatch(/line 1,? column 10/);

    // An AnnaAppEvent kind goes through the harness: checked against its schema first.
    await simulate(s, "tool_job", '{"job_id": "job-7"}');
    await eventually(() => textOf(s.page.locator("#sim-feedback"))).toMatch(
      /^invalid_arg: tool_job event: \/payload\/state/,
    );
    await simulate(s, "tool_job", '{"job_id": "job-7", "state": "succeeded"}');
    await eventually(() => textOf(title)).toBe("tool_job job-7 succeeded");

    // auth.refresh: the harness mints the token, the payload box has nothing to say.
    await s.page.selectOption("#sim-kind", "auth.refresh");
    expect(await s.page.locator("#sim-payload").isDisabled()).toBe(true);
    await s.page.click("#sim-send");
    await eventually(() => textOf(title)).toBe("auth.refresh 120");
    expect(s.errors).toEqual([]);
  });

  it("shows denied and failed calls as their rows with the payload, and drops forged messages", async () => {
    const s = await openDashboard(browser());
    const wid = s.server.window.window_uuid;
    await eventually(() => textOf(s.frame(wid).locator(".title"))).toBe("ready main v1");

    await eventually(() => textOf(s.app(wid).locator("#out"))).toBe("ready");
    await s.app(wid).locator("#deny").click();
    await eventually(() => textOf(s.app(wid).locator("#out"))).toBe("refused permission_denied");
    const denied = s.page.locator('#calls details.denied[data-call="files.list"]');
    // The panel hears of the call on its own stream, possibly after the app has its answer.
    await eventually(() => denied.count()).toBe(1);
    expect(await denied.locator("pre").isVisible()).toBe(false);
    await denied.locator("summary").click();
    expect(await denied.locator("pre").isVisible()).toBe(true);
    expect(JSON.parse((await denied.locator("pre").textContent()) ?? "")).toMatchObject({
      ns: "files",
      method: "list",
      outcome: "denied",
      error: { code: "permission_denied" },
    });

    // A handler's refusal is an error row: runtime_state over its 256 KiB cap.
    await s.app(wid).locator("#big").click();
    await eventually(() => textOf(s.app(wid).locator("#out"))).toBe("refused state_too_large");
    const error = s.page.locator('#calls details.error[data-call="storage.set"] summary');
    await eventually(() => textOf(error)).toMatch(
      /^storage\.set error [\d.]+ ms → state_too_large: /,
    );

    // The app's iframe posting as another window.
    await s.app(wid).locator("#forge").click();
    const dropped = s.page.locator("#calls details[data-dropped]");
    await eventually(() => textOf(dropped.first().locator("summary"))).toContain(
      `names window not-my-window, but its iframe is window ${wid}`,
    );

    // A page of another origin (localhost is not 127.0.0.1) that opened the dashboard.
    const { page: foreign } = await openTestPage(browser());
    await foreign.goto(s.server.url.replace("127.0.0.1", "localhost") + "dev/api/state");
    const popup = foreign.waitForEvent("popup");
    // Page code as strings: the tests are typed without the DOM library.
    await foreign.evaluate(`window.dash = window.open(${JSON.stringify(s.server.url)})`);
    const dashboard = await popup;
    await dashboard.waitForSelector(`.frame[data-wid="${wid}"]`);
    const forged = { type: "anna-app/rpc", id: "x", window_uuid: wid, token: "t", ns: "window" };
    const message = JSON.stringify({ ...forged, method: "close", args: {} });
    await foreign.evaluate(`window.dash.postMessage(${message}, "*")`);
    await eventually(() =>
      textOf(dashboard.locator("#calls details[data-dropped] summary").first()),
    ).toBe(
      `dropped a message from http://localhost:${s.server.port}: not from an app iframe of this page`,
    );
    expect((await s.window(wid)).status).toBe("active");
    expect(s.server.panel.calls.some((c) => c.method === "close")).toBe(false);
    await screenshot(s.page, "dev-dashboard-panel");
    expect(s.errors).toEqual([]);
  });

  it("an expired window token: the app's SDK refreshes through the page and its call goes on; the recording holds the refresh", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "anna-dev-refresh-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const record = path.join(dir, "session.jsonl");
    let skewMs = 0;
    const s = await openDashboard(browser(), { record, clock: () => Date.now() + skewMs });
    const wid = s.server.window.window_uuid;
    await eventually(() => textOf(s.frame(wid).locator(".title"))).toBe("ready main v1");
    // Past the 120 s token: the next call answers invalid_token, the SDK asks the page for a
    // fresh one (auth.refresh) and retries, so the app sees the ACL's answer instead.
    skewMs = 10 * 60_000;
    await s.app(wid).locator("#deny").click();
    await eventually(() => textOf(s.app(wid).locator("#out"))).toBe("refused permission_denied");
    expect(
      s.server.panel.calls.filter((c) => c.method === "list").map((c) => c.error?.code),
    ).toEqual(["invalid_token", "permission_denied"]);
    await s.server.close();
    const text = readFileSync(record, "utf8");
    const refreshes = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; name?: string; payload?: unknown })
      .filter((r) => r.kind === "event" && r.name === "auth.refresh");
    expect(refreshes).toEqual([expect.objectContaining({ payload: { expires_in: 120 } })]);
    expect(s.errors).toEqual([]);
  });

  it("shows a fixture replay's verdicts in the events log", async () => {
    const recording = [
      { t: 0, kind: "meta", format: 1, started_at: "2026-01-01T00:00:00.000Z" },
      { t: 1, kind: "req", id: "1", ns: "storage", method: "get", args: { key: "absent" } },
      {
        t: 2,
        kind: "res",
        id: "1",
        ns: "storage",
        method: "get",
        ok: false,
        error: { code: "permission_denied", message: "recorded" },
      },
    ];
    const s = await openDashboard(browser(), {}, (dir) => {
      editManifest(dir, (m) => {
        m.dev = { fixtures: ["fixtures/*.jsonl"] };
      });
      mkdirSync(path.join(dir, "fixtures"));
      writeFileSync(
        path.join(dir, "fixtures/r.jsonl"),
        recording.map((line) => JSON.stringify(line)).join("\n") + "\n",
      );
    });
    const wid = s.server.window.window_uuid;
    await eventually(() => textOf(s.frame(wid).locator(".title"))).toBe("ready main v1");
    const replay = await fetch(`${s.server.url}dev/api/fixtures/replay`, {
      method: "POST",
      body: JSON.stringify({ file: "fixtures/r.jsonl" }),
    });
    expect(replay.status).toBe(200);
    // Recorded as refused, granted now: the one call differs, and the row says so.
    const row = s.page.locator("#events details.error summary", { hasText: "replayed" });
    await eventually(() => textOf(row)).toBe(
      `replayed fixtures/r.jsonl into ${wid.slice(0, 8)}: 0 match, 1 differ, 0 skipped`,
    );
    expect(s.errors).toEqual([]);
  });

  it("reloads the window after a bundle edit; the session recording passes fixture verify", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "anna-dev-record-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const record = path.join(dir, "session.jsonl");
    const s = await openDashboard(browser(), { watch: true, record });
    const wid = s.server.window.window_uuid;
    const title = s.frame(wid).locator(".title");
    await eventually(() => textOf(title)).toBe("ready main v1");
    await simulate(s, "tool_job", '{"job_id": "job-1", "state": "running"}');
    await eventually(() => textOf(title)).toBe("tool_job job-1 running");
    await simulate(s, "entry_payload", '"from the panel"');
    await eventually(() => textOf(title)).toBe('entry_payload "from the panel"');

    const appJs = path.join(s.dir, "bundle/app.js");
    writeFileSync(appJs, readFileSync(appJs, "utf8").replace('"v1"', '"v2"'));
    await eventually(() => textOf(title)).toBe("ready main v2");

    await s.server.close();
    const { code, report } = await verify(record);
    expect(report).toMatchObject({ ok: true, errors: 0 });
    expect(code).toBe(0);
    const lines = readFileSync(record, "utf8").trim().split("\n");
    const names = lines.map(
      (line) => JSON.parse(line) as { kind: string; name?: string; method?: string },
    );
    expect(names.some((r) => r.kind === "event" && r.name === "tool_job")).toBe(true);
    // The page-local event is in the recording too (A10), and verify accepts it.
    expect(names.some((r) => r.kind === "event" && r.name === "entry_payload")).toBe(true);
    expect(names.filter((r) => r.kind === "req" && r.method === "hello")).toHaveLength(2);
    expect(s.errors).toEqual([]);
  });
});
