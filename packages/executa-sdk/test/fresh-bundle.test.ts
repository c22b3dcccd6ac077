// The one freshness rule the SDK entry and the CLI's fast paths share: the bundle only while no
// build stamp is newer, never when switched off, always (when it exists) when forced.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { bundleIsFresh } from "../src/fresh-bundle.js";

function files(times: Record<string, number>): Record<string, URL> {
  const dir = mkdtempSync(path.join(tmpdir(), "fresh-bundle-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const out: Record<string, URL> = {};
  for (const [name, seconds] of Object.entries(times)) {
    const file = path.join(dir, name);
    writeFileSync(file, "");
    utimesSync(file, seconds, seconds);
    out[name] = pathToFileURL(file);
  }
  out.missing = pathToFileURL(path.join(dir, "missing"));
  return out;
}

describe("bundleIsFresh", () => {
  it("uses a bundle newer than every stamp, and ignores stamps that do not exist", () => {
    const f = files({ bundle: 2_000, a: 1_000, b: 2_000 });
    expect(bundleIsFresh(f.bundle as URL, [f.a as URL, f.b as URL, f.missing as URL])).toBe(true);
  });

  it("refuses a bundle older than one stamp (a tsc -b after the last bundle)", () => {
    const f = files({ bundle: 2_000, a: 1_000, b: 3_000 });
    expect(bundleIsFresh(f.bundle as URL, [f.a as URL, f.b as URL])).toBe(false);
    expect(bundleIsFresh(f.bundle as URL, [f.b as URL], { force: true })).toBe(true);
  });

  it("refuses a missing bundle even when forced, and any bundle when switched off", () => {
    const f = files({ bundle: 2_000 });
    expect(bundleIsFresh(f.missing as URL, [], { force: true })).toBe(false);
    expect(bundleIsFresh(f.bundle as URL, [], { off: true, force: true })).toBe(false);
  });
});
