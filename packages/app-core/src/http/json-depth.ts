// JSON nested deeper than any app sends is refused before JSON.parse: the parse itself copes,
// but everything after it (the panel, the recorder, the dispatcher's size checks) walks the value
// recursively and would overflow the stack, a 500 from one small request.

/** Arrays and objects nested deeper than this are refused. */
export const JSON_MAX_DEPTH = 256;

/** Whether `text` nests `[`/`{` deeper than `maxDepth`, ignoring brackets inside strings. */
export function jsonNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
