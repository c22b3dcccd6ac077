// `npm run bench:dashboard`: how fast the web dashboard is usable (issue 14's bar: "interactive
// within 1 s on this machine with a warm server"), in Debian's Chromium, each page next to the
// same built files served by a bare `node:http` static server, measured in the same run and
// interleaved over rounds. Every load is a fresh browser context (nothing cached), after warm-up
// loads that warm the servers, not the browser.
//   1. the sign-in page rendered: Nexus against the bare server (the same HTML, scripts and
//      styles; the bare server answers the page's one API call 404, which the page reads as
//      signed out, as Nexus's 401 is);
//   2. the App Store signed in, its catalogue answered (the signed-in home page of a person who
//      has not chatted yet), against the same bare sign-in load: target ≤ 1 s.
// The figure is the page's own `performance.now()` when the element is there: from the start of
// the navigation to React having rendered it (its handlers attach in the same commit).
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { chromium, type Browser } from "playwright-core";
import { formatNumber, formatSummary, renderTable } from "../host/format.js";
import { jsonOutputPath, writeJsonFile } from "../host/json-file.js";
import { summarize, type Summary } from "../host/stats.js";
import { httpClient, startServer } from "../nexus/kv.js";
import type { ReportRow } from "../report/row.js";
import { REPO } from "../report/suites.js";

const CHROMIUM = process.env["ANNA_CHROMIUM"] ?? "/usr/bin/chromium";
const DIST = join(REPO, "packages/dashboard/dist");
const INTERACTIVE_TARGET_MS = 1000;
const WAIT_MS = 30_000;
const WARMUP_LOADS = 2;
const DEFAULT_JSON_PATH = join(REPO, "bench/results/dashboard.json");
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

const { values } = parseArgs({
  options: {
    rounds: { type: "string" },
    smoke: { type: "boolean" },
    json: { type: "boolean" },
    out: { type: "string" },
  },
});
const rounds = Number(values.rounds ?? (values.smoke === true ? 1 : 10));
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be an integer ≥ 1");
const jsonPath = jsonOutputPath(values, DEFAULT_JSON_PATH);

/** The dashboard's files as a bare static server serves them: a file, or index.html. */
function startBareStatic(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path.startsWith("/api/")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"none"}');
      return;
    }
    const file = normalize(join(DIST, path));
    const inside = file.startsWith(DIST) && extname(file) !== "" ? file : join(DIST, "index.html");
    readFile(inside).then(
      (body) =>
        res
          .writeHead(200, { "content-type": TYPES[extname(inside)] ?? "application/octet-stream" })
          .end(body),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${address.port}`, server });
    }),
  );
}

interface Load {
  url: string;
  /** A session cookie to send (signed in), or none. */
  cookie?: { name: string; value: string };
  /** Playwright text the page shows once usable. */
  ready: string;
}

/** Navigation start → `ready` on the page, in a fresh context: the page's own clock. */
async function timeLoad(browser: Browser, load: Load): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (load.cookie) {
      await context.addCookies([{ ...load.cookie, url: load.url, httpOnly: true }]);
    }
    const page = await context.newPage();
    await page.goto(load.url, { waitUntil: "commit", timeout: WAIT_MS });
    await page.getByText(load.ready, { exact: true }).first().waitFor({ timeout: WAIT_MS });
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const data = mkdtempSync(join(tmpdir(), "anna-bench-dashboard-"));
  const nexus = await startServer(data);
  const bare = await startBareStatic();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const http = httpClient(nexus.url, 1);
    const signup = await http.send(
      "POST",
      "/api/v1/auth/signup",
      { "content-type": "application/json" },
      JSON.stringify({ email: "bench@example.com", password: "correct horse battery" }),
    );
    http.close();
    const cookie = /anna_session=([^;]+)/.exec(String(signup.headers["set-cookie"] ?? ""))?.[1];
    if (signup.status !== 201 || cookie === undefined) {
      throw new Error(`signup answered ${signup.status}: ${signup.text}`);
    }
    const loads = {
      bare: { url: `${bare.url}/signin`, ready: "Sign in" },
      signin: { url: `${nexus.url}/signin`, ready: "Sign in" },
      store: {
        url: `${nexus.url}/store`,
        cookie: { name: "anna_session", value: cookie },
        ready: "No apps in the store yet.",
      },
    } satisfies Record<string, Load>;
    const samples: Record<keyof typeof loads, number[]> = { bare: [], signin: [], store: [] };
    for (const load of Object.values(loads)) {
      for (let i = 0; i < WARMUP_LOADS; i++) await timeLoad(browser, load);
    }
    for (let round = 1; round <= rounds; round++) {
      for (const [name, load] of Object.entries(loads) as [keyof typeof loads, Load][]) {
        samples[name].push(await timeLoad(browser, load));
      }
      process.stderr.write(`round ${round}/${rounds}\n`);
    }
    report(
      {
        bare: summarize(samples.bare),
        signin: summarize(samples.signin),
        store: summarize(samples.store),
      },
      loadAtStart,
    );
  } finally {
    await browser.close();
    bare.server.close();
    nexus.child.kill("SIGTERM");
    await new Promise((resolve) => nexus.child.once("exit", resolve));
    rmSync(data, { recursive: true, force: true });
  }
}

function report(s: Record<"bare" | "signin" | "store", Summary>, loadAtStart: number[]): void {
  const storeVerdict = s.store.median <= INTERACTIVE_TARGET_MS ? "PASS" : "MISS";
  const rows = [
    [
      "sign-in page rendered",
      formatSummary(s.bare),
      formatSummary(s.signin),
      `${(s.signin.median / s.bare.median).toFixed(2)}× bare`,
      "(info)",
      "",
    ],
    [
      "App Store interactive, signed in",
      formatSummary(s.bare),
      formatSummary(s.store),
      `+${formatNumber(s.store.median - s.bare.median)} ms vs bare`,
      `≤ ${INTERACTIVE_TARGET_MS} ms`,
      storeVerdict,
    ],
  ];
  process.stdout.write(
    `\nDashboard load in Chromium — ${rounds} rounds, median (min–max) ms from navigation start\n` +
      `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, load ${loadAtStart[0]?.toFixed(2)} at start, ${loadavg()[0]?.toFixed(2)} at end\n\n` +
      renderTable(["page", "bare static server", "Nexus", "comparison", "target", ""], rows) +
      "\n",
  );
  if (jsonPath === undefined) return;
  const reportRows: ReportRow[] = [
    {
      figure: "signin_render_ms",
      label: "sign-in page rendered (fresh context)",
      unit: "ms",
      ours: s.signin.median,
      baseline: { name: "bare static server", value: s.bare.median },
      better: "lower",
      comparison: `${(s.signin.median / s.bare.median).toFixed(2)}× bare`,
      target: "",
      verdict: "info",
    },
    {
      figure: "store_interactive_ms",
      label: "App Store interactive, signed in (fresh context)",
      unit: "ms",
      ours: s.store.median,
      baseline: { name: "bare static server, sign-in page", value: s.bare.median },
      better: "lower",
      comparison: `+${formatNumber(s.store.median - s.bare.median)} ms vs bare`,
      target: `≤ ${INTERACTIVE_TARGET_MS} ms`,
      verdict: storeVerdict,
    },
  ];
  writeJsonFile(jsonPath, {
    suite: "dashboard",
    rounds,
    machine: { node: process.version, cpus: cpus().length, load: loadAtStart },
    figures: s,
    report: reportRows,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
