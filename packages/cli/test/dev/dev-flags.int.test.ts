// The `anna-app dev` flags the earlier suites leave out (Reference L11563, L7343–7356), driven
// through the real CLI process where the flag's wiring is the point: --open (with $BROWSER),
// --mock-llm end to end through the rpc endpoint, --no-llm's message, repeatable --executa,
// --user-id, --view, --slug, a busy --port and a broken --mock-llm file; and a plugin that
// cannot start, seen in the terminal and in the dashboard's state.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import type { DevBanner } from "../../src/dev/banner.js";
import { startDevProcess, DEV_PROCESS_TIMEOUT_MS } from "./dev-process.js";
import { editManifest } from "./edit-manifest.js";
import { scaffoldTestApp, startHarness, tokenOf } from "./helpers.js";

const python = needs("python3");

const QUIET = ["--port", "0", "--no-record", "--no-watch"];

/** A Host API call through the harness's rpc endpoint, with the banner's window and token. */
async function rpcAt(
  banner: DevBanner,
  ns: string,
  method: string,
  args: unknown,
): Promise<Record<string, unknown>> {
  const url = new URL(banner.window.url);
  const res = await fetch(`${banner.dashboard}api/v1/anna-apps/runtime/rpc`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "X-Anna-App-Token": url.searchParams.get("t") ?? "",
    },
    body: JSON.stringify({ id: 1, window_uuid: banner.window.window_uuid, ns, method, args }),
  });
  return (await res.json()) as Record<string, unknown>;
}

const ask = (text: string) => ({
  messages: [{ role: "user", content: { type: "text", text } }],
});

