// The two figures measured in Chromium against a running `anna-app dev` (the real CLI, watching a
// temp copy of the fixture bundle): the Host API round trip from the app's sandboxed iframe, and
// live reload after a save. Debian's Chromium through playwright-core, never `playwright install`.
import { cpSync, mkdtempSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  chromium,
  type Browser,
  type ConsoleMessage,
  type Frame,
  type Page,
} from "playwright-core";
import { FIXTURE_DIR, startDev, type Started } from "./harness.js";

export const CHROMIUM = process.env["ANNA_CHROMIUM"] ?? "/usr/bin/chromium";
const SLUG = "bench-app";
/** Waiting longer than this for the page, a frame or a reload means the run is broken. */
const WAIT_TIMEOUT_MS = 30_000;

/** Round-trip kinds the bench page knows (fixture/bundle/bench.js). */
export type RpcKind = "echo" | "fetch" | "heartbeat" | "storage.get";

/**
 * The dashboard side of the two baselines, installed before the dashboard's own script so it
 * sees its messages first and keeps them from the bridge: `bench/echo` is answered at once (a
 * postMessage round trip), `bench/fetch` after POSTing the envelope to `/dev/api/report`, a route
 * of the same server that only reads and parses the body (the HTTP floor of the bridge).
 */
const PARENT_SCRIPT = `if (window.top === window) {
  window.addEventListener("message", (event) => {
    const m = event.data;
    if (!m || (m.type !== "bench/echo" && m.type !== "bench/fetch")) return;
    event.stopImmediatePropagation();
    const reply = () => event.source.postMessage({ type: "bench/reply", id: m.id }, "*");
    if (m.type === "bench/echo") return reply();
    fetch("/dev/api/report", { method: "POST", headers: { "content-type": "application/json" }, body: m.body })
      .then((res) => res.json())
      .then(reply);
  });
}`;

/**
 * Diagnosis: the dashboard's panel stream (`/dev/stream`) is never opened, so no call row is
 * rendered. Done in the page rather than with `page.route`: intercepting requests would send
 * every fetch of the page through Playwright and slow the very round trip being measured.
 */
const NO_PANEL_SCRIPT = `if (window.top === window) {
  const RealEventSource = window.EventSource;
  window.EventSource = function (url, init) {
    if (String(url).endsWith("/dev/stream")) return Object.assign(new EventTarget(), { close() {} });
    return new RealEventSource(url, init);
  };
}`;

/** Re-navigates the app iframe from the dashboard; evaluates to the wall-clock ms it did so. */
const RENAVIGATE = `(() => {
  const iframe = document.querySelector("iframe");
  if (iframe === null) throw new Error("the dashboard shows no app iframe");
  const url = new URL(iframe.src);
  url.searchParams.set("bench", String(Math.random()));
  const at = performance.timeOrigin + performance.now();
  iframe.src = url.toString();
  return at;
})()`;

export interface ChromiumSession {
  readonly harness: Started;
  readonly page: Page;
  /** `count` sequential calls of `kind` after `warmup` unmeasured ones; ms per call. */
  roundTrips(kind: RpcKind, warmup: number, count: number): Promise<number[]>;
  /** Save a new stamp.js; ms from before the write to the new document's first script. */
  liveReload(): Promise<{ reloadMs: number; fsWatchMs: number }>;
  /** The dashboard re-navigates the iframe itself; ms to the new document's first script. */
  renavigate(): Promise<number>;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** Diagnosis: the dashboard never gets the panel's stream (no call rows to render). */
  withoutPanel?: boolean;
}

