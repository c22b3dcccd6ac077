#!/usr/bin/env node
// Keeps docs/decisions.md navigable: one section per package in architecture order, a stable
// `D-<area>-<n>` per decision, a generated table of contents.
//
//   node scripts/fold-decisions.mjs [--dry-run] [--area <key>] [file ...]
//       Folds pending decision files (default: every docs/decisions-pending/*.md) into
//       docs/decisions.md, each `### ` heading one decision with the next free ID of its
//       section, then deletes the folded files.
//   node scripts/fold-decisions.mjs --toc      rewrites the table of contents only
//   node scripts/fold-decisions.mjs --check    exit 1 when the TOC is stale or an ID is repeated
//
// A pending decision goes to the section its file name names (`rec.md`, `decisions-sec.md`,
// `host.md`), or to the one a `[key]` at the start of its heading names (`### [cli-dev] Title`),
// which wins. `--area <key>` names the area of a file named otherwise, such as the
// `decisions.md` every parallel branch writes into the pending folder (copy it out with
// `git show <branch>:<path> > /tmp/sec.md`, then `--area sec /tmp/sec.md`). `--root <dir>`
// works on another checkout (the tests use a temp copy).
import {
  existsSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Sections in architecture order (ARCHITECTURE.md's package table, the CLI one per command). */
export const SECTIONS = [
  ["schema", "app-schema"],
  ["rpc", "jsonrpc"],
  ["host", "executa-host"],
  ["sdk", "executa-sdk"],
  ["etest", "executa-test"],
  ["skills", "skills"],
  ["core", "app-core"],
  ["runtime", "app-runtime"],
  ["agent", "agent"],
  ["nexus", "nexus"],
  ["cli-xdev", "cli: `anna-app executa dev`"],
  ["cli-xinit", "cli: `anna-app executa init`"],
  ["cli-init", "cli: `anna-app init`"],
  ["cli-validate", "cli: `anna-app validate`"],
  ["cli-doctor", "cli: `anna-app doctor`"],
  ["cli-dev", "cli: `anna-app dev`"],
  ["cli-fixture", "cli: `anna-app fixture`"],
  ["cli-test", "cli: `@anna-ai/cli/test` (`mountBundle`)"],
  ["cli-publish", "cli: publishing and installing (`apps`, `executa publish`, `executa install`)"],
  ["ex", "examples"],
  ["bench", "benchmarks"],
].map(([key, title]) => ({ key, title, heading: `${title} (D-${key})` }));

/**
 * Pending-file areas (issue 9's parallel parts) → the section their decisions default to, and
 * the `###` topic they are filed under. A heading's `[key]` overrides the section.
 */
export const AREAS = {
  rec: ["cli-fixture", "Recordings and mock answer files"],
  xdev: ["cli-xdev", "One-shot modes, launch warnings and missing toolchains"],
  sec: ["cli-dev", "Hardening the harness"],
  devux: ["cli-dev", "What the terminal and the panel say"],
  first: ["cli-init", "The first hour: scaffolds, next steps, help"],
  orphan: ["host", "No orphans: the plugin supervisor"],
  etest: ["etest", "`@anna-ai/executa-test`"],
};

const TOC_START = "<!-- toc -->";
const TOC_END = "<!-- /toc -->";
const SECTION_RE = /^## (.*) \(D-([a-z]+(?:-[a-z]+)*)\)$/;
const DECISION_RE = /^- `D-([a-z]+(?:-[a-z]+)*)-(\d+)` /;

class UsageError extends Error {
  name = "UsageError";
}

/** GitHub's heading anchors (github-slugger): lowercase, punctuation dropped, spaces → `-`. */
export function slugger() {
  const seen = new Map();
  return (heading) => {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base);
    seen.set(base, (n ?? -1) + 1);
    return n === undefined ? base : `${base}-${n + 1}`;
  };
}

/** Splits the document into the part before the first section and one entry per section. */
export function parseDoc(text) {
  const lines = text.replace(/\n+$/, "").split("\n");
  const head = [];
  const sections = [];
  for (const line of lines) {
    const m = SECTION_RE.exec(line);
    if (m) {
      const def = SECTIONS.find((s) => s.heading === line.slice(3));
      if (!def) {
        throw new UsageError(
          `decisions.md: heading "${line}" is not a known section; add it to SECTIONS in scripts/fold-decisions.mjs`,
        );
      }
      sections.push({ ...def, lines: [line] });
    } else if (sections.length > 0) sections.at(-1).lines.push(line);
    else head.push(line);
  }
  return { head, sections };
}

/** Every decision ID defined in the document, in order (duplicates kept, for the check). */
export function definedIds(doc) {
  const ids = [];
  for (const s of doc.sections) {
    for (const line of s.lines) {
      const m = DECISION_RE.exec(line);
      if (m) ids.push({ id: `D-${m[1]}-${m[2]}`, key: m[1], n: Number(m[2]), section: s.key });
    }
  }
  return ids;
}

function renderToc(doc) {
  const slug = slugger();
  const anchors = new Map();
  // Anchors count every heading of the page in order, so duplicates get GitHub's `-1` suffixes.
  for (const line of [...doc.head, ...doc.sections.flatMap((s) => s.lines)]) {
    const m = /^(#{1,6}) (.*)$/.exec(line);
    if (m)
      anchors
        .set(line, anchors.get(line) ?? [])
        .get(line)
        .push(slug(m[2]));
  }
  const taken = new Map();
  const link = (line, text) => {
    const i = taken.get(line) ?? 0;
    taken.set(line, i + 1);
    return `[${text}](#${anchors.get(line)[i]})`;
  };
  const out = [TOC_START];
  for (const s of doc.sections) {
    const count = definedIds({ sections: [s] }).length;
    out.push(
      `- ${link(s.lines[0], s.title)} — \`D-${s.key}-*\`, ${count} decision${count === 1 ? "" : "s"}`,
    );
    for (const line of s.lines) {
      // The folder list in a topic's heading is for the reader of the section, not the contents.
      if (line.startsWith("### "))
        out.push(`  - ${link(line, line.slice(4).replace(/ \(`[^()]*\)$/, ""))}`);
    }
  }
  out.push(TOC_END);
  return out;
}

function withToc(doc) {
  const start = doc.head.indexOf(TOC_START);
  const end = doc.head.indexOf(TOC_END);
  if (start < 0 || end < start) {
    throw new UsageError(
      `decisions.md: no "${TOC_START}" … "${TOC_END}" block before the first section`,
    );
  }
  const head = [...doc.head.slice(0, start), ...renderToc(doc), ...doc.head.slice(end + 1)];
  return [...head, ...doc.sections.flatMap((s) => s.lines)].join("\n") + "\n";
}

function sectionFor(hint) {
  const key = hint.replace(/^D-/, "");
  return SECTIONS.find((s) => s.key === key)?.key ?? AREAS[key]?.[0];
}

function areaOf(file) {
  const name = basename(file, ".md");
  for (const token of [name, ...name.split(/[-_.]/)]) {
    if (sectionFor(token) && token !== "decisions") return token;
  }
  return undefined;
}

/** One pending file → its decisions, each `{section, topic, title, body}`. */
function parsePending(file, text, forcedArea) {
  const area = forcedArea ?? areaOf(file);
  let topic = area ? (AREAS[area]?.[1] ?? `Folded from ${basename(file)}`) : undefined;
  const decisions = [];
  let fence = false;
  for (const [i, line] of text.replace(/\r\n/g, "\n").split("\n").entries()) {
    // A `#` line inside a fenced block is code, not a heading.
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const group = fence ? null : /^#{1,2} (.+)$/.exec(line);
    const head = fence ? null : /^### (?:\[([^\]]+)\] *)?(.+)$/.exec(line);
    if (group) topic = group[1].trim();
    else if (head) {
      const hint = head[1] ?? area;
      const section = hint === undefined ? undefined : sectionFor(hint);
      if (!section) {
        const what = hint === undefined ? "names no section" : `names an unknown section "${hint}"`;
        throw new UsageError(
          `${file}:${i + 1}: "${line}" ${what}; start the heading with [key] (one of ${SECTIONS.map((s) => s.key).join(", ")}) or name the file after an area (${Object.keys(AREAS).join(", ")})`,
        );
      }
      decisions.push({
        section,
        topic: topic ?? `Folded from ${basename(file)}`,
        title: head[2].trim().replace(/^\*\*(.*)\*\*$/, "$1"),
        body: [],
      });
    } else if (decisions.length > 0) decisions.at(-1).body.push(line);
    else if (line.trim() !== "") {
      throw new UsageError(
        `${file}:${i + 1}: text before the first "### " heading would be lost; put it under a decision's heading`,
      );
    }
  }
  return decisions;
}

