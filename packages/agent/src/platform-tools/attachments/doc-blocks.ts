// A text document as the structured blocks doc_read returns: headings, paragraphs, lists, code
// and tables, each with a stable locator (`para:N` for text blocks, `table:M` for tables, both
// 1-based in document order) that a later call can start from.

export type BlockType = "heading" | "paragraph" | "list" | "code" | "table";

export interface DocBlock {
  locator: string;
  type: BlockType;
  text: string;
  /** Headings only: 1–6. */
  level?: number;
}

const HEADING = /^(#{1,6})\s+(.*)$/;
const FENCE = /^(```|~~~)/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
const TABLE_ROW = /^\s*\|/;

/** Splits Markdown (or plain text, which is Markdown without markup) into blocks. */
export function markdownBlocks(source: string): DocBlock[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Omit<DocBlock, "locator">[] = [];
  let pending: string[] = [];
  let pendingType: BlockType = "paragraph";
  const flush = () => {
    const text = pending.join("\n").trim();
    if (text !== "") blocks.push({ type: pendingType, text });
    pending = [];
    pendingType = "paragraph";
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = FENCE.exec(line.trim());
    if (fence !== null) {
      flush();
      const code = [line];
      while (++i < lines.length) {
        const next = lines[i] as string;
        code.push(next);
        if (next.trim().startsWith(fence[1] as string)) break;
      }
      blocks.push({ type: "code", text: code.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      flush();
      blocks.push({
        type: "heading",
        level: (heading[1] as string).length,
        text: (heading[2] as string).trim(),
      });
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const type: BlockType = TABLE_ROW.test(line)
      ? "table"
      : LIST_ITEM.test(line)
        ? "list"
        : "paragraph";
    // A change of kind (paragraph → table) starts a new block even without a blank line.
    if (
      pending.length > 0 &&
      type !== pendingType &&
      !(pendingType === "list" && /^\s+/.test(line))
    ) {
      flush();
    }
    pendingType = pending.length === 0 ? type : pendingType;
    pending.push(line);
  }
  flush();
  let para = 0;
  let table = 0;
  return blocks.map((b) => ({
    ...b,
    locator: b.type === "table" ? `table:${++table}` : `para:${++para}`,
  }));
}
