import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shellSplit } from "../../src/launch/shell-split.js";
import { parseSpecString } from "../../src/launch/spec-string.js";

/** POSIX single-quoting: everything literal, `'` written as `'\''`. */
function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

describe("shellSplit round trips", () => {
  it("gives back any argv that was single-quoted and joined", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 6 }), (argv) => {
        expect(shellSplit(argv.map(quote).join(" "))).toEqual(argv);
      }),
    );
  });

  it("gives back any argv passed to command= as a JSON array, commas and brackets included", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (argv) => {
        fc.pre(argv[0] !== "");
        const parsed = parseSpecString(`dir=p,command=${JSON.stringify(argv)},tool_id=t`);
        expect(parsed.command).toEqual(argv);
        expect(parsed.toolId).toBe("t");
      }),
    );
  });
});
