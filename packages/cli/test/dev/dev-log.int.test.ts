// `anna-app dev --log-level`: the harness logs JSON lines to stderr through a real logger (it
// used the null logger, so a failing route or a dropped stream said nothing), at the level asked,
// without the tokens its URLs carry.
import { describe, expect, it } from "vitest";
import { startDevProcess } from "./dev-process.js";
import { scaffoldTestApp } from "./helpers.js";

const FLAGS = ["--port", "0", "--json", "--no-record", "--no-watch"];

describe("anna-app dev --log-level", () => {
  it("debug: a JSON line per request on stderr, with the path but never the window token", async () => {
    const app = await scaffoldTestApp();
    const dev = startDevProcess([...FLAGS, "--log-level", "debug"], app.dir);
    const [line] = await dev.waitFor(/^\{.*\}$/m);
    const banner = JSON.parse(line) as { window: { url: string } };
    const token = new URL(banner.window.url).searchParams.get("t") ?? "";
    expect(token).not.toBe("");
    expect((await fetch(banner.window.url)).status).toBe(200);
    await dev.waitFor(/"msg":"request".*"path":"\/anna-apps\/[^"]+\/dev\/index\.html"/, "stderr");
    expect(await dev.stop("SIGINT")).toBe(130);
    const lines = dev
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "info", msg: "harness listening", source: "anna-app dev" }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "debug", msg: "request", method: "GET", status: 200 }),
    );
    expect(dev.stderr()).not.toContain(token);
  });

  it("the default (warn) prints no info or debug lines", async () => {
    const app = await scaffoldTestApp();
    const dev = startDevProcess(FLAGS, app.dir);
    const [line] = await dev.waitFor(/^\{.*\}$/m);
    const banner = JSON.parse(line) as { dashboard: string };
    expect((await fetch(banner.dashboard)).status).toBe(200);
    expect(await dev.stop("SIGINT")).toBe(130);
    expect(dev.stderr()).not.toMatch(/"level":"(info|debug)"/);
  });

  it("an unknown level is a usage error naming the levels", async () => {
    const app = await scaffoldTestApp();
    const dev = startDevProcess([...FLAGS, "--log-level", "verbose"], app.dir);
    expect(await dev.exited()).toBe(2);
    expect(dev.stderr()).toMatch(/error, warn, info, debug/);
    expect(dev.stderr()).not.toMatch(/\n\s+at /);
  });
});
