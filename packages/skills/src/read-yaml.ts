import { isNode, LineCounter, parseDocument, type Document } from "yaml";
import type { IssueSink } from "./issues.js";

/**
 * Reads frontmatter YAML as plain data and nothing else (S13, "YAML that tries to instantiate
 * types"): the YAML 1.2 core schema, no custom tags, YAML 1.1 extras (`!!binary`, `!!set`,
 * `!!timestamp`, …) left unresolved and reported as errors, aliases bounded, cycles refused.
 *
 * Most frontmatter is a handful of `key: value` lines with `metadata` as one line of JSON. The
 * full YAML parser costs ~0.4 ms on such a document, which alone would spend the 1,000-skill
 * index budget (150 ms), so those documents take a line-by-line fast path that yields exactly
 * what the YAML parser would; anything else (indentation, anchors, tags, numbers, comments
 * after values, duplicate keys, …) goes to the parser.
 */
export interface YamlRead {
  /** The top-level mapping; `undefined` when the YAML could not be read as one. */
  data: Record<string, unknown> | undefined;
  /** 1-based file line of the node at `path` (or of its closest ancestor that has one). */
  lineOf: (path: readonly (string | number)[]) => number | undefined;
}

/** A self-referencing alias graph is not data; a deep one is an attack or a mistake. */
const MAX_DEPTH = 64;
/** Bounds "billion laughs" expansion; real frontmatter uses a handful of aliases at most. */
const MAX_ALIAS_COUNT = 100;

