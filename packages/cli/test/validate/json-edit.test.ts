import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { applyFixes } from "../../src/validate/fix.js";
import { parseJsonDocument } from "../../src/validate/json-document.js";
import { addMember, appendToArray, replaceValue } from "../../src/validate/json-edit.js";

const doc = (text: string) => parseJsonDocument(text);

describe("json edits", () => {
  it("appends to a single-line array in its own style", () => {
    expect(appendToArray(doc('{"a": ["get"]}'), "/a", ["set"])).toBe('{"a": ["get", "set"]}');
  });

  it("appends to a multi-line array with the separator its items use", () => {
    const text = '{\n  "a": [\n    "get",\n    "list"\n  ]\n}';
    expect(appendToArray(doc(text), "/a", ["set"])).toBe(
      '{\n  "a": [\n    "get",\n    "list",\n    "set"\n  ]\n}',
    );
  });

  it("fills an empty array", () => {
    expect(appendToArray(doc('{"a": []}'), "/a", ["x", "y"])).toBe('{"a": ["x", "y"]}');
  });

  it("adds a member after the last one, matching multi-line layout", () => {
    const text = '{\n  "ui": {\n    "bundle": {}\n  }\n}';
    expect(addMember(doc(text), "/ui", "host_api", { storage: ["get"] })).toBe(
      '{\n  "ui": {\n    "bundle": {},\n    "host_api": {"storage":["get"]}\n  }\n}',
    );
  });

  it("adds a member to an empty object", () => {
    expect(addMember(doc('{"h": {}}'), "/h", "chat", ["read"])).toBe('{"h": {"chat": ["read"]}}');
  });

  it("replaces a string value in place", () => {
    expect(replaceValue(doc('{"t": ["required:focs"]}'), "/t/0", "required:focus")).toBe(
      '{"t": ["required:focus"]}',
    );
  });

  it("keeps a BOM", () => {
    expect(replaceValue(doc('\uFEFF{"a": 1}'), "/a", 2)).toBe('\uFEFF{"a": 2}');
  });
});

describe("applyFixes", () => {
  function manifestFile(text: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), "anna-fix-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "manifest.json");
    writeFileSync(file, text);
    return file;
  }

  it("adds grants to an existing list, a new namespace, and a new host_api, in one pass", async () => {
    const file = manifestFile(
      '{\n  "ui": {\n    "host_api": {\n      "storage": ["get"]\n    }\n  }\n}\n',
    );
    const applied = await applyFixes(
      [
        { kind: "grant", file, namespace: "storage", method: "set" },
        { kind: "grant", file, namespace: "chat", method: "write_message" },
      ],
      (f) => path.basename(f),
    );
    expect(applied.map((a) => a.pointer)).toEqual(["/ui/host_api/storage", "/ui/host_api/chat"]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      ui: { host_api: { storage: ["get", "set"], chat: ["write_message"] } },
    });
    const none = manifestFile('{"ui": {"bundle": {}}}');
    await applyFixes([{ kind: "grant", file: none, namespace: "llm", method: "complete" }], String);
    expect(JSON.parse(readFileSync(none, "utf8"))).toEqual({
      ui: { bundle: {}, host_api: { llm: ["complete"] } },
    });
  });

  it("skips a replace whose target no longer holds the expected value", async () => {
    const file = manifestFile('{"a": "changed"}');
    const applied = await applyFixes(
      [{ kind: "replace", file, pointer: "/a", from: "old", to: "new" }],
      String,
    );
    expect(applied).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe('{"a": "changed"}');
  });

  it("does not add a grant twice", async () => {
    const file = manifestFile('{"ui": {"host_api": {"storage": ["get"]}}}');
    const fix = { kind: "grant" as const, file, namespace: "storage", method: "set" };
    const applied = await applyFixes([fix, fix], String);
    expect(applied).toHaveLength(1);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      ui: { host_api: { storage: ["get", "set"] } },
    });
  });
});
