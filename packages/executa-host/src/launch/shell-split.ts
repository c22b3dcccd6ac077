// Splits a command string into argv the way a POSIX shell would, without running anything:
// `command` strings in executa.json and `--spec command="node dist/server.js"` (L11583, L11602).
// No variable expansion, globbing or operators; those characters are kept literally.

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
// Inside double quotes a backslash only escapes these (POSIX); elsewhere it stays, so Windows
// paths like "C:\tools\x.exe" survive.
const DOUBLE_QUOTE_ESCAPABLE = new Set(['"', "\\", "$", "`", "\n"]);

/** Thrown for unbalanced quotes or a trailing backslash; callers add which file or flag. */
export class ShellSplitError extends SyntaxError {
  constructor(message: string) {
    super(message);
    this.name = "ShellSplitError";
  }
}

export function shellSplit(input: string): string[] {
  const words: string[] = [];
  let word = "";
  // A word exists once any character or quote pair was seen, so `''` yields an empty argument.
  let inWord = false;
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (WHITESPACE.has(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (ch === "'") {
      const end = input.indexOf("'", i + 1);
      if (end === -1) throw new ShellSplitError(`unterminated single quote at column ${i + 1}`);
      word += input.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= input.length) {
          throw new ShellSplitError(`unterminated double quote at column ${i + 1}`);
        }
        const c = input[j] as string;
        if (c === '"') break;
        if (
          c === "\\" &&
          j + 1 < input.length &&
          DOUBLE_QUOTE_ESCAPABLE.has(input[j + 1] as string)
        ) {
          // Backslash-newline is a line continuation inside double quotes too.
          if (input[j + 1] !== "\n") word += input[j + 1];
          j += 2;
        } else {
          word += c;
          j++;
        }
      }
      inWord = true;
      i = j + 1;
    } else if (ch === "\\") {
      if (i + 1 >= input.length) throw new ShellSplitError("trailing backslash");
      const next = input[i + 1] as string;
      if (next !== "\n") {
        word += next;
        inWord = true;
      }
      i += 2;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
