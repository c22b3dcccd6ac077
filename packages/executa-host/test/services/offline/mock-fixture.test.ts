import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  MockFixture,
  MockFixtureError,
  canonicalMethod,
  matches,
} from "../../../src/services/offline/mock-fixture.js";

describe("MockFixture", () => {
  it("skips comments and blank lines and keeps file line numbers", () => {
    const fixture = MockFixture.parse(
      [
        "# replies for the weather plugin",
        "",
        '{"ns":"llm","method":"complete","match":{"contentIncludes":"weather"},"result":{"text":"sunny"}}',
        "// another comment style",
        '{"ns":"sampling","method":"createMessage","result":{"text":"fallback"}}',
      ].join("\n"),
      "replies.jsonl",
    );
    expect(fixture.entries.map((e) => [e.line, e.method])).toEqual([
      [3, "sampling/createMessage"],
      [5, "sampling/createMessage"],
    ]);
  });

  it("answers with the first entry whose match rules hold", () => {
    const fixture = MockFixture.parse(
      [
        '{"ns":"sampling","method":"createMessage","match":{"contentIncludes":"weather"},"result":1}',
        '{"ns":"llm","method":"complete","result":2}',
      ].join("\n"),
    );
    const ask = (text: string) => ({
      messages: [{ role: "user", content: { type: "text", text } }],
      maxTokens: 10,
    });
    expect(fixture.find("sampling/createMessage", ask("the weather today"))?.result).toBe(1);
    expect(fixture.find("sampling/createMessage", ask("tell me a joke"))?.result).toBe(2);
    expect(fixture.find("storage/get", { key: "k" })).toBeUndefined();
  });

  it("reports a broken line with its number", () => {
    const text = '{"ns":"llm","method":"complete","result":1}\n{"ns":"llm", oops}\n';
    expect(() => MockFixture.parse(text, "f.jsonl")).toThrow(MockFixtureError);
    expect(() => MockFixture.parse(text, "f.jsonl")).toThrow(/^f\.jsonl:2:14: not valid JSON/);
  });

  it("names the file's line and the column within it for a syntax error", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "mock-fixture-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, "replies.jsonl");
    await writeFile(
      file,
      [
        "# replies",
        '{"ns":"llm","method":"complete","result":1}',
        '  {"ns":"llm" "method":"complete","result":2}',
      ].join("\n"),
    );
    const error = await MockFixture.load(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockFixtureError);
    expect(error).toMatchObject({ file, line: 3, column: 15 });
    expect((error as Error).message).toContain(`${file}:3:15: not valid JSON (`);
  });

  it("rejects entries without a method or an answer, naming what is missing", () => {
    expect(() => MockFixture.parse('{"ns":"llm","result":1}', "a")).toThrow(
      /a:1: missing "method"/,
    );
    expect(() => MockFixture.parse('{"ns":"llm","method":"complete"}', "b")).toThrow(
      /b:1: needs one of "result", "error" or "events"/,
    );
    expect(() => MockFixture.parse('{"method":"storage/get","error":{"code":"x"}}', "c")).toThrow(
      /c:1: "error" must be/,
    );
  });

  it("lets upload entries named by mode answer only that mode", () => {
    const fixture = MockFixture.parse(
      [
        '{"ns":"upload","method":"negotiate","result":"n"}',
        '{"ns":"upload","method":"inline","result":"i"}',
      ].join("\n"),
    );
    expect(fixture.find("host/uploadFile", { mode: "inline" })?.result).toBe("i");
    expect(fixture.find("host/uploadFile", { mode: "negotiate" })?.result).toBe("n");
  });

  it("matches other keys as dotted paths and deep subsets", () => {
    expect(matches({ "metadata.tool": "a" }, { metadata: { tool: "a" } })).toBe(true);
    expect(matches({ key: "x" }, { key: "y" })).toBe(false);
    expect(
      matches(
        { responseFormat: { type: "json_object" } },
        { responseFormat: { type: "json_object", x: 1 } },
      ),
    ).toBe(true);
    expect(matches({ contentExcludes: "secret" }, { text: "a secret" })).toBe(false);
  });

  it("tests a substring of one request field with <field>Includes / <field>Excludes", () => {
    const params = { prompt: "Mars at dawn", query: { text: "weather in Oslo" }, note: "Mars" };
    expect(matches({ promptIncludes: "Mars" }, params)).toBe(true);
    expect(matches({ promptIncludes: ["Mars", "dawn"] }, params)).toBe(true);
    expect(matches({ promptIncludes: "Oslo" }, params)).toBe(false);
    expect(matches({ promptExcludes: "night" }, params)).toBe(true);
    expect(matches({ promptExcludes: "dawn" }, params)).toBe(false);
    expect(matches({ "query.textIncludes": "Oslo" }, params)).toBe(true);
    // An absent field includes nothing: its Includes fails, its Excludes holds.
    expect(matches({ titleIncludes: "Mars" }, params)).toBe(false);
    expect(matches({ titleExcludes: "Mars" }, params)).toBe(true);
    // `content` is the whole payload, as before.
    expect(matches({ contentIncludes: "Oslo" }, params)).toBe(true);
  });

  it("maps app-side spellings onto the plugin-side methods", () => {
    expect(canonicalMethod("llm", "complete")).toBe("sampling/createMessage");
    expect(canonicalMethod("llm", "embed")).toBe("embeddings/create");
    expect(canonicalMethod(undefined, "storage/get")).toBe("storage/get");
    expect(canonicalMethod("agent", "session.run")).toBe("agent/session.run");
  });
});
