// docs/decisions.md stays navigable and its citations cannot rot: every decision has one ID of
// its section, every `D-<area>-<n>` cited anywhere in the repository is defined, the table of
// contents is current, and scripts/fold-decisions.mjs folds pending files from parallel branches.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { SECTIONS } from "../../scripts/fold-decisions.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SCRIPT = join(ROOT, "scripts", "fold-decisions.mjs");
const DOC = join(ROOT, "docs", "decisions.md");
// Folders that are not the repository's own text: installs, builds, run outputs.
const SKIP_DIRS = new Set([
  "node_modules",
  ".git",
  "dist",
  "coverage",
  "test-artifacts",
  "results",
  "__pycache__",
]);
const TEXT_EXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json|jsonl|py|go|toml|yml|yaml|html|css|sh|txt)$/;
const CITED = /\bD-([a-z]+(?:-[a-z]+)*)-(\d+|\*)/g;
// A pending file is deleted once folded, so a citation of one must move to the decision's ID.
const CITED_PENDING = /\bdocs\/decisions-pending\/[\w.-]+\.md\b/g;
const ID_LINE = /^- `(D-([a-z]+(?:-[a-z]+)*)-(\d+))` \*\*/;

/** An ID built at run time, so this file cites none it does not mean. */
const id = (key: string, n: number): string => `D-${key}-${n}`;

function* textFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* textFiles(join(dir, entry.name));
    } else if (entry.isFile() && TEXT_EXT.test(entry.name)) yield join(dir, entry.name);
  }
}

interface Decision {
  id: string;
  key: string;
  n: number;
  section: string;
}

function decisionsOf(text: string): { decisions: Decision[]; headings: string[] } {
  const decisions: Decision[] = [];
  const headings: string[] = [];
  let section: string | undefined;
  for (const line of text.split("\n")) {
    const heading = /^## .* \(D-([a-z-]+)\)$/.exec(line);
    if (heading) {
      section = heading[1];
      headings.push(line.slice(3));
      continue;
    }
    if (section === undefined || !line.startsWith("- ")) continue;
    const m = ID_LINE.exec(line);
    if (!m) throw new Error(`decisions.md: a decision without an ID: ${line.slice(0, 80)}`);
    decisions.push({ id: m[1]!, key: m[2]!, n: Number(m[3]), section });
  }
  return { decisions, headings };
}

function runFold(...args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });
}

