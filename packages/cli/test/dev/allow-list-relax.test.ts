// Which manifest errors `anna-app dev` turns into warnings: only values production's allow-lists
// refuse, dropped from the manifest it runs; any other error still blocks, and is the one named.
import { describe, expect, it } from "vitest";
import { relaxAllowLists } from "../../src/dev/allow-list-relax.js";

const manifest = (extra: Record<string, unknown> = {}) => ({
  schema: 2,
  permissions: ["storage.read", "host.upload"],
  ui: {
    bundle: { format: "static-spa", entry: "index.html" },
    views: [{ name: "main", title: "Main", default: true }],
    csp_overrides: { "style-src": ["'self'", "https://fonts.googleapis.com"] },
  },
  ...extra,
});

describe("relaxAllowLists", () => {
  it("drops the refused permission and CSP source and says so, leaving the rest", () => {
    const out = relaxAllowLists(manifest());
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.manifest.permissions).toEqual(["storage.read"]);
    expect(out.manifest.ui?.csp_overrides).toEqual({ "style-src": ["'self'"] });
    expect(out.warnings).toEqual([
      expect.stringMatching(/^manifest.json \/permissions\/1: .*runs without "host.upload"\)$/),
      expect.stringMatching(
        /^manifest.json \/ui\/csp_overrides\/style-src\/1: .*CSP without "https:\/\/fonts.googleapis.com"/,
      ),
    ]);
  });

  it("still blocks on any other error, naming it", () => {
    const out = relaxAllowLists(manifest({ schema: "two" }));
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.issue?.pointer).toBe("/schema");
  });

  it("answers a valid manifest with no warnings", () => {
    const out = relaxAllowLists({
      ...manifest(),
      permissions: ["storage.read"],
      ui: { ...manifest().ui, csp_overrides: {} },
    });
    expect(out).toMatchObject({ ok: true, warnings: [] });
  });
});
