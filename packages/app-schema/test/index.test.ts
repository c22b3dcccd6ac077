import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
/** Internal helpers that are deliberately not part of the public API. */
const INTERNAL = new Set([
  "defineFamily",
  "reverseCorrelationShape",
  // The recording reader's parts: RecordingReader / parseRecording are its API.
  "RecordingBuilder",
  "quote",
  "isObject",
  "errorCodeOf",
  "readDirLine",
  "readFrameLine",
  "readKindLine",
  "checkKnownMethod",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("package surface", () => {
  it("re-exports every runtime export of every module from src/index.ts", async () => {
    const missing: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file.endsWith("index.ts")) continue;
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (INTERNAL.has(name)) continue;
        if ((api as Record<string, unknown>)[name] !== value)
          missing.push(`${relative(SRC, file)}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("stays platform-neutral: no node: imports and no Node or DOM globals in src", () => {
    const offenders: string[] = [];
    const nodeImport = /from\s+["']node:/;
    const forbidden = /\b(?:process|Buffer|require|__dirname|window(?!\s*:)|document|globalThis)\b/;
    for (const file of sourceFiles(SRC)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          const code = line
            .replace(/\/\*.*?\*\//g, "")
            .replace(/\/\/.*$/, "")
            .replace(/^\s*\*.*$/, "");
          // Names inside string literals (the Host API's "window" namespace) are data, not globals.
          const unquoted = code.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
          if (nodeImport.test(code) || forbidden.test(unquoted))
            offenders.push(`${relative(SRC, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
