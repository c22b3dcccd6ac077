// docs/architecture.md is the map a newcomer reads first, so it must not drift from the code:
// every package folder is in its table, each package's @anna-ai dependencies stay within its
// "may import" column (the arrows point one way), and every home it names exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

/** The rows of the Markdown table that follows `heading`, as arrays of cells. */
function tableAfter(heading: string): string[][] {
  const start = DOC.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${heading}" section`);
  const section = DOC.slice(start + 1).split(/\n## /, 2)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|[-\s|]+\|$/.test(line))
    .slice(1) // the header row
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

/** The backticked words of a cell. */
function codes(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
}

const packages = tableAfter("Packages").map(([folder, name, , mayImport]) => ({
  folder: codes(folder ?? "")[0] ?? "",
  name: codes(name ?? "")[0] ?? "",
  mayImport:
    mayImport === "—"
      ? []
      : (mayImport ?? "").split(",").map((entry) => `@anna-ai/${entry.trim()}`),
}));

describe("docs/architecture.md", () => {
  it("lists every package folder, under its package name", () => {
    const folders = readdirSync(join(ROOT, "packages"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .filter((entry) => existsSync(join(ROOT, "packages", entry.name, "package.json")))
      .map((entry) => `packages/${entry.name}`);
    expect(packages.map((p) => p.folder).sort()).toEqual(folders.sort());
    for (const { folder, name } of packages) {
      const manifest = JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8")) as {
        name: string;
      };
      expect(manifest.name, folder).toBe(name);
    }
  });

  it("allows every @anna-ai dependency a package has (the arrows point one way)", () => {
    const order = packages.map((p) => p.name);
    for (const { folder, name, mayImport } of packages) {
      const manifest = JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const uses = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter(
        (dep) => dep.startsWith("@anna-ai/"),
      );
      for (const dep of uses) {
        expect(mayImport, `${name} imports ${dep}, which its row does not allow`).toContain(dep);
      }
      for (const dep of mayImport) {
        expect(order.indexOf(dep), `${name} may import ${dep}, listed below it`).toBeLessThan(
          order.indexOf(name),
        );
      }
    }
  });

  it("names homes that exist", () => {
    const homes = tableAfter("Where each concept lives").flatMap(([, home]) =>
      codes(home ?? "").filter((code) => /^(packages|scripts|tests|bench|docs)\//.test(code)),
    );
    expect(homes.length).toBeGreaterThan(20);
    for (const home of homes) {
      expect(existsSync(join(ROOT, home)), `${home} (named in docs/architecture.md)`).toBe(true);
    }
  });
});
