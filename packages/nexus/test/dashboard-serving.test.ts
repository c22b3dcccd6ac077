// The dashboard's files at `/` from a real folder: index.html for client routes (revalidated),
// hashed assets cached for a year, the dashboard's CSP and no framing on every answer, server
// namespaces keeping their JSON 404, other routes untouched, and a page saying how to build it
// when there is nothing to serve.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DASHBOARD_CSP } from "../src/http/page-headers.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { harness } from "./helpers/harness.js";

useDialectCleanup();

const dist = mkdtempSync(path.join(tmpdir(), "nexus-dashboard-dist-"));
afterAll(() => rmSync(dist, { recursive: true, force: true }));
const INDEX = '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>';
mkdirSync(path.join(dist, "assets"));
mkdirSync(path.join(dist, "types"));
writeFileSync(path.join(dist, "index.html"), INDEX);
writeFileSync(path.join(dist, "assets", "index-abc123.js"), "console.log('dashboard')");
writeFileSync(path.join(dist, "assets", "index-abc123.css"), "body{}");
writeFileSync(path.join(dist, "favicon.svg"), "<svg/>");
writeFileSync(path.join(dist, "types", "app.d.ts"), "export {};");
mkdirSync(path.join(dist, "app-sdk"));
writeFileSync(path.join(dist, "app-sdk", "index.js"), "export class AnnaAppRuntime {}");

const open = async (distDir: string | undefined) =>
  harness(await DIALECTS[0]!.open(), {}, { dashboard: { distDir } });

function expectDashboardHeaders(res: Response) {
  expect(res.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("the dashboard at /", () => {
  it("answers index.html at / and at every client route, revalidated on each load", async () => {
    const h = await open(dist);
    for (const p of ["/", "/store", "/store/focus-flow", "/developer", "/admin/review?x=1"]) {
      const res = await h.req("GET", p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expectDashboardHeaders(res);
      expect(await res.text()).toBe(INDEX);
    }
  });

  it("serves hashed assets for a year and other top-level files revalidated", async () => {
    const h = await open(dist);
    const js = await h.req("GET", "/assets/index-abc123.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await js.text()).toBe("console.log('dashboard')");
    const css = await h.req("GET", "/assets/index-abc123.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const icon = await h.req("GET", "/favicon.svg");
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).toBe("no-cache");
    expectDashboardHeaders(icon);
  });

  it("serves the app SDK to bundles in their opaque origin, and says when it is not built", async () => {
    const h = await open(dist);
    const sdk = await h.req("GET", "/static/anna-apps/_sdk/latest/index.js");
    expect(sdk.status).toBe(200);
    expect(sdk.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    // A module script of a sandboxed iframe is a CORS load from origin "null".
    expect(sdk.headers.get("access-control-allow-origin")).toBe("*");
    expect(sdk.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(sdk.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await sdk.text()).toBe("export class AnnaAppRuntime {}");
    const other = await h.req("GET", "/static/anna-apps/_sdk/latest/other.js");
    expect(other.status).toBe(404);
    const unbuilt = await open(mkdtempSync(path.join(tmpdir(), "nexus-dashboard-empty-")));
    const missing = await unbuilt.req("GET", "/static/anna-apps/_sdk/latest/index.js");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("the app SDK is not built");
  });

  it("answers a missing asset and escapes out of dist/assets with 404, not the page", async () => {
    const h = await open(dist);
    for (const p of [
      "/assets/index-gone.js",
      "/assets/..%2findex.html",
      "/assets/%2e%2e%2f%2e%2e%2fpackage.json",
      "/assets/.hidden",
    ]) {
      const res = await h.req("GET", p);
      expect(res.status, p).toBe(404);
      expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe("not_found");
    }
    // A folder of dist/ (tsc's declarations) is not a file to serve; the path is a client route.
    expect(await (await h.req("GET", "/types")).text()).toBe(INDEX);
  });

  it("keeps the JSON 404 of server namespaces and the routes that were there", async () => {
    const h = await open(dist);
    for (const p of ["/api/v1/nope", "/anna-apps/nope/x", "/.well-known/nope"]) {
      const res = await h.req("GET", p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
    }
    expect((await h.req("GET", "/healthz")).status).toBe(200);
    const device = await h.req("GET", "/device");
    expect(device.status).toBe(200);
    expect(await device.text()).toContain("Approve CLI login");
    expect((await h.req("GET", "/api/v1/store/categories")).status).toBe(200);
    // Writes are not the dashboard's: an unknown POST is still the API's 404.
    expect((await h.req("POST", "/store", { body: {} })).status).toBe(404);
  });

  it("answers a page saying how to build it when dist has no index.html or is unknown", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "nexus-dashboard-empty-"));
    try {
      for (const distDir of [empty, undefined]) {
        const h = await open(distDir);
        const res = await h.req("GET", "/store");
        expect(res.status).toBe(503);
        expect(res.headers.get("x-frame-options")).toBe("DENY");
        const text = await res.text();
        expect(text).toContain("The dashboard is not built");
        expect(text).toContain("npm run build");
        expect(text).toContain(
          distDir === undefined ? "not installed" : "no <code>index.html</code>",
        );
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("is not served at all when the server has no dashboard", async () => {
    const h = harness(await DIALECTS[0]!.open());
    expect((await h.req("GET", "/")).status).toBe(404);
  });
});
