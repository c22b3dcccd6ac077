// The catalog is the one home of JSON-RPC error numbers: a literal elsewhere drifts from it (a
// refusal answering -32021 here and -32008 there). Comments, help text and docs may name codes;
// code may not.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGES = path.resolve(fileURLToPath(import.meta.url), "../../../..");
const CATALOG = path.join(PACKAGES, "app-schema", "src", "errors");
const CODE = /-32\d{3}\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(file);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/** Lines of code (not comments, not string literals meant for people) that spell a code. */
function literalCodes(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, i) => {
      const code = line.replace(/\/\/.*$/, "").replace(/^\s*(\*|\/\*\*?).*$/, "");
      // A code inside a quoted or template string is prose (help text, a message), not a value.
      const outsideStrings = code.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
      return CODE.test(outsideStrings)
        ? [`${path.relative(PACKAGES, file)}:${i + 1}: ${line.trim()}`]
        : [];
    });
}

describe("JSON-RPC error codes", () => {
  it("appear as number literals only in the app-schema catalog", () => {
    const packages = readdirSync(PACKAGES).filter((name) => !name.startsWith("."));
    const offenders = packages.flatMap((name) => {
      const src = path.join(PACKAGES, name, "src");
      let files: string[];
      try {
        files = sourceFiles(src);
      } catch {
        return [];
      }
      return files.filter((file) => !file.startsWith(CATALOG + path.sep)).flatMap(literalCodes);
    });
    expect(offenders).toEqual([]);
  });
});
