// The dashboard's fixed promises: app iframes never get allow-same-origin (A5), the bridge checks
// the message source and window, inlined state cannot close its script element, only the
// dashboard's own files are served as assets, and the simulate form's JSON feedback names the
// line and column.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLE_FRAME_SANDBOX } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import {
  DASHBOARD_DIR,
  dashboardAsset,
  dashboardHtml,
  dashboardViews,
} from "../../src/dev/dashboard-page.js";
import { jsonErrorPosition } from "../../src/dev/dashboard/browser/json-position.js";

const source = (name: string) => readFileSync(path.join(DASHBOARD_DIR, name), "utf8");
/** The window host the dashboard serves as ./window-host.js: where the frames and bridge live. */
const HOST_DIR = fileURLToPath(new URL("../../../app-runtime/src/host/", import.meta.url));
const hostSource = (name: string) => readFileSync(path.join(HOST_DIR, name), "utf8");

describe("dashboard page", () => {
  it("sandboxes app iframes without allow-same-origin", () => {
    // The frame's sandbox is app-schema's, the one the bundle's CSP repeats.
    expect(hostSource("frame-element.ts")).toContain("SANDBOX = BUNDLE_FRAME_SANDBOX");
    expect(BUNDLE_FRAME_SANDBOX.split(" ")).toContain("allow-scripts");
    expect(BUNDLE_FRAME_SANDBOX).not.toContain("allow-same-origin");
    expect(hostSource("frame-element.ts")).toContain('iframe.setAttribute("sandbox", SANDBOX)');
  });

  it("accepts a message only from an app iframe for that iframe's window", () => {
    const bridge = hostSource("message-bridge.ts");
    expect(hostSource("window-host.ts")).toContain("frame.iframe.contentWindow === source");
    expect(bridge).toContain("decodeRpcRequest(event.data)");
    expect(bridge).toContain("request.window_uuid !== frame.wid");
  });

  it("inlines state so no value can end the script element", () => {
    const html = dashboardHtml({ title: "</script><script>alert(1)</script>" });
    expect(html).not.toContain("</script><script>alert(1)");
    const boot = /<script type="application\/json" id="boot">(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(boot ?? "")).toEqual({ title: "</script><script>alert(1)</script>" });
    // `$` sequences a string replacement would expand (a stored value, a title) stay as written.
    const dollars = { note: "price $& and $' and $` and $$" };
    const again = /id="boot">(.*?)<\/script>/s.exec(dashboardHtml(dollars))?.[1];
    expect(JSON.parse(again ?? "")).toEqual(dollars);
  });

  it("serves its modules and stylesheet under /dev/, and nothing else from the folder", () => {
    expect(dashboardAsset("/dev/main.js")?.contentType).toMatch(/^application\/javascript/);
    expect(dashboardAsset("/dev/dashboard.css")?.contentType).toMatch(/^text\/css/);
    expect(dashboardAsset("/dev/page.html")).toBeUndefined();
    expect(dashboardAsset("/dev/../dashboard-page.ts")).toBeUndefined();
    expect(dashboardAsset("/main.js")).toBeUndefined();
    // Every module the page imports is served.
    for (const file of ["main.js", "bridge.js", "frames.js", "panel.js", "simulate.js"]) {
      for (const [, name] of source(file).matchAll(/from "\.\/([\w-]+\.js)"/g)) {
        expect(dashboardAsset(`/dev/${name}`), `${file} imports ${name}`).toBeDefined();
      }
    }
  });

  it("gives the frames each view's size bounds", () => {
    const views = dashboardViews({
      schema: 2,
      ui: {
        views: [
          { name: "main", min_size: { w: 320, h: 240 }, single_instance: true },
          { name: "side", title: "Side" },
        ],
      },
    } as unknown as Parameters<typeof dashboardViews>[0]);
    expect(views).toEqual([
      {
        name: "main",
        title: "main",
        default_size: null,
        min_size: { w: 320, h: 240 },
        max_size: null,
        single_instance: true,
      },
      {
        name: "side",
        title: "Side",
        default_size: null,
        min_size: null,
        max_size: null,
        single_instance: false,
      },
    ]);
  });
});

describe("jsonErrorPosition", () => {
  it("names the line and column where the text stops being JSON", () => {
    expect(jsonErrorPosition('{"mode": }')).toEqual({ line: 1, column: 10 });
    expect(jsonErrorPosition('{\n  "a": 1,\n  "b": tru\n}')).toEqual({ line: 3, column: 8 });
    expect(jsonErrorPosition('{"a": 1} x')).toEqual({ line: 1, column: 10 });
    expect(jsonErrorPosition('"open')).toEqual({ line: 1, column: 6 });
    expect(jsonErrorPosition("[1, 2,]")).toEqual({ line: 1, column: 7 });
  });

  it("finds nothing wrong with valid JSON", () => {
    for (const text of [
      '{"a": [1, -2.5e3, true, false, null, "x\\"y"]}',
      " [] ",
      "0",
      '{"k": {}}',
    ]) {
      expect(JSON.parse(text)).toBeDefined();
      expect(jsonErrorPosition(text), text).toBeUndefined();
    }
  });
});
