// docs/mocks.md is the one description of mock-answer files: every example line there parses,
// and its field-substring examples choose the line they claim to.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";

const GUIDE = fileURLToPath(new URL("../../../../../docs/mocks.md", import.meta.url));

function jsonlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```jsonl\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

describe("docs/mocks.md", () => {
  const blocks = jsonlBlocks(readFileSync(GUIDE, "utf8"));
  const fixture = MockFixture.parse(blocks.slice(1).join("\n"), "docs/mocks.md");

  it("has a parsable example for every family", () => {
    const methods = new Set(fixture.entries.map((e) => e.method.split("/")[0]));
    for (const family of ["sampling", "image", "agent", "web", "embeddings", "storage", "host"]) {
      expect(methods).toContain(family);
    }
  });

  it("answers with the lines its examples describe", () => {
    expect(fixture.find("image/generate", { prompt: "Mars at dawn", n: 1 })?.result).toMatchObject({
      model: "mock-painter",
    });
    expect(fixture.find("image/generate", { prompt: "Mars at night", n: 1 })).toBeUndefined();
    expect(fixture.find("web/search", { query: "tides today" })?.line).toBeGreaterThan(0);
    expect(fixture.find("embeddings/create", { input: ["a pinned note"] })).toBeDefined();
    expect(
      fixture.find("host/uploadFile", { mode: "inline", filename: "notes.txt" }),
    ).toBeDefined();
    const weather = { messages: [{ role: "user", content: { type: "text", text: "weather?" } }] };
    expect(fixture.find("sampling/createMessage", weather)?.result).toMatchObject({
      model: "mock",
    });
  });
});
