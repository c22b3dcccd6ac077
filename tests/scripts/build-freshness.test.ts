// scripts/build-freshness.mjs on a small tree of real files: the build is skipped only while the
// stamp is newer than every input and every output exists.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { markBuilt, staleReason } from "../../scripts/build-freshness.mjs";

type StaleReason = (root: string, bundleOutputs: string[]) => string | undefined;
const stale = staleReason as StaleReason;
const built = markBuilt as (root: string, startedAtMs: number) => void;

const BUNDLE = "packages/a/dist/bundle/a.js";
/** Past the coarsest file time resolution (1 s on some file systems, 2 s on FAT). */
const LATER_S = 10;

function tree(): string {
  const root = mkdtempSync(path.join(tmpdir(), "build-fresh-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, string> = {
    "package.json": "{}",
    "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "packages/a" }] }),
    "scripts/build.mjs": "",
    "packages/a/package.json": "{}",
    "packages/a/tsconfig.json": "{}",
    "packages/a/src/index.ts": "export const a = 1;\n",
    "packages/a/dist/.tsbuildinfo": "{}",
    [BUNDLE]: "",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  // Everything was last changed well before any build the tests record.
  for (const entry of readdirSync(root, { recursive: true, encoding: "utf8" }))
    age(path.join(root, entry), -10 * LATER_S);
  return root;
}

/** Sets a file's (or folder's) times `offsetS` seconds from now. */
function age(file: string, offsetS: number): void {
  const at = Date.now() / 1000 + offsetS;
  utimesSync(file, at, at);
}

describe("build freshness", () => {
  it("builds when no build was recorded, and not again until an input changes", () => {
    const root = tree();
    expect(stale(root, [BUNDLE])).toBe("no successful build recorded yet");
    built(root, Date.now());
    expect(stale(root, [BUNDLE])).toBeUndefined();
    age(path.join(root, "packages/a/src/index.ts"), LATER_S);
    expect(stale(root, [BUNDLE])).toBe("packages/a/src/index.ts changed since the last build");
  });

  it("builds when a file is removed from a source folder or an output is missing", () => {
    const root = tree();
    built(root, Date.now() - LATER_S * 1000);
    rmSync(path.join(root, "packages/a/src/index.ts"));
    expect(stale(root, [BUNDLE])).toBe("packages/a/src changed since the last build");
    built(root, Date.now() + LATER_S * 1000);
    rmSync(path.join(root, BUNDLE));
    expect(stale(root, [BUNDLE])).toBe(`${BUNDLE} is missing`);
  });

  it("counts a file saved while the build ran as changed", () => {
    const root = tree();
    const startedAtMs = Date.now() - LATER_S * 1000;
    age(path.join(root, "packages/a/src/index.ts"), -LATER_S / 2);
    built(root, startedAtMs);
    expect(stale(root, [BUNDLE])).toBe("packages/a/src/index.ts changed since the last build");
  });

  it("looks for a project's build info where its tsconfig's tsBuildInfoFile puts it", () => {
    const root = tree();
    const config = [
      "// writes elsewhere",
      '{ "compilerOptions": { "tsBuildInfoFile": "../out/.b" } }',
    ];
    writeFileSync(
      path.join(root, "tsconfig.json"),
      JSON.stringify({ files: [], references: [{ path: "packages/a" }, { path: "packages/b" }] }),
    );
    mkdirSync(path.join(root, "packages/b"));
    writeFileSync(path.join(root, "packages/b/tsconfig.json"), config.join("\n"));
    age(path.join(root, "tsconfig.json"), -10 * LATER_S);
    age(path.join(root, "packages/b"), -10 * LATER_S);
    age(path.join(root, "packages/b/tsconfig.json"), -10 * LATER_S);
    built(root, Date.now());
    expect(stale(root, [BUNDLE])).toBe(`${path.join("packages", "out", ".b")} is missing`);
    mkdirSync(path.join(root, "packages/out"));
    writeFileSync(path.join(root, "packages/out/.b"), "{}");
    expect(stale(root, [BUNDLE])).toBeUndefined();
  });
});
