// The single-file build of `anna-app dev` (scripts/bundle-dev.mjs) behaves like the modules: it
// serves the dashboard with its browser files, the SDK and the bundle, and its launch errors are
// the DevLaunchError it exports, so the command still maps them to exit 2.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldTestApp, SLUG } from "./helpers.js";

const CLI_DIR = fileURLToPath(new URL("../../", import.meta.url));
// Beside dist/bundle/, so the bundle's relative paths (../cli/, ../../src/dev/dashboard/)
// resolve as they do from the real one.
const OUT_DIR = path.join(CLI_DIR, "dist/bundle-test-dev");
const BUNDLE = path.join(OUT_DIR, "dev.js");

beforeAll(() => {
  const built = spawnSync(
    process.execPath,
    [path.join(CLI_DIR, "scripts/bundle-dev.mjs"), "--outfile", BUNDLE],
    { encoding: "utf8" },
  );
  expect(built.status, built.stderr).toBe(0);
});
afterAll(() => rmSync(OUT_DIR, { recursive: true, force: true }));

/** Runs `body` in a fresh Node with the bundle imported as `dev`; returns its JSON output. */
function inNode(body: string): unknown {
  const script = `const dev = await import(${JSON.stringify(pathToFileURL(BUNDLE).href)});\n${body}`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 20_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("the anna-app dev bundle", () => {
  it("serves the dashboard, its scripts, the SDK and the app's bundle", async () => {
    const app = await scaffoldTestApp();
    const manifestPath = path.join(app.dir, "manifest.json");
    const out = inNode(`
const server = await dev.startDevServer({ manifestPath: ${JSON.stringify(manifestPath)}, port: 0, watch: false, record: false });
const status = async (p) => (await fetch(new URL(p, server.url))).status;
const page = await (await fetch(server.url)).text();
const result = {
  dashboard: page.includes("<!doctype html>"),
  script: await status("/dev/bridge.js"),
  sdk: await status("/static/anna-apps/_sdk/latest/index.js"),
  window: await status(server.window.url.replace(/index\\.html.*/, "app.js")),
  banner: (await dev.devBanner(server)).app.slug,
};
await server.close();
console.log(JSON.stringify(result));`);
    expect(out).toEqual({ dashboard: true, script: 200, sdk: 200, window: 200, banner: SLUG });
  });

  it("rejects a bad launch with its own DevLaunchError", async () => {
    const app = await scaffoldTestApp();
    const manifestPath = path.join(app.dir, "manifest.json");
    const out = inNode(`
try {
  await dev.startDevServer({ manifestPath: ${JSON.stringify(manifestPath)}, view: "nope", port: 0, watch: false, record: false });
  console.log(JSON.stringify({ started: true }));
} catch (error) {
  console.log(JSON.stringify({ launchError: error instanceof dev.DevLaunchError, message: error.message }));
}`);
    expect(out).toEqual({ launchError: true, message: expect.stringContaining("--view nope") });
  });

  it("does not load Node's HTTP/2 stack, which its HTTP/1.1 server never uses (D-cli-dev-61)", () => {
    expect(readFileSync(BUNDLE, "utf8")).not.toMatch(/["']node:http2["']/);
    const out = inNode(`console.log(JSON.stringify({ exports: Object.keys(dev).length > 0 }));`);
    expect(out).toEqual({ exports: true });
  });
});