export async function openChromiumSession(options: SessionOptions = {}): Promise<ChromiumSession> {
  const work = mkdtempSync(join(tmpdir(), "anna-bench-app-dev-"));
  const bundleDir = join(work, "bundle");
  cpSync(join(FIXTURE_DIR, "bundle"), bundleDir, { recursive: true });
  writeFileSync(join(bundleDir, "stamp.js"), stampScript("save-0"));
  let harness: Started | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await harness?.stop();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    harness = await startDev({ bundleDir, watch: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // As a developer's browser runs, except the sandbox (root in CI) and the GPU (headless);
      // not --disable-dev-shm-usage, which moves Mojo's shared memory from /dev/shm to /tmp.
      args: ["--no-sandbox", "--disable-gpu"],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(PARENT_SCRIPT);
    if (options.withoutPanel === true) await page.addInitScript(NO_PANEL_SCRIPT);
    const stamps = new StampWatcher(page);
    const ready = waitForConsole(page, (text) => text === "bench-ready");
    await page.goto(harness.banner.dashboard);
    await ready;
    const session = harness;
    let saves = 0;
    return {
      harness: session,
      page,
      async roundTrips(kind, warmup, count) {
        // Page code as strings: no DOM types here, and no tsx helpers leak into the page.
        const call = `window.__bench.run(${JSON.stringify(kind)}, ${warmup}, ${count})`;
        return (await appFrame(page).evaluate(call)) as number[];
      },
      async liveReload() {
        const stamp = `save-${++saves}`;
        const watcher = watch(bundleDir, { recursive: true });
        const fsEvent = new Promise<number>((done) =>
          watcher.once("change", () => done(wallClockMs())),
        );
        const arrived = stamps.next(stamp);
        // The next round starts once the reloaded app has connected again.
        const connected = waitForConsole(page, (text) => text === "bench-ready");
        const savedAt = wallClockMs();
        writeFileSync(join(bundleDir, "stamp.js"), stampScript(stamp));
        const [fsAt, ranAt] = await Promise.all([fsEvent, arrived]).finally(() => watcher.close());
        await connected;
        return { reloadMs: ranAt - savedAt, fsWatchMs: fsAt - savedAt };
      },
      async renavigate() {
        const stamp = `save-${saves}`;
        const arrived = stamps.next(stamp);
        const connected = waitForConsole(page, (text) => text === "bench-ready");
        // Timed inside the page: the same clock as the stamp, no Playwright round trip in it.
        const setAt = (await page.evaluate(RENAVIGATE)) as number;
        const ranAt = await arrived;
        await connected;
        return ranAt - setAt;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The wall clock in ms with sub-ms resolution: comparable across Node and Chromium. */
function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

function stampScript(stamp: string): string {
  return `console.log("bench-stamp ${stamp} " + (performance.timeOrigin + performance.now()));\n`;
}

/** The app iframe (its URL is under /anna-apps/<slug>/dev/). */
function appFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().includes(`/anna-apps/${SLUG}/dev/`));
  if (frame === undefined) {
    throw new Error(
      `no app frame; frames: ${page
        .frames()
        .map((f) => f.url())
        .join(", ")}`,
    );
  }
  return frame;
}

/** Waits for `bench-stamp <stamp> <wall ms>` lines the app's stamp.js logs when it runs. */
class StampWatcher {
  readonly #waiting = new Map<string, (at: number) => void>();

  constructor(page: Page) {
    page.on("console", (message: ConsoleMessage) => {
      const [mark, stamp, at] = message.text().split(" ");
      if (mark !== "bench-stamp" || stamp === undefined) return;
      this.#waiting.get(stamp)?.(Number(at));
      this.#waiting.delete(stamp);
    });
  }

  next(stamp: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the app did not run stamp ${stamp} within ${WAIT_TIMEOUT_MS} ms`)),
        WAIT_TIMEOUT_MS,
      );
      this.#waiting.set(stamp, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }
}

function waitForConsole(page: Page, match: (text: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      page.off("console", listener);
      reject(new Error(`the bench page did not get ready within ${WAIT_TIMEOUT_MS} ms`));
    }, WAIT_TIMEOUT_MS);
    const listener = (message: ConsoleMessage) => {
      if (!match(message.text())) return;
      clearTimeout(timer);
      page.off("console", listener);
      resolve();
    };
    page.on("console", listener);
  });
}
