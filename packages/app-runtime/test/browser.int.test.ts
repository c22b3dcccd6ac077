// The bundle in real Chromium: a sandboxed (origin "null") iframe importing the served SDK, a host
// page following docs/app-runtime.md, and a sibling frame forging messages. Skipped where Debian's
// Chromium is not installed (`apt-get install chromium`).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, needs } from "../../../tests/support/toolchains.js";

const needsChromium = needs("chromium");
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./fixtures/browser/", import.meta.url));
const REPORT_TIMEOUT_MS = 20_000;

interface Report {
  report?: Record<string, unknown>;
  seen?: Array<Record<string, unknown>>;
  fatal?: string;
}

let dir: string;
let server: Server;
let origin: string;
let reports: Array<(report: Report) => void> = [];

beforeAll(async () => {
  if (needsChromium.skip) return;
  mkdirSync(join(PACKAGE, "test-artifacts"), { recursive: true });
  dir = mkdtempSync(join(PACKAGE, "test-artifacts", "browser-"));
  const bundle = join(dir, "index.js");
  execFileSync(process.execPath, [join(PACKAGE, "scripts", "bundle.mjs"), "--outfile", bundle], {
    stdio: "pipe",
  });
  const sdk = readFileSync(bundle);
  const page = (name: string): Buffer => readFileSync(join(FIXTURES, name));
  server = createServer((request, response) => {
    const url = request.url ?? "/";
    if (url === "/log" && request.method === "POST") {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        response.writeHead(204, { "access-control-allow-origin": "*" }).end();
        const report = JSON.parse(body) as Report;
        for (const resolve of reports.splice(0)) resolve(report);
      });
      return;
    }
    if (url === "/static/anna-apps/_sdk/latest/index.js") {
      // A5: the null-origin iframe imports the module with CORS.
      response
        .writeHead(200, {
          "content-type": "application/javascript",
          "access-control-allow-origin": "*",
        })
        .end(sdk);
      return;
    }
    const file = url.startsWith("/app/index.html")
      ? "app.html"
      : url === "/evil.html"
        ? "evil.html"
        : "host.html";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function nextReport(): Promise<Report> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no report within ${REPORT_TIMEOUT_MS} ms`)),
      REPORT_TIMEOUT_MS,
    );
    reports.push((report) => {
      clearTimeout(timer);
      resolve(report);
    });
  });
}

/** Kill Chromium's whole process group (browser, zygote, renderers, GPU) and wait for the browser. */
async function stop(child: ChildProcess): Promise<void> {
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  await exited;
}

describe.skipIf(needsChromium.skip)(`the SDK in Chromium${needsChromium.reason}`, () => {
  it("connects from a sandboxed iframe, maps errors and events, and ignores a forging sibling frame", async () => {
    reports = [];
    const report = nextReport();
    const profile = mkdtempSync(join(dir, "profile-"));
    const chromium = spawn(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        `--user-data-dir=${profile}`,
        // Stay up until killed (no --dump-dom / virtual time: the forging frame's interval
        // would burn a virtual time budget before the module loads).
        "--remote-debugging-port=0",
        `${origin}/`,
      ],
      // Its own process group, so stop() reaches every Chromium child.
      { stdio: "ignore", detached: true },
    );
    try {
      const { report: app, seen, fatal } = await report;
      expect(fatal).toBeUndefined();
      expect(app).toEqual({
        selfOrigin: "null",
        hostOrigin: origin,
        title: "Browser",
        state: { n: 1 },
        error: { isHostApiError: true, code: "permission_denied" },
        entries: [{ pushed: true }],
      });
      // The page saw the SDK's requests from origin "null", each with the window token.
      const calls = (seen ?? []).filter((entry) => entry["call"] !== undefined);
      expect(calls.map((entry) => entry["call"])).toEqual(
        expect.arrayContaining(["window.hello", "window.ready", "storage.set", "test.report"]),
      );
      expect(calls.every((entry) => entry["origin"] === "null" && entry["token"] === "tok-1")).toBe(
        true,
      );
    } finally {
      await stop(chromium);
    }
  });
});