describe("docs/decisions.md", () => {
  const text = readFileSync(DOC, "utf8");
  const { decisions, headings } = decisionsOf(text);

  it("has one section per package in architecture order, each decision with a unique ID of its section", () => {
    const order = SECTIONS.map((s) => s.heading);
    expect(headings).toEqual(order.filter((h) => headings.includes(h)));
    expect(decisions.length).toBeGreaterThan(300);
    const misfiled = decisions.filter((d) => d.key !== d.section).map((d) => d.id);
    expect(misfiled).toEqual([]);
    const seen = new Set<string>();
    const repeated = decisions.filter((d) => seen.size === seen.add(d.id).size).map((d) => d.id);
    expect(repeated).toEqual([]);
  });

  it("defines every decision ID cited anywhere in the repository, and cites no folded pending file", () => {
    const defined = new Set(decisions.map((d) => d.id));
    const sections = new Set(SECTIONS.map((s) => s.key));
    const dangling: string[] = [];
    let citations = 0;
    for (const file of textFiles(ROOT)) {
      const lines = readFileSync(file, "utf8").split("\n");
      for (const [i, line] of lines.entries()) {
        for (const m of line.matchAll(CITED)) {
          if (file !== DOC) citations++;
          const ok = m[2] === "*" ? sections.has(m[1]!) : defined.has(m[0]);
          if (!ok) dangling.push(`${relative(ROOT, file)}:${i + 1}: ${m[0]}`);
        }
        for (const m of line.matchAll(CITED_PENDING)) {
          if (!existsSync(join(ROOT, m[0])))
            dangling.push(`${relative(ROOT, file)}:${i + 1}: ${m[0]}`);
        }
      }
    }
    expect(dangling).toEqual([]);
    // Code and guides do cite IDs (a scan that finds none would pass for the wrong reason).
    expect(citations).toBeGreaterThan(30);
  });

  it("has a table of contents that is current and links every section", () => {
    const check = runFold("--check");
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    const toc = text.slice(text.indexOf("<!-- toc -->"), text.indexOf("<!-- /toc -->"));
    const anchors = [...toc.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(new Set(anchors).size).toBe(anchors.length);
    for (const s of SECTIONS.filter((x) => headings.includes(x.heading))) {
      expect(toc).toContain(`[${s.title}](#`);
    }
  });
});

describe("scripts/fold-decisions.mjs", () => {
  function checkout(): string {
    const root = mkdtempSync(join(tmpdir(), "fold-decisions-"));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, "docs", "decisions-pending"), { recursive: true });
    cpSync(DOC, join(root, "docs", "decisions.md"));
    return root;
  }
  const next = (key: string) =>
    Math.max(
      0,
      ...decisionsOf(readFileSync(DOC, "utf8"))
        .decisions.filter((d) => d.key === key)
        .map((d) => d.n),
    ) + 1;

  it("gives each pending decision the next free ID of its section and deletes the folded files", () => {
    const root = checkout();
    // Take the executa-test section out of the copy, so that folding into it must create it.
    const copy = join(root, "docs", "decisions.md");
    writeFileSync(
      copy,
      readFileSync(copy, "utf8").replace(/^## executa-test \(D-etest\)\n[\s\S]*?(?=^## )/m, ""),
    );
    const pending = join(root, "docs", "decisions-pending");
    writeFileSync(
      join(pending, "rec.md"),
      [
        "### Integer ids pair a res with its req",
        "Upstream writes integer `id`s (real-world-plugins.md). Alternative: strings only.",
        "",
        "- rejected: refusing integer ids",
        "",
        "### [core] Unknown record kinds are a warning",
        "The codec keeps reading (L6480).",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(pending, "etest.md"),
      "### **The client spawns like the host**\n\nSame launcher:\n```sh\n### a comment, not a heading\n```\n",
    );

    const run = runFold("--root", root);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const fixtureId = id("cli-fixture", next("cli-fixture"));
    const coreId = id("core", next("core"));
    const etestId = id("etest", 1);
    expect(run.stdout).toContain(`${fixtureId}  Integer ids pair a res with its req`);

    const folded = readFileSync(join(root, "docs", "decisions.md"), "utf8");
    expect(folded).toContain(
      [
        `- \`${fixtureId}\` **Integer ids pair a res with its req.** Upstream writes integer \`id\`s (real-world-plugins.md). Alternative: strings only.`,
        "",
        "  - rejected: refusing integer ids",
      ].join("\n"),
    );
    expect(folded).toContain(
      `- \`${coreId}\` **Unknown record kinds are a warning.** The codec keeps reading (L6480).`,
    );
    const { decisions, headings } = decisionsOf(folded);
    const sectionOf = (x: string) => decisions.find((d) => d.id === x)?.section;
    expect([sectionOf(fixtureId), sectionOf(coreId), sectionOf(etestId)]).toEqual([
      "cli-fixture",
      "core",
      "etest",
    ]);
    // executa-test had no section yet: it is created at its place in the architecture order.
    const at = headings.indexOf("executa-test (D-etest)");
    expect(headings.slice(at - 1, at + 2)).toEqual([
      "executa-sdk (D-sdk)",
      "executa-test (D-etest)",
      "skills (D-skills)",
    ]);
    expect(folded).toContain("### Recordings and mock answer files");
    expect(folded).toContain(
      `- \`${etestId}\` **The client spawns like the host.** Same launcher:\n  \`\`\`sh\n  ### a comment, not a heading\n  \`\`\`\n`,
    );
    expect(existsSync(pending)).toBe(false);
    expect(runFold("--root", root, "--check").status).toBe(0);
  });

  it("refuses a decision it cannot place, naming the line and the keys, and changes nothing", () => {
    const root = checkout();
    const file = join(root, "docs", "decisions-pending", "decisions.md");
    writeFileSync(file, "### A choice\nText.\n");
    const run = runFold("--root", root);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${relative(root, file)}:1: "### A choice" names no section`);
    expect(run.stderr).toContain("[key] (one of schema, rpc, host");
    expect(readFileSync(join(root, "docs", "decisions.md"), "utf8")).toBe(
      readFileSync(DOC, "utf8"),
    );
    expect(existsSync(file)).toBe(true);
  });
});
