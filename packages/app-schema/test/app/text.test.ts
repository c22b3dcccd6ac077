import { describe, expect, it } from "vitest";
import { boundedString, codePointLength, quote, QUOTE_MAX_CHARS } from "../../src/app/text.js";

describe("text helpers", () => {
  it("count code points, not UTF-16 units", () => {
    expect(codePointLength("📈📈")).toBe(2);
    expect("📈📈".length).toBe(4);
  });

  it("bound strings in code points with messages that give the count", () => {
    const schema = boundedString(1, 3);
    expect(schema.safeParse("📈📈📈").success).toBe(true);
    const over = schema.safeParse("abcd");
    expect(over.success ? [] : over.error.issues.map((issue) => issue.message)).toEqual([
      "must have at most 3 characters (has 4)",
    ]);
    const empty = schema.safeParse("");
    expect(empty.success ? [] : empty.error.issues.map((issue) => issue.message)).toEqual([
      "must not be empty",
    ]);
  });

  it("quote values for messages, cutting long ones without splitting a code point", () => {
    expect(quote('a"b')).toBe('"a\\"b"');
    expect(quote(7)).toBe("7");
    const long = quote("📈".repeat(10_000));
    expect(codePointLength(JSON.parse(long) as string)).toBe(QUOTE_MAX_CHARS);
    expect(long.endsWith('…"')).toBe(true);
    expect(quote("x".repeat(QUOTE_MAX_CHARS))).toBe(JSON.stringify("x".repeat(QUOTE_MAX_CHARS)));
  });
});