/** A pending decision as one bullet of decisions.md, its body indented into the list item. */
function renderDecision(id, { title, body }) {
  while (body.length > 0 && body.at(-1).trim() === "") body.pop();
  while (body.length > 0 && body[0].trim() === "") body.shift();
  const bold = /[.:?!]$/.test(title) ? `**${title}**` : `**${title}.**`;
  const first = `- \`${id}\` ${bold}`;
  // A plain first paragraph continues the bullet's line; a list, fence or table starts below it.
  const inline = body.length > 0 && !/^\s*([-*+>|#]|```|\d+\.)/.test(body[0]);
  const rest = (inline ? body.slice(1) : body).map((l) => (l.trim() === "" ? "" : `  ${l}`));
  return inline ? [`${first} ${body[0].trim()}`, ...rest] : [first, ...rest];
}

function fold(doc, decisions) {
  const ids = definedIds(doc);
  const assigned = [];
  for (const d of decisions) {
    let section = doc.sections.find((s) => s.key === d.section);
    if (!section) {
      // A section's first decision: create it at its place in SECTIONS.
      const def = SECTIONS.find((s) => s.key === d.section);
      section = { ...def, lines: [`## ${def.heading}`, ""] };
      const order = (key) => SECTIONS.findIndex((s) => s.key === key);
      const at = doc.sections.findIndex((s) => order(s.key) > order(def.key));
      doc.sections.splice(at < 0 ? doc.sections.length : at, 0, section);
    }
    const n = Math.max(0, ...ids.filter((x) => x.key === d.section).map((x) => x.n)) + 1;
    const id = `D-${d.section}-${n}`;
    ids.push({ id, key: d.section, n, section: d.section });
    assigned.push({ id, title: d.title });
    const lines = section.lines;
    while (lines.at(-1) === "") lines.pop();
    // Append under the section's own `### <topic>` when it has one, else start that topic.
    const topicAt = lines.indexOf(`### ${d.topic}`);
    if (topicAt < 0) lines.push("", `### ${d.topic}`, "", ...renderDecision(id, d));
    else {
      let end = lines.findIndex((l, i) => i > topicAt && l.startsWith("### "));
      if (end < 0) end = lines.length;
      while (lines[end - 1] === "") end--;
      lines.splice(end, 0, ...renderDecision(id, d));
    }
    lines.push("");
  }
  return assigned;
}

function main(argv) {
  const args = { files: [], root: fileURLToPath(new URL("..", import.meta.url)) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--toc" || a === "--check" || a === "--dry-run") args[a.slice(2)] = true;
    else if (a === "--root" || a === "--area") {
      if (argv[i + 1] === undefined) throw new UsageError(`${a} needs a value`);
      args[a.slice(2)] = argv[++i];
    } else if (a.startsWith("--")) {
      throw new UsageError(
        `unknown option ${a}; use --toc, --check, --dry-run, --area <key> or --root <dir>`,
      );
    } else args.files.push(a);
  }
  if (args.area !== undefined && !sectionFor(args.area)) {
    throw new UsageError(
      `--area ${args.area} is not a section or area (${[...SECTIONS.map((s) => s.key), ...Object.keys(AREAS)].join(", ")})`,
    );
  }
  const docPath = join(args.root, "docs", "decisions.md");
  const text = readFileSync(docPath, "utf8");
  const doc = parseDoc(text);

  if (args.check) {
    const seen = new Set();
    for (const { id } of definedIds(doc)) {
      if (seen.has(id))
        throw new CheckError(
          `decisions.md: ${id} is defined twice; give the later one the next free ID`,
        );
      seen.add(id);
    }
    if (withToc(doc) !== text) {
      throw new CheckError(
        "decisions.md: the table of contents is stale; run node scripts/fold-decisions.mjs --toc",
      );
    }
    console.log(`decisions.md: ${seen.size} decisions, table of contents up to date`);
    return;
  }
  if (args.toc) {
    writeFileSync(docPath, withToc(doc));
    return;
  }

  const pendingDir = join(args.root, "docs", "decisions-pending");
  const files =
    args.files.length > 0
      ? args.files
      : existsSync(pendingDir)
        ? readdirSync(pendingDir)
            .filter((f) => f.endsWith(".md"))
            .sort()
            .map((f) => join(pendingDir, f))
        : [];
  // Everything is parsed before anything is written, so a bad file folds nothing.
  const decisions = files.flatMap((f) =>
    parsePending(relative(args.root, f) || f, readFileSync(f, "utf8"), args.area),
  );
  const assigned = fold(doc, decisions);
  for (const { id, title } of assigned) console.log(`${id}  ${title}`);
  if (args["dry-run"]) return;
  writeFileSync(docPath, withToc(doc));
  for (const f of files) unlinkSync(f);
  if (existsSync(pendingDir) && readdirSync(pendingDir).length === 0) rmdirSync(pendingDir);
  console.log(
    `folded ${assigned.length} decision(s) from ${files.length} file(s) into docs/decisions.md; ` +
      "cite the IDs above where code names a pending file (grep -rn decisions-pending)",
  );
}

class CheckError extends Error {
  name = "CheckError";
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError || err instanceof CheckError)) throw err;
    console.error(`fold-decisions: ${err.message}`);
    process.exitCode = err instanceof CheckError ? 1 : 2;
  }
}
