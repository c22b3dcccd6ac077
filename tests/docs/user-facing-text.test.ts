// What a user reads — the README, the guides in docs/, the READMEs the templates scaffold and
// every `--help` page — names no spec line or ruling ID (those belong in docs/decisions.md, with
// the spec, which a clone does not have) and links only to files a clone has.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../packages/cli/src/commands/registry.js";
import { REPO, runCli } from "../../packages/cli/test/executa-init/helpers.js";

/** `L6327`, `(A10)`, `R129`, `spec line 7986`, and paths into the spec's own folder. */
const SPEC_REFERENCE =
  /\bL\d{3,}\b|\b(?:[ARXZHUT]\d{1,3}[a-z]?)\b(?![.-]\d)|\bspec line\b|\bshared\/spec\b|\.\.\/shared\//;

/** Ignored files and folders of this checkout (folders end in `/`), listed once. */
const IGNORED = spawnSync(
  "git",
  ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory"],
  { cwd: REPO, encoding: "utf8" },
)
  .stdout.split("\n")
  .filter((entry) => entry !== "");

/**
 * Whether a fresh clone has `target`: inside the repository and not git-ignored (a link into
 * `node_modules/`, `dist/` or the spec beside the repo resolves here, not in a clone).
 */
function inClone(target: string): boolean {
  const relative = path.relative(REPO, target).split(path.sep).join("/");
  if (relative.startsWith("..") || path.isAbsolute(relative) || !existsSync(target)) return false;
  return !IGNORED.some((entry) =>
    entry.endsWith("/") ? `${relative}/`.startsWith(entry) : relative === entry,
  );
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join(dir, file));
}

/** `--help` pages started at once by the scan below. */
const HELP_PAGES_AT_ONCE = 4;

const GUIDES = [
  path.join(REPO, "README.md"),
  ...markdownFiles(path.join(REPO, "docs")).filter((file) => !file.includes("decisions")),
  ...markdownFiles(path.join(REPO, "packages/cli/templates")),
];

/** Each offending line as `file:line: text`. */
function offending(text: string, where: string, test: (line: string) => boolean): string[] {
  return text
    .split("\n")
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => test(line))
    .map(({ line, number }) => `${where}:${number}: ${line.trim()}`);
}

describe("user-facing text", () => {
  it("the README, the guides and the template READMEs cite no spec line or ruling", () => {
    const found = GUIDES.flatMap((file) =>
      offending(readFileSync(file, "utf8"), path.relative(REPO, file), (line) =>
        SPEC_REFERENCE.test(line),
      ),
    );
    expect(found).toEqual([]);
  });

  it("their relative links point at files a clone has", () => {
    const dead: string[] = [];
    for (const file of GUIDES) {
      // Template READMEs are copied into new projects; their links are relative to those.
      if (file.includes(`${path.sep}templates${path.sep}`)) continue;
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = (match[1] ?? "").split("#")[0] ?? "";
        if (target === "" || /^[a-z]+:/i.test(target)) continue;
        if (!inClone(path.resolve(path.dirname(file), target)))
          dead.push(`${path.relative(REPO, file)}: ${match[1]}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("a link out of the repository or into an ignored folder counts as dead", () => {
    // Both exist on a developer's machine (the spec beside the repo, built output), not in a clone.
    expect(inClone(path.join(REPO, "..", "shared"))).toBe(false);
    expect(inClone(path.join(REPO, "node_modules"))).toBe(false);
    expect(inClone(path.join(REPO, "packages/cli/dist"))).toBe(false);
    expect(inClone(path.join(REPO, "docs/security.md"))).toBe(true);
  });

  it("no --help page cites a spec line or ruling", async () => {
    const pages = [
      [],
      ...new Set(COMMANDS.filter((c) => c.path.length > 1).map((c) => [c.path[0] as string])),
      ...COMMANDS.map((c) => c.path),
    ];
    const found: string[] = [];
    // A CLI start per page; a few at a time keeps a loaded two-core machine inside the budget.
    for (let start = 0; start < pages.length; start += HELP_PAGES_AT_ONCE) {
      const batch = pages
        .slice(start, start + HELP_PAGES_AT_ONCE)
        .map((page) => [...page, "--help"]);
      const results = await Promise.all(batch.map((args) => runCli(args)));
      results.forEach((result, i) => {
        const args = batch[i] ?? [];
        expect(result.code, `anna-app ${args.join(" ")}: ${result.stderr}`).toBe(0);
        found.push(
          ...offending(result.stdout, `anna-app ${args.join(" ")}`, (line) =>
            SPEC_REFERENCE.test(line),
          ),
        );
      });
    }
    expect(found).toEqual([]);
  }, 120_000);

  it("the README and guides name only anna-app commands that exist", () => {
    const known = new Set(COMMANDS.map((c) => c.path[0]));
    const unknown = GUIDES.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/`anna-app ([a-z][a-z-]*)/g)]
        .filter((match) => !known.has(match[1] ?? ""))
        .map((match) => `${path.relative(REPO, file)}: anna-app ${match[1]}`),
    );
    expect(unknown).toEqual([]);
  });

  it("every command group's help shows examples", async () => {
    const groups = new Set(
      COMMANDS.filter((c) => c.path.length > 1).map((c) => c.path[0] as string),
    );
    expect(groups.size).toBeGreaterThan(1);
    for (const group of groups) {
      const result = await runCli([group, "--help"]);
      expect(result.stdout, `anna-app ${group} --help`).toMatch(/\nExamples:\n {2}anna-app /);
    }
  });
});
