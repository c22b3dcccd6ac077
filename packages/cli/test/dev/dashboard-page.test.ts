// The dashboard's fixed promises: app iframes never get allow-same-origin (A5), the bridge checks
// the message source and window, and inlined state cannot close its script element.
import { describe, expect, it } from "vitest";
import { dashboardHtml, DASHBOARD_JS } from "../../src/dev/dashboard-page.js";

describe("dashboard page", () => {
  it("sandboxes app iframes without allow-same-origin", () => {
    const sandbox = /setAttribute\("sandbox", "([^"]*)"\)/.exec(DASHBOARD_JS)?.[1];
    expect(sandbox?.split(" ")).toContain("allow-scripts");
    expect(sandbox).not.toContain("allow-same-origin");
  });

  it("accepts a message only from an app iframe for that iframe's window", () => {
    expect(DASHBOARD_JS).toContain("f.iframe.contentWindow === event.source");
    expect(DASHBOARD_JS).toContain("m.window_uuid !== frame.wid");
    expect(DASHBOARD_JS).toContain('m.type !== "anna-app/rpc"');
  });

  it("inlines state so no value can end the script element", () => {
    const html = dashboardHtml({ title: "</script><script>alert(1)</script>" });
    expect(html).not.toContain("</script><script>alert(1)");
    const boot = /<script type="application\/json" id="boot">(.*?)<\/script>/s.exec(html)?.[1];
    expect(JSON.parse(boot ?? "")).toEqual({ title: "</script><script>alert(1)</script>" });
  });
});
