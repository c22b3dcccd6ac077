import { describe, expect, it } from "vitest";
import { ShellSplitError, shellSplit } from "../../src/launch/shell-split.js";

describe("shellSplit", () => {
  it.each([
    ["node dist/server.js", ["node", "dist/server.js"]],
    ["  go   run\t./cmd/x  ", ["go", "run", "./cmd/x"]],
    [`node "my dir/server.js"`, ["node", "my dir/server.js"]],
    [`python3 -c 'print("a b")'`, ["python3", "-c", 'print("a b")']],
    [`echo "say \\"hi\\""`, ["echo", 'say "hi"']],
    [`echo a\\ b`, ["echo", "a b"]],
    [`echo '' ""`, ["echo", "", ""]],
    [`a"b"'c'd`, ["abcd"]],
    [`"C:\\tools\\x.exe" --flag`, ["C:\\tools\\x.exe", "--flag"]],
    ["echo $HOME *.js", ["echo", "$HOME", "*.js"]],
    ["a \\\nb", ["a", "b"]],
    ["", []],
    ["   ", []],
  ])("splits %j", (input, expected) => {
    expect(shellSplit(input)).toEqual(expected);
  });

  it.each([
    [`node "unterminated`, /unterminated double quote at column 6/],
    [`node 'unterminated`, /unterminated single quote at column 6/],
    [`node trailing\\`, /trailing backslash/],
  ])("rejects %j", (input, message) => {
    expect(() => shellSplit(input)).toThrow(ShellSplitError);
    expect(() => shellSplit(input)).toThrow(message);
  });
});
