// Focus Flow as the repository checks it: the app's own bundle suite run unchanged, the plugin's
// Python tests, the plugin under our host, `validate --strict`, and the recorded session.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { detectLaunchSpec, ExecutaHost } from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  APP_SUITE_TIMEOUT_MS,
  runAppSuite,
} from "../../../../packages/cli/test/test-kit/app-suite.js";
import { jsonLine, runCli, tempDir } from "../../../../packages/cli/test/executa-dev/helpers.js";
import { APP_DIR, HAPPY_PATH, HAVE_PYTHON, MANIFEST, PLUGIN_DIR, TOOL_ID } from "./app.js";

const USER = "user-7";
/** The app's bundle tests: tests/bundle/*.spec.js. */
const APP_TESTS = 17;

describe("examples/apps/focus-flow", () => {
  it(
    "passes its unchanged bundle suite against @anna-ai/cli/test",
    async () => {
      const run = await runAppSuite(APP_DIR);
      expect(run.failed, run.stderr).toEqual([]);
      expect(run.passed).toBe(APP_TESTS);
      expect(run.total).toBe(APP_TESTS);
      expect(run.code).toBe(0);
    },
    APP_SUITE_TIMEOUT_MS + 5_000,
  );

  it.skipIf(!HAVE_PYTHON)("passes the plugin's Python unittest suite", () => {
    const run = spawnSync("python3", ["-m", "unittest", "-v"], {
      cwd: PLUGIN_DIR,
      encoding: "utf8",
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Ran 18 tests/);
  });

  it("passes anna-app validate --strict with no warning", async () => {
    const run = await runCli(["validate", APP_DIR, "--strict", "--json"]);
    expect(jsonLine(run), run.stderr).toMatchObject({ ok: true, errors: 0, warnings: 0 });
    expect(run.code).toBe(0);
  });
});

describe.skipIf(!HAVE_PYTHON)("the focus-session executa under ExecutaHost", () => {
  it("is found like anna-app dev finds it and runs a session on protocol 2.0", async () => {
    const spec = await detectLaunchSpec(PLUGIN_DIR, {
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    expect(spec).toMatchObject({ toolId: TOOL_ID, type: "python" });
    const host = new ExecutaHost();
    onTestFinished(() => host.close());
    const plugin = host.register(spec, { userId: USER });
    const manifest = await plugin.describe();
    expect(manifest.tools.map((t) => t.name)).toEqual([
      "start_session",
      "complete_session",
      "current_session",
      "stats",
    ]);
    expect(plugin.protocolVersion).toBe("2.0");

    const started = await host.invoke(USER, TOOL_ID, "start_session", {
      task: "Under the host",
      minutes: 5,
    });
    expect(started).toMatchObject({
      ok: true,
      data: { session: { task: "Under the host", minutes: 5 } },
    });
    const id = (started as { data: { session: { id: string } } }).data.session.id;
    const again = await host.invoke(USER, TOOL_ID, "start_session", { task: "Another" });
    expect(again).toMatchObject({
      ok: false,
      kind: "tool_failed",
      error: expect.stringContaining("“Under the host” is still running") as unknown,
    });
    const done = await host.invoke(USER, TOOL_ID, "complete_session", { session_id: id });
    expect(done).toMatchObject({
      ok: true,
      data: { session: { id, completed: false }, message: expect.stringMatching(/^Stopped/) },
    });
    const finished = (done as { data: { session: unknown } }).data.session;
    const stats = await host.invoke(USER, TOOL_ID, "stats", { sessions: [finished] });
    expect(stats).toMatchObject({ ok: true, data: { sessions: 1, completed: 0 } });
    const wrong = await host.invoke(USER, TOOL_ID, "start_session", { task: "x", minutes: "5" });
    expect(wrong).toMatchObject({ ok: false, kind: "rpc_error", error: { code: -32602 } });
    const current = await host.invoke(USER, TOOL_ID, "current_session", {});
    expect(current).toMatchObject({ ok: true, data: { session: null } });
    expect(await host.health(USER, TOOL_ID)).toMatchObject({ status: "healthy" });
  });
});

describe("fixtures/happy-path.jsonl (recorded by test/browser.int.test.ts)", () => {
  it("passes fixture verify", async () => {
    const run = await runCli(["fixture", "verify", HAPPY_PATH, "--json"]);
    expect(jsonLine(run), run.stderr).toMatchObject({ ok: true, errors: 0, warnings: 0 });
    expect(run.code).toBe(0);
  });

  it("replays under the manifest with every call allowed", async () => {
    const run = await runCli(["fixture", "replay", HAPPY_PATH, "--manifest", MANIFEST, "--json"]);
    const report = jsonLine(run) as { ok: boolean; denied: number; calls: { ns: string }[] };
    expect(report).toMatchObject({ ok: true, denied: 0, changed: 0 });
    expect(new Set(report.calls.map((c) => c.ns))).toEqual(
      new Set(["window", "prefs", "storage", "tools", "chat"]),
    );
    expect(run.code).toBe(0);
  });

  it("would be denied under a manifest without the storage grant", async () => {
    // A copy of the project (bundled:focus-session resolves through app.json beside the
    // manifest) whose manifest no longer grants storage.
    const dir = tempDir("focus-flow-");
    for (const file of ["app.json", "executas/focus-session/executa.json"]) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      copyFileSync(path.join(APP_DIR, file), path.join(dir, file));
    }
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as {
      ui: { host_api: Record<string, unknown> };
    };
    delete manifest.ui.host_api["storage"];
    const narrowed = path.join(dir, "manifest.json");
    writeFileSync(narrowed, JSON.stringify(manifest));
    const run = await runCli(["fixture", "replay", HAPPY_PATH, "--manifest", narrowed, "--json"]);
    const report = jsonLine(run) as {
      ok: boolean;
      denied: number;
      calls: { ns: string; outcome: string }[];
    };
    expect(report.ok).toBe(false);
    const denied = report.calls.filter((c) => c.outcome === "denied").map((c) => c.ns);
    expect(new Set(denied)).toEqual(new Set(["storage"]));
    expect(run.code).toBe(1);
  });
});
