import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const IMPORT_PATTERN =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every module reachable from `entry` through relative imports, and every bare specifier seen. */
function importGraph(
  entry: string,
  mapSpecifier: (specifier: string) => string,
): {
  files: string[];
  external: string[];
} {
  const files: string[] = [];
  const external = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.includes(file)) continue;
    files.push(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(IMPORT_PATTERN)) {
      const specifier = (match[1] ?? match[2]) as string;
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), mapSpecifier(specifier)));
      else external.add(specifier);
    }
  }
  return { files, external: [...external] };
}

describe("the errors entry point", () => {
  it("is exported as @anna-ai/app-schema/errors", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as {
      exports: Record<string, { types: string; default: string }>;
    };
    expect(manifest.exports["./errors"]).toEqual({
      types: "./dist/errors/index.d.ts",
      default: "./dist/errors/index.js",
    });
  });

  it("imports nothing outside src/errors, and no zod, in its sources", () => {
    const { files, external } = importGraph(join(PACKAGE_DIR, "src/errors/index.ts"), (s) =>
      s.replace(/\.js$/, ".ts"),
    );
    expect(files.length).toBeGreaterThan(5);
    expect(external).toEqual([]);
    for (const file of files) expect(file.startsWith(join(PACKAGE_DIR, "src/errors"))).toBe(true);
  });

  it("imports no package in the built dist/errors/index.js", () => {
    const entry = join(PACKAGE_DIR, "dist/errors/index.js");
    // Built by `tsc -b` before the test run (npm test builds first).
    expect(existsSync(entry), "run npx tsc -b first").toBe(true);
    const { files, external } = importGraph(entry, (s) => s);
    expect(files.length).toBeGreaterThan(5);
    expect(external).toEqual([]);
  });

  it("finds zod when walking the main entry point (the walker is not blind)", () => {
    const { external } = importGraph(join(PACKAGE_DIR, "src/index.ts"), (s) =>
      s.replace(/\.js$/, ".ts"),
    );
    expect(external).toContain("zod");
  });
});