/** Polls for a file a child process writes; the test fails with a clear message after the limit. */
async function fileText(file: string): Promise<string> {
  const deadline = Date.now() + DEV_PROCESS_TIMEOUT_MS;
  for (;;) {
    try {
      return readFileSync(file, "utf8");
    } catch {
      if (Date.now() > deadline) throw new Error(`${file} was never written`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe("anna-app dev flags (CLI process)", () => {
  it("--open runs $BROWSER with the dashboard URL; --mock-llm, --user-id, --view, --slug and repeatable --executa reach the harness", async () => {
    const app = await scaffoldTestApp();
    editManifest(app.dir, (m) => {
      m.ui.views.push({ name: "settings", title: "Settings" });
      m.ui.host_api.llm = ["complete"];
    });
    cpSync(path.join(app.dir, app.executaDir), path.join(app.dir, "alt"), { recursive: true });
    writeFileSync(
      path.join(app.dir, "llm.jsonl"),
      '{"ns":"llm","method":"complete","match":{"contentIncludes":"weather"},"result":{"role":"assistant","content":{"type":"text","text":"sunny"},"model":"mock","stopReason":"endTurn"}}\n',
    );
    const opened = path.join(app.dir, "opened.txt");
    const browser = path.join(app.dir, "browser.mjs");
    writeFileSync(
      browser,
      // Written whole, then renamed: the test never reads a half-written file.
      'import { renameSync, writeFileSync } from "node:fs";\nwriteFileSync(process.argv[2] + ".tmp", process.argv[3]);\nrenameSync(process.argv[2] + ".tmp", process.argv[2]);\n',
    );
    const dev = startDevProcess(
      [
        ...QUIET,
        "--json",
        "--open",
        "--mock-llm",
        "llm.jsonl",
        "--user-id",
        "42",
        "--view",
        "settings",
        "--slug",
        "other-slug",
        "--executa",
        `dir=${app.executaDir}`,
        "--executa",
        "dir=alt,tool_id=tool-alt-00000001",
      ],
      app.dir,
      { BROWSER: `"${process.execPath}" "${browser}" "${opened}" %s` },
    );
    const [line] = await dev.waitFor(/^\{.*\}$/m);
    const banner = JSON.parse(line) as DevBanner;
    expect(banner).toMatchObject({
      user_id: "42",
      app: { slug: "other-slug" },
      views: ["main", "settings"],
      window: {
        view: "settings",
        url: expect.stringContaining("/anna-apps/other-slug/dev/index.html?wid="),
      },
      executa_source: "--executa",
      executas: [{ tool_id: app.toolId }, { tool_id: "tool-alt-00000001" }],
      // Relative to the cwd, like the banner's other paths (was the absolute path).
      llm: "mock (llm.jsonl)",
    });
    expect(await fileText(opened)).toBe(banner.dashboard);

    expect(await rpcAt(banner, "llm", "complete", ask("what is the weather?"))).toMatchObject({
      ok: true,
      result: { content: { type: "text", text: "sunny" }, model: "mock" },
    });
    // A prompt no line matches gets the deterministic synthetic answer, not an error.
    expect(await rpcAt(banner, "llm", "complete", ask("hello"))).toMatchObject({
      ok: true,
      result: { role: "assistant" },
    });
    const hello = await rpcAt(banner, "window", "hello", {});
    expect(hello).toMatchObject({ ok: true, result: { app_id: "other-slug" } });
    expect(await dev.stop("SIGINT")).toBe(130);
  });

  it("--open with a $BROWSER that cannot start says so and keeps the harness running", async () => {
    const app = await scaffoldTestApp();
    const dev = startDevProcess([...QUIET, "--json", "--open"], app.dir, {
      BROWSER: path.join(app.dir, "no-such-browser"),
    });
    await dev.waitFor(
      /--open: .*no-such-browser was not found \(set \$BROWSER\); open http/,
      "stderr",
    );
    expect(await dev.stop("SIGTERM")).toBe(143);
  });

  it("exits 2 naming the problem for a busy --port and an unreadable --mock-llm file", async () => {
    const app = await scaffoldTestApp();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = String((blocker.address() as { port: number }).port);
    const busy = startDevProcess(["--port", port, "--no-record", "--no-watch"], app.dir);
    expect(await busy.exited()).toBe(2);
    expect(busy.stderr()).toContain(`port ${port} is in use; pass --port <n> (0 picks a free one)`);

    const noFixture = startDevProcess([...QUIET, "--mock-llm", "missing.jsonl"], app.dir);
    expect(await noFixture.exited()).toBe(2);
    expect(noFixture.stderr()).toMatch(/--mock-llm.*missing\.jsonl.*file not found/);
  });

  it.skipIf(python.skip)(
    `shows a plugin that cannot start with its last stderr lines, in the terminal and in /dev/api/state${python.reason}`,
    async () => {
      const app = await scaffoldTestApp();
      const plugin = path.join(
        app.dir,
        app.executaDir,
        `${app.handle.replace(/-/g, "_")}_plugin.py`,
      );
      writeFileSync(
        plugin,
        'import sys\nsys.stderr.write("loading focus\\nboom: no module named focus\\n")\nsys.exit(3)\n',
      );
      const dev = startDevProcess([...QUIET, "--json"], app.dir);
      const banner = JSON.parse((await dev.waitFor(/^\{.*\}$/m))[0]) as DevBanner;
      const invoked = await rpcAt(banner, "tools", "invoke", {
        tool_id: app.toolId,
        method: "hello",
        args: { name: "x" },
      });
      expect(invoked).toMatchObject({ ok: false, error: { code: "executa_unavailable" } });
      await dev.waitFor(
        new RegExp(
          `executa ${app.toolId} (crashed|stopped).*\\n(  \\| .*\\n)*  \\| boom: no module named focus`,
        ),
        "stderr",
      );
      const state = (await (await fetch(`${banner.dashboard}dev/api/state`)).json()) as {
        executas: { tool_id: string; state: string; stderr: string[] }[];
      };
      expect(state.executas).toEqual([
        expect.objectContaining({
          tool_id: app.toolId,
          // The supervisor may already be retrying: any state but ready.
          state: expect.stringMatching(/crashed|stopped|restarting|starting/),
          stderr: expect.arrayContaining(["loading focus", "boom: no module named focus"]),
        }),
      ]);
      // The harness keeps answering after the failed start.
      expect(await rpcAt(banner, "storage", "get", { key: "visits" })).toMatchObject({ ok: true });
      expect(await dev.stop()).toBe(130);
    },
  );
});

describe("anna-app dev --no-llm", () => {
  it("answers llm.* with llm_disabled and the spec's message (A7, L7623)", async () => {
    const app = await scaffoldTestApp();
    editManifest(app.dir, (m) => {
      m.ui.host_api.llm = ["complete"];
    });
    const server = await startHarness(app, { llm: "off" });
    const res = await fetch(`${server.url}api/v1/anna-apps/runtime/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Anna-App-Token": tokenOf(server) },
      body: JSON.stringify({
        id: 1,
        window_uuid: server.window.window_uuid,
        ns: "llm",
        method: "complete",
        args: ask("hi"),
      }),
    });
    expect(await res.json()).toMatchObject({
      ok: false,
      error: {
        code: "llm_disabled",
        message: expect.stringMatching(/^harness started with --no-llm/),
      },
    });
    expect(server.llmLabel).toBe("off (--no-llm)");
    expect(server.panel.calls.at(-1)?.outcome).toBe("denied");
  });
});
