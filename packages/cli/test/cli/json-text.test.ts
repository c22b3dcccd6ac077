import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeJsonError, parseJsonText } from "../../src/cli/json-text.js";
import { parseArgsJson } from "../../src/executa-dev/args-input.js";
import { loadManifest } from "../../src/fixture/load-manifest.js";

const BROKEN = '{\n  "a": 1,\n  "b" 2\n}\n';

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error("expected a throw");
}

describe("JSON the CLI reads", () => {
  it("parses like JSON.parse, a BOM included", () => {
    expect(parseJsonText('\uFEFF{"a": [1, "x", null]}')).toEqual({ a: [1, "x", null] });
  });

  it("names the line and column of a syntax error", () => {
    expect(describeJsonError(errorOf(() => parseJsonText(BROKEN)))).toBe(
      "line 3, column 7: expected ':' after the key \"b\"",
    );
  });

  it("says where --args (or its @file) breaks, counting the lines as written", () => {
    expect(errorOf(() => parseArgsJson(`\n${BROKEN}`, "args.json")).message).toContain(
      "args.json is not valid JSON (line 4, column 7: expected ':' after the key \"b\")",
    );
  });

  it("says where a manifest given to the fixture commands breaks", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "json-text-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "manifest.json");
    writeFileSync(file, BROKEN);
    await expect(loadManifest(file, "manifest.json")).rejects.toThrow(
      /not valid JSON: line 3, column 7: expected ':' after the key "b"/,
    );
  });
});
