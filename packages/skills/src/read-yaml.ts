import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type Document } from "yaml";
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

const KEY_VALUE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
const SINGLE_QUOTED = /^'((?:[^']|'')*)'$/;
const CORE_NULL = /^(?:~|null|Null|NULL)?$/;
const CORE_TRUE = /^(?:true|True|TRUE)$/;
const CORE_FALSE = /^(?:false|False|FALSE)$/;
/** Plain scalars starting like this may be numbers, indicators or other syntax: let YAML decide. */
const PLAIN_NEEDS_PARSER = /^[-?:,[\]{}#&*!|>'"%@`+.0-9]|: |:$| #|\t/;
/** In a flow sequence, plain items must also avoid flow indicators. */
const FLOW_ITEM_NEEDS_PARSER = /[[\]{},]/;

const NEEDS_PARSER = Symbol("needs-parser");
type Fast = unknown;

interface FastLine {
  indent: number;
  text: string;
  line: number;
}

/**
 * The subset of YAML real frontmatter uses, read without the YAML parser: block mappings with
 * plain identifier keys, block sequences of scalars, and values that are plain, quoted or JSON
 * scalars, JSON flow collections, or flow sequences of plain words (`[jq, curl]`). Anything
 * outside it (comments after values, anchors, tags, numbers, multi-line scalars, duplicate keys,
 * mappings inside sequences, …) returns `undefined` and the YAML parser reads the document.
 * A property test holds this to the parser's output.
 */
function readFast(yaml: string, firstLine: number): YamlRead | undefined {
  const lines: FastLine[] = [];
  let lineNo = firstLine - 1;
  for (const rawLine of yaml.split("\n")) {
    lineNo++;
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    const text = line.trimStart();
    if (text === "" || text.startsWith("#")) continue;
    const indent = line.length - text.length;
    if (line.slice(0, indent).includes("\t")) return undefined;
    lines.push({ indent, text: text.trimEnd(), line: lineNo });
  }
  if (lines.length === 0) return { data: {}, lineOf: () => undefined };
  if (lines[0]?.indent !== 0) return undefined;
  const lineByPath = new Map<string, number>();
  const cursor = { i: 0 };
  const data = readMapping(lines, cursor, 0, [], lineByPath);
  if (data === NEEDS_PARSER || cursor.i !== lines.length) return undefined;
  return {
    data: data as Record<string, unknown>,
    lineOf: (path) => {
      for (let n = path.length; n >= 1; n--) {
        const line = lineByPath.get(path.slice(0, n).join("\u0000"));
        if (line !== undefined) return line;
      }
      return undefined;
    },
  };
}

function readMapping(
  lines: readonly FastLine[],
  cursor: { i: number },
  indent: number,
  path: readonly (string | number)[],
  lineByPath: Map<string, number>,
): Fast {
  const out: Record<string, unknown> = {};
  while (cursor.i < lines.length) {
    const current = lines[cursor.i] as FastLine;
    if (current.indent < indent) break;
    if (current.indent > indent) return NEEDS_PARSER;
    const match = KEY_VALUE.exec(current.text);
    if (match === null) return NEEDS_PARSER;
    const key = match[1] ?? "";
    if (Object.hasOwn(out, key) || key === "__proto__") return NEEDS_PARSER;
    const keyPath = [...path, key];
    lineByPath.set(keyPath.join("\u0000"), current.line);
    cursor.i++;
    let value: Fast;
    if (match[2] !== undefined && match[2] !== "") {
      value = readFastValue(match[2]);
    } else {
      const next = lines[cursor.i];
      if (next !== undefined && next.indent >= indent && isSequenceItem(next.text)) {
        // `key:` followed by `- item` lines, indented or not (both are YAML).
        value = readSequence(lines, cursor, next.indent, keyPath, lineByPath);
      } else if (next !== undefined && next.indent > indent) {
        value = readMapping(lines, cursor, next.indent, keyPath, lineByPath);
      } else {
        value = null;
      }
    }
    if (value === NEEDS_PARSER) return NEEDS_PARSER;
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function isSequenceItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

function readSequence(
  lines: readonly FastLine[],
  cursor: { i: number },
  indent: number,
  path: readonly (string | number)[],
  lineByPath: Map<string, number>,
): Fast {
  const out: unknown[] = [];
  while (cursor.i < lines.length) {
    const current = lines[cursor.i] as FastLine;
    if (current.indent < indent) break;
    if (current.indent > indent || !isSequenceItem(current.text)) {
      // A sibling key at the parent's indent ends the sequence; anything else is not ours.
      if (current.indent === indent && !isSequenceItem(current.text)) break;
      return NEEDS_PARSER;
    }
    const item = current.text.slice(1).trim();
    // Nested blocks and mappings inside sequences are left to the parser.
    if (item === "" || KEY_VALUE.test(item) || isSequenceItem(item)) return NEEDS_PARSER;
    lineByPath.set([...path, out.length].join("\u0000"), current.line);
    const value = readFastValue(item);
    if (value === NEEDS_PARSER) return NEEDS_PARSER;
    out.push(value);
    cursor.i++;
  }
  return out;
}

function readFastValue(value: string): Fast {
  if (CORE_NULL.test(value)) return null;
  if (CORE_TRUE.test(value)) return true;
  if (CORE_FALSE.test(value)) return false;
  const first = value[0];
  if (first === "{" || first === "[" || first === '"') {
    // JSON is YAML 1.2: when JSON reads the whole value, YAML reads the same data.
    if (value.includes('"__proto__"')) return NEEDS_PARSER;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return first === "[" ? readFlowWords(value) : NEEDS_PARSER;
    }
  }
  if (first === "'") {
    const m = SINGLE_QUOTED.exec(value);
    return m === null ? NEEDS_PARSER : (m[1] ?? "").replace(/''/g, "'");
  }
  if (PLAIN_NEEDS_PARSER.test(value)) return NEEDS_PARSER;
  return value;
}

/** `[jq, curl]`: a flow sequence of plain words. */
function readFlowWords(value: string): Fast {
  if (!value.endsWith("]")) return NEEDS_PARSER;
  const inner = value.slice(1, -1).trim();
  if (inner === "") return [];
  const out: unknown[] = [];
  for (const raw of inner.split(",")) {
    const item = raw.trim();
    if (
      item === "" ||
      FLOW_ITEM_NEEDS_PARSER.test(item) ||
      item.includes(":") ||
      item.includes("#")
    ) {
      return NEEDS_PARSER;
    }
    const v = readFastValue(item);
    if (v === NEEDS_PARSER || v === null || typeof v === "boolean") return NEEDS_PARSER;
    out.push(v);
  }
  return out;
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

/** The line of the key (or sequence item) at `path`, as the fast path reports it. */
function nodeLine(
  doc: Document,
  path: readonly (string | number)[],
  at: (offset: number | undefined) => { line: number } | undefined,
): number | undefined {
  try {
    const parent: unknown = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
    const last = path[path.length - 1];
    if (isMap(parent)) {
      const pair = parent.items.find(
        (p) => (isScalar(p.key) ? String(p.key.value) : p.key) === String(last),
      );
      if (pair !== undefined && isNode(pair.key) && pair.key.range)
        return at(pair.key.range[0])?.line;
    } else if (isSeq(parent) && typeof last === "number") {
      const item: unknown = parent.items[last];
      if (isNode(item) && item.range) return at(item.range[0])?.line;
    }
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
