/**
 * Finds the YAML frontmatter of a `SKILL.md` without parsing it: `---` on the first line (after
 * an optional UTF-8 BOM), closed by a `---` or `...` line (S2). Works on a prefix of the file so
 * the index can read only the head of each skill and leave the body on disk (S18).
 */
export type FrontmatterSplit =
  | {
      kind: "ok";
      /** The YAML between the fences. */
      yaml: string;
      /** 1-based file line of the first YAML line. */
      yamlFirstLine: number;
      /** Offset in the text where the body starts (after the closing fence and blank lines). */
      bodyOffset: number;
      /** 1-based file line where the body starts. */
      bodyFirstLine: number;
    }
  | { kind: "no_frontmatter" }
  | {
      kind: "unclosed";
      /** True when `text` was only a prefix and more could close it. */ truncated: boolean;
    };

const BOM = "\uFEFF";
const OPEN_FENCE = /^---[ \t]*\r?$/;
const CLOSE_FENCE = /^(?:---|\.\.\.)[ \t]*\r?$/;

export function splitFrontmatter(text: string, isPrefix = false): FrontmatterSplit {
  const start = text.startsWith(BOM) ? 1 : 0;
  const firstEnd = text.indexOf("\n", start);
  const firstLine = firstEnd === -1 ? text.slice(start) : text.slice(start, firstEnd);
  if (!OPEN_FENCE.test(firstLine)) {
    // A prefix that ends inside the first line cannot be judged yet.
    if (firstEnd === -1 && isPrefix) return { kind: "unclosed", truncated: true };
    return { kind: "no_frontmatter" };
  }
  if (firstEnd === -1) return { kind: "unclosed", truncated: isPrefix };
  const yamlStart = firstEnd + 1;
  let lineStart = yamlStart;
  let line = 2;
  while (lineStart <= text.length) {
    const nl = text.indexOf("\n", lineStart);
    const lineEnd = nl === -1 ? text.length : nl;
    // In a prefix the last line may be cut short; only a complete line can be a fence.
    if (nl === -1 && isPrefix) break;
    if (CLOSE_FENCE.test(text.slice(lineStart, lineEnd))) {
      let bodyOffset = nl === -1 ? text.length : nl + 1;
      let bodyFirstLine = line + 1;
      // Blank lines between the fence and the body are layout, not content.
      for (;;) {
        const next = text.indexOf("\n", bodyOffset);
        if (next === -1 || text.slice(bodyOffset, next).trim() !== "") break;
        bodyOffset = next + 1;
        bodyFirstLine++;
      }
      return {
        kind: "ok",
        yaml: text.slice(yamlStart, lineStart),
        yamlFirstLine: 2,
        bodyOffset,
        bodyFirstLine,
      };
    }
    if (nl === -1) break;
    lineStart = nl + 1;
    line++;
  }
  return { kind: "unclosed", truncated: isPrefix };
}
