// Whether the sandbox's uid can reach a folder it must bind: bwrap runs as that uid, and a 0700
// parent would otherwise surface as bwrap's bare "Can't find source path".
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { unreachableBy } from "../../src/executor/sandbox-dirs.js";

const NOBODY = { uid: 65534, gid: 65534 };

function tree(parentMode: number, dirMode: number): string {
  const base = mkdtempSync(path.join(tmpdir(), "anna-reach-"));
  onTestFinished(() => {
    chmodSync(base, 0o755);
    rmSync(base, { recursive: true, force: true });
  });
  const dir = path.join(base, "plugin");
  mkdirSync(dir);
  chmodSync(dir, dirMode);
  chmodSync(base, parentMode);
  return dir;
}

describe("unreachableBy", () => {
  it("lets a folder through whose parents are traversable and which is readable", () => {
    expect(unreachableBy(tree(0o711, 0o755), NOBODY)).toBeUndefined();
  });

  it("names a 0700 parent, its mode and the chmod that fixes it", () => {
    const dir = tree(0o700, 0o755);
    expect(unreachableBy(dir, NOBODY)).toBe(
      `${path.dirname(dir)} (mode 0700) does not let uid 65534 through; chmod o+x it, or keep plugins and the sandbox root under traversable folders`,
    );
  });

  it("names the folder itself when the sandbox's uid cannot read it", () => {
    const dir = tree(0o755, 0o711);
    expect(unreachableBy(dir, NOBODY)).toMatch(
      /mode 0711\) does not let uid 65534 read it; chmod o\+rx/,
    );
  });

  it("says so when the folder does not exist", () => {
    expect(unreachableBy("/nonexistent-anna-folder/x", NOBODY)).toBe(
      "/nonexistent-anna-folder does not exist",
    );
  });

  it("checks nothing when the sandbox runs as the server's own uid", () => {
    expect(unreachableBy(tree(0o700, 0o700), undefined)).toBeUndefined();
  });
});
