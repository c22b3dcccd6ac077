import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateExecutaJson } from "../../src/app/executa-json.js";
import { parseAnnaAppEvent } from "../../src/app/events.js";
import { type AppValidation, formatAppIssue } from "../../src/app/issues.js";
import { validateAppListing } from "../../src/app/listing.js";
import { validateAppManifest } from "../../src/app/validate-manifest.js";
import { validateSkillFrontmatter } from "../../src/skill/frontmatter.js";

/**
 * Walks test/fixtures/{valid,invalid}/<format>/. An invalid `<name>.json` must fail with exactly
 * the issues in `<name>.expected.txt`; a valid one must pass, with exactly the warnings in its
 * `.expected.txt` (none when there is no such file). `invalid/cross-file/` belongs to the
 * validator and is not walked here. `ANNA_UPDATE_CORPUS=1` rewrites the expectations.
 */

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");
const UPDATE = process.env["ANNA_UPDATE_CORPUS"] === "1";

type Runner = (raw: unknown) => { ok: boolean; text: string };

function fromValidation(validation: AppValidation<unknown>): { ok: boolean; text: string } {
  return { ok: validation.ok, text: validation.issues.map(formatAppIssue).join("\n") };
}

const RUNNERS: Record<string, Runner> = {
  manifest: (raw) => fromValidation(validateAppManifest(raw)),
  "app-json": (raw) => fromValidation(validateAppListing(raw)),
  "executa-json": (raw) => fromValidation(validateExecutaJson(raw, { dirName: "my-executa" })),
  "skill-frontmatter": (raw) => fromValidation(validateSkillFrontmatter(raw)),
  event: (raw) => {
    const parsed = parseAnnaAppEvent(raw);
    if (!parsed.ok) return { ok: false, text: parsed.reason };
    return { ok: true, text: parsed.known ? "" : `unknown kind ${parsed.event.kind}` };
  },
};

/** Reads a fixture the way the CLI reads a file: a UTF-8 BOM is dropped. */
function readJson(path: string): unknown {
  const text = readFileSync(path, "utf8");
  return JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text) as unknown;
}

function fixtures(group: "valid" | "invalid", format: string): string[] {
  return readdirSync(join(FIXTURES, group, format))
    .filter((file) => file.endsWith(".json") || file.endsWith(".raw-json"))
    .sort();
}

function check(group: "valid" | "invalid", format: string, file: string): void {
  const path = join(FIXTURES, group, format, file);
  const expectedPath = path.replace(/\.(raw-)?json$/, ".expected.txt");
  const runner = RUNNERS[format];
  if (runner === undefined) throw new Error(`no runner for ${format}`);
  const { ok, text } = runner(readJson(path));
  if (UPDATE) {
    if (text === "" && group === "valid") return;
    writeFileSync(expectedPath, `${text}\n`);
    return;
  }
  expect(ok, `${group}/${format}/${file}: ${text}`).toBe(group === "valid");
  const expected = existsSync(expectedPath) ? readFileSync(expectedPath, "utf8").trimEnd() : "";
  if (group === "invalid") expect(expected, `${expectedPath} is missing`).not.toBe("");
  expect(text).toBe(expected);
}

describe.each(Object.keys(RUNNERS))("corpus: %s", (format) => {
  it.each(fixtures("valid", format))(
    "accepts valid/%s with exactly the recorded warnings",
    (file) => {
      check("valid", format, file);
    },
  );
  it.each(fixtures("invalid", format))(
    "rejects invalid/%s with exactly the recorded message",
    (file) => {
      check("invalid", format, file);
    },
  );
});
