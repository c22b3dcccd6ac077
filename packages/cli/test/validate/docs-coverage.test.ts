// docs/validate.md must list every check: each rule code the validate layers can emit, the codes
// the app-schema validators produce on their corpus, and those of the cross-file corpus.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { validateAppListing, validateAppManifest, validateExecutaJson } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(fileURLToPath(import.meta.url), "../../../../..");
const DOC = readFileSync(path.join(REPO, "docs/validate.md"), "utf8");
const FIXTURES = path.join(REPO, "packages/app-schema/test/fixtures");

function files(dir: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...files(full, accept));
    else if (accept(name)) out.push(full);
  }
  return out;
}

function readJson(file: string): unknown {
  const text = readFileSync(file, "utf8");
  return JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text) as unknown;
}

/** Codes written literally in the validate sources (`code: "…"`), templates expanded by hand. */
function sourceCodes(): string[] {
  const codes = new Set<string>();
  for (const file of files(path.join(REPO, "packages/cli/src/validate"), (n) =>
    n.endsWith(".ts"),
  )) {
    for (const match of readFileSync(file, "utf8").matchAll(/code: "([a-z_.]+)"/g))
      codes.add(match[1] as string);
  }
  for (const field of ["entry", "mobile_entry", "icon"]) codes.add(`ui.views.${field}_missing`);
  return [...codes];
}

function schemaCorpusCodes(): string[] {
  const codes = new Set<string>();
  const runners = {
    manifest: validateAppManifest,
    "app-json": validateAppListing,
    "executa-json": (raw: unknown) => validateExecutaJson(raw, { dirName: "x" }),
  };
  for (const group of ["valid", "invalid"]) {
    for (const [format, run] of Object.entries(runners)) {
      for (const file of files(path.join(FIXTURES, group, format), (n) =>
        /\.(raw-)?json$/.test(n),
      )) {
        let raw: unknown;
        try {
          raw = readJson(file);
        } catch {
          continue;
        }
        for (const issue of run(raw).issues) codes.add(issue.code);
      }
    }
  }
  return [...codes];
}

function crossFileCorpusCodes(): string[] {
  const codes = new Set<string>();
  for (const file of files(
    path.join(FIXTURES, "invalid/cross-file"),
    (n) => n === "expected.txt",
  )) {
    for (const match of readFileSync(file, "utf8").matchAll(/ \[([a-z_.]+)\]$/gm))
      codes.add(match[1] as string);
  }
  return [...codes];
}

describe("docs/validate.md", () => {
  it.each([
    ["the validate layers", sourceCodes()],
    ["the app-schema corpus", schemaCorpusCodes()],
    ["the cross-file corpus", crossFileCorpusCodes()],
  ])("lists every rule code of %s with an example", (_source, codes) => {
    expect(codes.length).toBeGreaterThan(5);
    const missing = codes.filter((code) => !DOC.includes(`\`${code}\``));
    expect(missing, "add a row with an example message for each to docs/validate.md").toEqual([]);
  });
});
