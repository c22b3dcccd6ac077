// The dashboard's Inspect button: `POST /dev/api/executas/{tool_id}/inspect` starts the plugin
// inspector of `executa dev --ui` for one executa of the app (a process of its own, its own port
// and token), answers the same one again, refuses an unknown executa and another site, and stops
// with the harness. In Chromium, the button opens the inspector in a tab of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { openTestPage, screenshot, useBrowser } from "./browser.js";
import { eventually, textOf } from "./dashboard-session.js";
import { scaffoldTestApp, startHarness } from "./helpers.js";

const python = needs("python3");
const chromium = needs("chromium");

/** No saved account (a developer's HOME could make `executa dev`'s sampling real). */
function cleanEnv(): NodeJS.ProcessEnv {
  const home = mkdtempSync(path.join(tmpdir(), "anna-dev-inspect-home-"));
  onTestFinished(() => rmSync(home, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
  };
  delete env.ANNA_APP_HOST;
  delete env.ANNA_APP_PAT;
  return env;
}

/** A JSON answer, read loosely: the test checks its fields one by one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read by the assertions
type Json = Record<string, any>;

async function inspect(base: string, toolId: string, origin: string = new URL(base).origin) {
  const res = await fetch(`${base}dev/api/executas/${encodeURIComponent(toolId)}/inspect`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: "{}",
  });
  return { status: res.status, body: (await res.json()) as Json };
}

function inspectorApi(url: string) {
  const u = new URL(url);
  const token = u.searchParams.get("token") ?? "";
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  return {
    origin: u.origin,
    state: async () => (await (await fetch(`${u.origin}/api/state`, { headers })).json()) as Json,
    invoke: async (tool: string, args: Record<string, unknown>) =>
      (await (
        await fetch(`${u.origin}/api/invoke`, {
          method: "POST",
          headers,
          body: JSON.stringify({ tool, arguments: args }),
        })
      ).json()) as Json,
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(python.skip)(`anna-app dev: Inspect an executa${python.reason}`, () => {
  it("starts the executa's inspector once, in a process of its own, and stops it with the harness", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app, { env: cleanEnv() });
    const first = await inspect(server.url, app.toolId);
    expect(first.status).toBe(200);
    expect(first.body.inspector).toMatchObject({ tool_id: app.toolId });
    const url = String(first.body.inspector.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    expect(new URL(url).port).not.toBe(String(server.port));

    const api = inspectorApi(url);
    await eventually(
      async () => (await api.state()).tools?.map((t: Json) => t.name) ?? [],
    ).toContain("hello");
    const state = await api.state();
    expect(state.tool_id).toBe(app.toolId);
    expect(state.services.storage).toBe("memory");
    const invoked = await api.invoke("hello", { name: "Ada" });
    expect(invoked.entry).toMatchObject({
      outcome: { ok: true, data: { message: "Hello, Ada!" } },
    });
    // The app's own process was never started: the inspector runs one of its own.
    expect(server.executaStates()[0]?.state).toBe("idle");
    const pid = Number((await api.state()).process.pid);
    expect(alive(pid)).toBe(true);

    // Asked again (a second click, another tab): the same inspector.
    expect((await inspect(server.url, app.toolId)).body.inspector.url).toBe(url);
    expect(server.inspectors.list()).toEqual([{ tool_id: app.toolId, url }]);

    await server.close();
    await expect(fetch(`${api.origin}/api/state`)).rejects.toThrow();
    await eventually(() => alive(pid)).toBe(false);
  });

  it("names the app's executas for an unknown one, and refuses another site", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app, { env: cleanEnv() });
    const unknown = await inspect(server.url, "no-such-tool");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(
      `no executa "no-such-tool" in this app; its executas are ${app.toolId}`,
    );
    const foreign = await inspect(server.url, app.toolId, "http://evil.example");
    expect(foreign.status).toBe(403);
    expect(server.inspectors.list()).toEqual([]);
  });

  describe.skipIf(chromium.skip)(`in Chromium${chromium.reason}`, () => {
    const browser = useBrowser();

    it("opens the inspector in a tab of its own from the executa's Inspect button", async () => {
      const app = await scaffoldTestApp();
      const server = await startHarness(app, { env: cleanEnv() });
      const { page, errors } = await openTestPage(browser());
      await page.goto(server.url);
      const button = page.getByRole("button", { name: `Inspect ${app.toolId}` });
      const [tab] = await Promise.all([page.context().waitForEvent("page"), button.click()]);
      await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/$/, { timeout: 15_000 });
      expect(new URL(tab.url()).port).not.toBe(String(server.port));
      // The inspector's own page: the tool from describe, as a button of its tools panel.
      await eventually(() => textOf(tab.locator("body"))).toContain("hello");
      await screenshot(tab, "dev-inspect-executa");
      expect(errors).toEqual([]);
    });
  });
});
