// `anna-app dev` as a process: the --json banner, the text banner's paths, Ctrl-C, and launch
// errors with exit 2.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/commands/registry.js";
import { startDevProcess } from "./dev-process.js";
import { scaffoldTestApp, SLUG } from "./helpers.js";

describe("anna-app dev (command)", () => {
  it("prints the banner as one JSON line and exits 130 on Ctrl-C", async () => {
    const app = await scaffoldTestApp();
    const dev = startDevProcess(["--port", "0", "--json", "--no-record", "--no-watch"], app.dir);
    const [line] = await dev.waitFor(/^\{.*\}$/m);
    expect(await dev.stop("SIGINT")).toBe(130);
    expect(JSON.parse(line)).toMatchObject({
      dashboard: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      app: { slug: SLUG },
      views: ["main"],
      window: {
        url: expect.stringMatching(new RegExp(`/anna-apps/${SLUG}/dev/index.html\\?wid=.+&t=.+`)),
      },
      executas: [{ tool_id: app.toolId, type: "python", state: "idle" }],
      storage: expect.stringContaining("legacy"),
      llm: "mock (synthetic)",
      recording: null,
    });
  });

  it("shows every path of the text banner relative to the cwd, and exits 143 on SIGTERM", async () => {
    const app = await scaffoldTestApp();
    writeFileSync(path.join(app.dir, "llm.jsonl"), "");
    const dev = startDevProcess(
      ["--port", "0", "--no-watch", "--mock-llm", "llm.jsonl", "--record", "out/s.jsonl"],
      app.dir,
    );
    await dev.waitFor(/Ctrl-C stops the harness/);
    expect(await dev.stop("SIGTERM")).toBe(143);
    const banner = dev.stdout();
    expect(banner).toContain("  LLM        mock (llm.jsonl)\n");
    expect(banner).toContain(`  Recording  ${path.join("out", "s.jsonl")}\n`);
    expect(banner).toMatch(new RegExp(`  Executas   ${app.toolId} \\(python, executas/`));
    expect(banner).not.toContain(app.dir);
    // The dashboard is the thing to open; a window URL (its token) would not work on its own.
    expect(banner).toMatch(/^ {2}Dashboard {2}http:\/\/127\.0\.0\.1:\d+\/ {2}\(open this\)$/m);
    expect(banner).toMatch(/^ {2}Window {5}main [0-9a-f]{8}, shown in the dashboard$/m);
    expect(banner).not.toMatch(/[?&]t=/);
  });

  it("exits 2 with one line naming the login command for --storage aps without a saved account", async () => {
    const app = await scaffoldTestApp();
    // An empty config folder: no credentials file, and no ANNA_APP_HOST/ANNA_APP_PAT pair.
    const dev = startDevProcess(["--port", "0", "--storage", "aps"], app.dir, {
      XDG_CONFIG_HOME: path.join(app.dir, "no-config"),
      ANNA_APP_HOST: "",
      ANNA_APP_PAT: "",
    });
    expect(await dev.exited()).toBe(2);
    expect(dev.stderr().trim().split("\n")).toHaveLength(1);
    expect(dev.stderr()).toMatch(/not logged in: .*run 'anna-app login --host <url>' first/);
    // The command it names exists.
    const named = /'anna-app ([a-z-]+)/.exec(dev.stderr())?.[1];
    expect(named).toBe("login");
    expect(COMMANDS.some((c) => c.path.join(" ") === named)).toBe(true);
  });
});
