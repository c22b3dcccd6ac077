// A published app whose manifest breaks only the platform's server-side allow-lists (host
// capabilities in `permissions`, a URL in `style-src`, an app.json `category` production does not
// list) runs under `anna-app dev`: the errors are warnings in the banner and the panel, and the
// harness serves what production would allow. A manifest that cannot run still stops the launch.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { devBanner } from "../../src/dev/banner.js";
import { startDevProcess } from "./dev-process.js";
import { copyFixtureApp, rawGet, startHarness } from "./helpers.js";

const APP = "allowlist-app";

describe("anna-app dev: manifests that break only server-side allow-lists", () => {
  it("runs the app, warns about each refused value, and serves the CSP without the refused source", async () => {
    const { dir } = copyFixtureApp(APP);
    const server = await startHarness({ dir });
    const { warnings } = await devBanner(server);
    for (const value of ["llm.image", "llm.image.edit", "host.upload"]) {
      expect(warnings).toContainEqual(
        expect.stringMatching(
          new RegExp(`^manifest.json /permissions/\\d: "${value}" .*runs without "${value}"`),
        ),
      );
    }
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /style-src\/0: .*serves the CSP without "https:\/\/fonts.googleapis.com"/,
      ),
    );
    expect(warnings).toContainEqual(expect.stringMatching(/^app.json \/category: .*not "design"/));
    // The rest of the manifest holds: the granted permissions, the additive font-src override.
    expect(server.app.manifest.permissions).toEqual(["storage.read", "storage.write"]);

    const page = await rawGet(
      server,
      new URL(server.window.url).pathname + new URL(server.window.url).search,
    );
    expect(page.status).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toMatch(/style-src 'self' 'unsafe-inline'(;|$)/);
    expect(csp).not.toContain("fonts.googleapis.com");
    expect(csp).toContain("font-src 'self' data: https://fonts.gstatic.com");

    // The developer panel boots with the same warnings.
    const state = (await (await fetch(`${server.url}dev/api/state`)).json()) as {
      warnings: string[];
    };
    expect(state.warnings).toEqual(warnings);
  });

  it("prints the warnings in the text banner of the command", async () => {
    const { dir } = copyFixtureApp(APP);
    const dev = startDevProcess(["--port", "0", "--no-record", "--no-watch"], dir);
    await dev.waitFor(/Ctrl-C stops the harness/);
    expect(await dev.stop("SIGINT")).toBe(130);
    expect(dev.stdout()).toMatch(
      /^ {2}manifest.json \/permissions\/2: "llm.image" is not an allowed permission/m,
    );
  });

  it("still exits 2 for a manifest that is not JSON or has no runnable view", async () => {
    const { dir } = copyFixtureApp(APP);
    const manifest = path.join(dir, "manifest.json");
    const text = readFileSync(manifest, "utf8");
    writeFileSync(manifest, text.replace('"schema": 2,', '"schema": 2'));
    const notJson = startDevProcess(["--port", "0", "--no-record", "--no-watch"], dir);
    expect(await notJson.exited()).toBe(2);
    expect(notJson.stderr()).toContain("is not JSON");

    const noViews = JSON.parse(text) as { ui: { views: unknown[] } };
    noViews.ui.views = [];
    writeFileSync(manifest, JSON.stringify(noViews));
    const viewless = startDevProcess(["--port", "0", "--no-record", "--no-watch"], dir);
    expect(await viewless.exited()).toBe(2);
    expect(viewless.stderr()).toMatch(/views/);
  });
});
