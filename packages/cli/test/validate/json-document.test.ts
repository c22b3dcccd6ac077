import { describe, expect, it } from "vitest";
import {
  JSON_MAX_DEPTH,
  JsonSyntaxError,
  parseJsonDocument,
} from "../../src/validate/json-document.js";

function syntaxError(text: string): JsonSyntaxError {
  try {
    parseJsonDocument(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error;
    throw error;
  }
  throw new Error("parsed without an error");
}

describe("parseJsonDocument", () => {
  it("parses the same values as JSON.parse", () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9\\ud83d\\ude00"], "b": {}}';
    expect(parseJsonDocument(text).value).toEqual(JSON.parse(text));
  });

  it("maps pointers to the line and column of members in a pretty-printed file", () => {
    const doc = parseJsonDocument(
      '{\n  "ui": {\n    "views": [\n      {"name": "Main"}\n    ]\n  }\n}\n',
    );
    expect(doc.positionOf("/ui")).toEqual({ line: 2, column: 3 });
    expect(doc.positionOf("/ui/views/0")).toEqual({ line: 4, column: 7 });
    expect(doc.positionOf("/ui/views/0/name")).toEqual({ line: 4, column: 8 });
  });

  it("points at the right column in a single-line, key-sorted manifest", () => {
    const text = '{"required_executas":[{"tool_id":"a"}],"schema":2,"ui":{"bundle":{"entry":"x"}}}';
    const doc = parseJsonDocument(text);
    const column = text.indexOf('"entry"') + 1;
    expect(doc.positionOf("/ui/bundle/entry")).toEqual({ line: 1, column });
  });

  it("reports a missing member at its nearest existing ancestor", () => {
    const doc = parseJsonDocument('{\n  "ui": {"bundle": {}}\n}');
    expect(doc.has("/ui/bundle/entry")).toBe(false);
    expect(doc.positionOf("/ui/bundle/entry")).toEqual(doc.positionOf("/ui/bundle"));
  });

  it("escapes ~ and / in pointer tokens (RFC 6901)", () => {
    const doc = parseJsonDocument('{"a/b": {"c~d": 1}}');
    expect(doc.has("/a~1b/c~0d")).toBe(true);
  });

  it("drops a UTF-8 BOM and still counts columns from the first visible character", () => {
    const doc = parseJsonDocument('\uFEFF{"schema": 1}');
    expect(doc.hadBom).toBe(true);
    expect(doc.value).toEqual({ schema: 1 });
    expect(doc.positionOf("/schema")).toEqual({ line: 1, column: 2 });
  });

  it("counts CRLF and CR line endings as one line break", () => {
    const doc = parseJsonDocument('{\r\n"a": 1,\r"b": 2}');
    expect(doc.positionOf("/a")).toEqual({ line: 2, column: 1 });
    expect(doc.positionOf("/b")).toEqual({ line: 3, column: 1 });
  });

  it("records duplicate keys and keeps the last value, as JSON.parse and the platform do", () => {
    const doc = parseJsonDocument('{"schema": 1,\n "schema": 2}');
    expect(doc.value).toEqual({ schema: 2 });
    expect(doc.duplicateKeys).toEqual([
      { pointer: "/schema", key: "schema", firstOffset: 1, offset: 15 },
    ]);
    expect(doc.position(15)).toEqual({ line: 2, column: 2 });
  });

  it("keeps __proto__ a plain key instead of changing the prototype", () => {
    const doc = parseJsonDocument('{"__proto__": {"polluted": true}}');
    const value = doc.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["", 1, 1, "the file is empty"],
    ['{"a": 1,}', 1, 9, "trailing comma before '}'"],
    ["[1, 2,]", 1, 7, "trailing comma before ']'"],
    ['{\n  // note\n  "a": 1}', 2, 3, "comments are not allowed"],
    ['{"a": "unterminated}', 1, 7, "unterminated string"],
    ['{"a": "line\nbreak"}', 1, 7, "line break inside a string"],
    ["{'a': 1}", 1, 2, "double quotes"],
    ['{"a" 1}', 1, 6, "expected ':'"],
    ['{"a": 1 "b": 2}', 1, 9, "missing ','"],
    ['{"a": 01}', 1, 7, "leading zeros"],
    ['{"a": tru}', 1, 7, "expected a value"],
    ['{"a": 1}\n{"b": 2}', 2, 1, "after the end of the JSON value"],
    ['{"a": [1, 2}', 1, 12, "expected ',' or ']'"],
    ['{"a": {"b": 1}', 1, 1, "missing '}'"],
    ['{"a": "\\x"}', 1, 8, "invalid escape"],
    ['{"a":\u00a01}', 1, 6, "invisible character U+00A0"],
    ['{"a": 1}\uFEFF', 1, 9, "invisible character U+FEFF"],
    ['{"a": "x\ty"}', 1, 9, "control character U+0009 inside a string"],
  ])("reports malformed JSON %j at %i:%i", (text, line, column, message) => {
    const error = syntaxError(text);
    expect(error.message).toContain(message);
    expect({ line: error.line, column: error.column }).toEqual({ line, column });
  });

  it("refuses nesting deeper than the limit with a message instead of overflowing the stack", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(syntaxError(deep).message).toContain(`nested deeper than ${JSON_MAX_DEPTH}`);
    const ok = "[".repeat(JSON_MAX_DEPTH) + "]".repeat(JSON_MAX_DEPTH);
    expect(() => parseJsonDocument(ok)).not.toThrow();
  });

  it("parses a multi-megabyte document quickly", () => {
    const big = JSON.stringify({ tags: Array.from({ length: 100_000 }, (_, i) => `tag-${i}`) });
    const started = performance.now();
    const doc = parseJsonDocument(big);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(doc.has("/tags/99999")).toBe(true);
  });
});