export function readFrontmatterYaml(yaml: string, firstLine: number, sink: IssueSink): YamlRead {
  const fast = readFast(yaml, firstLine);
  if (fast !== undefined) return fast;
  return readFull(yaml, firstLine, sink);
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
const SINGLE_QUOTED = /^'((?:[^']|'')*)'$/;
const CORE_NULL = /^(?:~|null|Null|NULL)?$/;
const CORE_TRUE = /^(?:true|True|TRUE)$/;
const CORE_FALSE = /^(?:false|False|FALSE)$/;
/** Plain scalars starting like this may be numbers, indicators or other syntax: let YAML decide. */
const PLAIN_NEEDS_PARSER = /^[-?:,[\]{}#&*!|>'"%@`+.0-9]|: |:$| #|\t/;

function readFast(yaml: string, firstLine: number): YamlRead | undefined {
  const data: Record<string, unknown> = {};
  const lines = new Map<string, number>();
  let lineNo = firstLine - 1;
  for (const rawLine of yaml.split("\n")) {
    lineNo++;
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    const trimmed = line.trimEnd();
    if (trimmed === "" || (trimmed.startsWith("#") && line.startsWith("#"))) continue;
    const match = KEY_LINE.exec(trimmed);
    if (match === null) return undefined;
    const key = match[1] ?? "";
    if (lines.has(key) || key === "__proto__") return undefined;
    const value = readFastValue(match[2] ?? "");
    if (value === NEEDS_PARSER) return undefined;
    Object.defineProperty(data, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    lines.set(key, lineNo);
  }
  return {
    data,
    lineOf: (path) => (typeof path[0] === "string" ? lines.get(path[0]) : undefined),
  };
}

const NEEDS_PARSER = Symbol("needs-parser");

function readFastValue(value: string): unknown {
  if (CORE_NULL.test(value)) return null;
  if (CORE_TRUE.test(value)) return true;
  if (CORE_FALSE.test(value)) return false;
  const first = value[0];
  if (first === "{" || first === "[" || first === '"') {
    // JSON is YAML 1.2: when JSON reads the whole value, YAML reads the same data.
    try {
      const parsed: unknown = JSON.parse(value);
      return hasDuplicateKeysRisk(value) ? NEEDS_PARSER : parsed;
    } catch {
      return NEEDS_PARSER;
    }
  }
  if (first === "'") {
    const m = SINGLE_QUOTED.exec(value);
    return m === null ? NEEDS_PARSER : (m[1] ?? "").replace(/''/g, "'");
  }
  if (PLAIN_NEEDS_PARSER.test(value)) return NEEDS_PARSER;
  return value;
}

/** `__proto__` inside JSON is harmless to JSON.parse but deserves the parser's scrutiny. */
function hasDuplicateKeysRisk(value: string): boolean {
  return value.includes('"__proto__"');
}

function readFull(yaml: string, firstLine: number, sink: IssueSink): YamlRead {
  const counter = new LineCounter();
  const doc = parseDocument(yaml, {
    schema: "core",
    customTags: [],
    resolveKnownTags: false,
    uniqueKeys: true,
    prettyErrors: false,
    lineCounter: counter,
  });
  const at = (offset: number | undefined): { line: number; col: number } | undefined => {
    if (offset === undefined) return undefined;
    const pos = counter.linePos(offset);
    return { line: pos.line + firstLine - 1, col: pos.col };
  };
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    for (let n = path.length; n >= 1; n--) {
      const line = nodeLine(doc, path.slice(0, n), at);
      if (line !== undefined) return line;
    }
    return undefined;
  };

  let fatal = false;
  for (const err of doc.errors) {
    const pos = at(err.pos[0]);
    if (err.code === "DUPLICATE_KEY") {
      sink.warn(
        "skill.duplicate_key",
        "a key appears twice in the frontmatter; the last value is used (remove the other one)",
        [],
        pos?.line,
      );
      continue;
    }
    fatal = true;
    pushWithColumn(
      sink,
      "error",
      "skill.yaml_syntax",
      `invalid YAML: ${firstSentence(err.message)}`,
      pos,
    );
  }
  for (const warning of doc.warnings) {
    const pos = at(warning.pos[0]);
    if (warning.code === "TAG_RESOLVE_FAILED") {
      fatal = true;
      const tag = /Unresolved tag: (.*)$/.exec(warning.message)?.[1] ?? "";
      pushWithColumn(
        sink,
        "error",
        "skill.yaml_tag",
        `YAML tag ${shortTag(tag)} is not allowed: frontmatter is plain data (strings, numbers, booleans, lists, mappings); remove the tag`,
        pos,
      );
      continue;
    }
    pushWithColumn(sink, "warning", "skill.yaml_warning", firstSentence(warning.message), pos);
  }
  if (fatal) return { data: undefined, lineOf };

  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (cause) {
    sink.error(
      "skill.yaml_alias",
      `YAML aliases expand too far (${cause instanceof Error ? firstSentence(cause.message) : "alias error"}); write the values out`,
    );
    return { data: undefined, lineOf };
  }
  const problem = findCycleOrDepth(js, 0, new Set());
  if (problem !== undefined) {
    sink.error(
      "skill.yaml_alias",
      problem === "cycle"
        ? "a YAML alias refers to the node that contains it; frontmatter must be a tree"
        : `frontmatter nests deeper than ${MAX_DEPTH} levels`,
    );
    return { data: undefined, lineOf };
  }
  if (js === null || js === undefined) return { data: {}, lineOf };
  if (typeof js !== "object" || Array.isArray(js)) {
    sink.error(
      "skill.frontmatter_type",
      "the frontmatter must be a YAML mapping of keys (`name: …`, `description: …`), not a single value or a list",
      [],
      firstLine,
    );
    return { data: undefined, lineOf };
  }
  return { data: js as Record<string, unknown>, lineOf };
}

function nodeLine(
  doc: Document,
  path: readonly (string | number)[],
  at: (offset: number | undefined) => { line: number } | undefined,
): number | undefined {
  try {
    const node: unknown = doc.getIn(path, true);
    if (isNode(node) && node.range) return at(node.range[0])?.line;
  } catch {
    // A path through a scalar (e.g. into a JSON string) has no node.
  }
  return undefined;
}

function pushWithColumn(
  sink: IssueSink,
  severity: "error" | "warning",
  code: string,
  message: string,
  pos: { line: number; col: number } | undefined,
): void {
  if (severity === "error") sink.error(code, message, [], pos?.line);
  else sink.warn(code, message, [], pos?.line);
  const list = severity === "error" ? sink.errors : sink.warnings;
  const last = list[list.length - 1];
  if (last !== undefined && pos !== undefined) last.column = pos.col;
}

function shortTag(tag: string): string {
  const prefix = "tag:yaml.org,2002:";
  return tag.startsWith(prefix) ? `!!${tag.slice(prefix.length)}` : tag;
}

function firstSentence(message: string): string {
  return message.split("\n")[0]?.trim() ?? message;
}

function findCycleOrDepth(
  value: unknown,
  depth: number,
  ancestors: Set<unknown>,
): "cycle" | "depth" | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (ancestors.has(value)) return "cycle";
  if (depth > MAX_DEPTH) return "depth";
  ancestors.add(value);
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) {
    const found = findCycleOrDepth(child, depth + 1, ancestors);
    if (found !== undefined) return found;
  }
  ancestors.delete(value);
  return undefined;
}
