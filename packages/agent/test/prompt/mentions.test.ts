import { describe, expect, it } from "vitest";
import { maskCode, parseMentions } from "../../src/index.js";

const apps = (text: string): string[] => parseMentions(text).apps.map((m) => m.name);
const executas = (text: string): string[] => parseMentions(text).executas.map((m) => m.name);

describe("parseMentions", () => {
  it("finds #apps and @executas with their offsets, in order of first appearance", () => {
    const text = "Use #weekly-review and @weather, then #focus-flow.";
    expect(parseMentions(text)).toEqual({
      apps: [
        { kind: "app", name: "weekly-review", index: 4 },
        { kind: "app", name: "focus-flow", index: 38 },
      ],
      executas: [{ kind: "executa", name: "weather", index: 23 }],
    });
  });

  it("ends a mention at trailing punctuation and lowercases it", () => {
    expect(apps("#Focus-Flow, #a-b. (#c_d) #x-y- #q!")).toEqual([
      "focus-flow",
      "a-b",
      "c_d",
      "x-y",
      "q",
    ]);
    expect(apps("#focus-flow's timer")).toEqual(["focus-flow"]);
  });

  it("needs whitespace, a bracket or a quote before the sigil", () => {
    expect(apps("C# and F#, page#anchor, https://x.test/#/route, a/#b")).toEqual([]);
    expect(executas("mail a@b.com or @ alone or x@y")).toEqual([]);
    expect(apps('"#quoted" [#bracketed] {#braced} <#angled> «#guillemet»')).toEqual([
      "quoted",
      "bracketed",
      "braced",
      "angled",
      "guillemet",
    ]);
  });

  it("does not read numbers and markdown headings as mentions", () => {
    expect(apps("issue #123, option #1, ## Heading, # Title, #2024-01")).toEqual([]);
    expect(apps("#3d-printer")).toEqual(["3d-printer"]);
  });

  it("ignores mentions in code spans and fenced blocks", () => {
    const text = [
      "`#inline` and ``#double `tick` #inside`` but #real",
      "```js",
      "#fenced @fenced",
      "```",
      "~~~~",
      "#tilde",
      "~~~~",
      "after @here",
    ].join("\n");
    expect(apps(text)).toEqual(["real"]);
    expect(executas(text)).toEqual(["here"]);
  });

  it("treats an unclosed backtick as text and an unclosed fence as code to the end", () => {
    expect(apps("a ` #open span")).toEqual(["open"]);
    expect(apps("#before\n```\n#never closed")).toEqual(["before"]);
  });

  it("counts a name once per kind", () => {
    expect(parseMentions("#notes @notes #notes @notes")).toEqual({
      apps: [{ kind: "app", name: "notes", index: 0 }],
      executas: [{ kind: "executa", name: "notes", index: 7 }],
    });
  });

  it("keeps offsets through characters outside the basic plane", () => {
    const text = "🎉 `x` #party";
    const [mention] = parseMentions(text).apps;
    expect(text.slice(mention?.index)).toBe("#party");
  });
});

describe("maskCode", () => {
  it("blanks code but keeps length and newlines", () => {
    const text = "a `b` c\n```\nd\n```\ne";
    const masked = maskCode(text);
    expect(masked).toHaveLength(text.length);
    expect(masked).toBe("a     c\n   \n \n   \ne");
  });
});
