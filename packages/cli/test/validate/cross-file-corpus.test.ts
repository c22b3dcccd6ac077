// The cross-file corpus: one invalid project per cross-file rule under
// packages/app-schema/test/fixtures/invalid/cross-file/<rule>/, each with the exact report
// expected beside it in expected.txt (`options.json` may turn on --strict). The projects are
// copied to a temp dir first, so the validator runs on them exactly as on a user's project.
// `ANNA_UPDATE_CORPUS=1` rewrites the expectations.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createStyle } from "../../src/cli/style.js";
import { formatDiagnostic } from "../../src/validate/report.js";
import { validateProject } from "../../src/validate/validate-project.js";
import { writeProject } from "./project.js";

const CORPUS = path.resolve(
  fileURLToPath(import.meta.url),
  "../../../../app-schema/test/fixtures/invalid/cross-file",
);
const UPDATE = process.env["ANNA_UPDATE_CORPUS"] === "1";
const PLAIN = createStyle(false);
/** Files of a fixture folder that are about the test, not part of the project. */
const META_FILES = new Set(["expected.txt", "options.json"]);

const rules = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("cross-file corpus", () => {
  it("has one project per rule", () => {
    expect(rules.length).toBeGreaterThanOrEqual(20);
  });

  it.each(rules)("%s reports exactly the recorded findings", async (rule) => {
    const source = path.join(CORPUS, rule);
    const dir = writeProject({});
    cpSync(source, dir, { recursive: true, filter: (src) => !META_FILES.has(path.basename(src)) });
    const optionsFile = path.join(source, "options.json");
    const options = existsSync(optionsFile)
      ? (JSON.parse(readFileSync(optionsFile, "utf8")) as { strict?: boolean })
      : {};
    const report = await validateProject({ cwd: dir, strict: options.strict === true });
    const text = report.diagnostics.map((d) => formatDiagnostic(d, PLAIN)).join("\n");
    const expectedFile = path.join(source, "expected.txt");
    if (UPDATE) {
      writeFileSync(expectedFile, `${text}\n`);
      return;
    }
    const expected = readFileSync(expectedFile, "utf8").trimEnd();
    expect(expected, `${expectedFile} records no finding`).not.toBe("");
    expect(text).toBe(expected);
    // Each fixture exercises a rule of the cross-file linter (or --strict), not an earlier layer.
    const layers = new Set(report.diagnostics.map((d) => d.layer));
    expect([...layers].some((layer) => layer === "cross-file" || layer === "strict")).toBe(true);
  });
});
