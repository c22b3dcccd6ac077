import { describe, expect, it } from "vitest";
import {
  type Attachment,
  ATTACHMENT_MAX_BYTES,
} from "../../src/platform-tools/attachments/attachment.js";
import { attachmentTools } from "../../src/platform-tools/attachments/attachment-tools.js";
import { SHEET_CELL_MAX_CHARS } from "../../src/platform-tools/attachments/sheet-read.js";
import { fails, ok } from "./helpers.js";

function toolsWith(
  files: Record<string, Omit<Attachment, "bytes"> & { text?: string; bytes?: Uint8Array }>,
) {
  const seen: string[] = [];
  const tools = attachmentTools({
    attachment: (id, ctx) => {
      seen.push(`${ctx.conversationId}/${id}`);
      const file = files[id];
      if (file === undefined) return Promise.resolve(undefined);
      return Promise.resolve({
        name: file.name,
        mediaType: file.mediaType,
        bytes: file.bytes ?? Buffer.from(file.text ?? ""),
      });
    },
  });
  return { tools, seen };
}

const MARKDOWN = [
  "# Report",
  "",
  "Intro paragraph.",
  "",
  "## Findings",
  "- one",
  "- two",
  "",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "",
  "```js",
  "const x = 1;",
  "",
  "```",
  "Closing words.",
].join("\n");

describe("doc_read", () => {
  it("reads Markdown as blocks with stable locators and an outline", async () => {
    const { tools, seen } = toolsWith({
      att_1: { name: "report.md", mediaType: "text/markdown", text: MARKDOWN },
    });
    const out = await ok(tools, "doc_read", { attachment_id: "att_1" });
    expect(seen).toEqual(["conv_1/att_1"]);
    const blocks = out.blocks as { locator: string; type: string; text: string }[];
    expect(blocks.map((b) => [b.locator, b.type])).toEqual([
      ["para:1", "heading"],
      ["para:2", "paragraph"],
      ["para:3", "heading"],
      ["para:4", "list"],
      ["table:1", "table"],
      ["para:5", "code"],
      ["para:6", "paragraph"],
    ]);
    expect(blocks[5]?.text).toContain("const x = 1;\n\n```");
    expect(out.truncated).toBe(false);
    const outline = await ok(tools, "doc_read", { attachment_id: "att_1", mode: "outline" });
    expect(outline.outline).toEqual([
      { locator: "para:1", level: 1, text: "Report" },
      { locator: "para:3", level: 2, text: "Findings" },
    ]);
    const from = await ok(tools, "doc_read", { attachment_id: "att_1", start: "table:1" });
    expect((from.blocks as { locator: string }[])[0]?.locator).toBe("table:1");
  });

  it("pages a long document with an explicit next_call that continues where it stopped", async () => {
    const text = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} ${"x".repeat(90)}`).join(
      "\n\n",
    );
    const { tools } = toolsWith({ long: { name: "long.txt", mediaType: "text/plain", text } });
    const first = await ok(tools, "doc_read", { attachment_id: "long", max_chars: 1000 });
    const firstBlocks = first.blocks as { locator: string }[];
    expect(firstBlocks.length).toBeLessThan(60);
    const truncated = first.truncated as {
      next_call: { tool: string; arguments: Record<string, unknown> };
    };
    expect(truncated.next_call.tool).toBe("doc_read");
    const second = await ok(tools, "doc_read", truncated.next_call.arguments);
    const secondBlocks = second.blocks as { locator: string }[];
    expect(secondBlocks[0]?.locator).toBe(`para:${firstBlocks.length + 1}`);
  });

  it("turns HTML into text blocks without the page chrome", async () => {
    const html =
      "<html><nav>Menu</nav><body><h1>Title</h1><p>Body &amp; more</p><script>evil()</script></body></html>";
    const { tools } = toolsWith({ h: { name: "page.html", mediaType: "text/html", text: html } });
    const out = await ok(tools, "doc_read", { attachment_id: "h" });
    const texts = (out.blocks as { text: string }[]).map((b) => b.text);
    expect(texts).toEqual(["Title", "Body & more"]);
  });

  it("says which formats it cannot read yet and what to use instead", async () => {
    const { tools } = toolsWith({
      pdf: { name: "paper.pdf", mediaType: "application/pdf", text: "%PDF-1.7" },
      docx: { name: "memo.docx", mediaType: "application/octet-stream", text: "PK" },
      csv: { name: "data.csv", mediaType: "text/csv", text: "a,b" },
    });
    const pdf = await fails(tools, "doc_read", { attachment_id: "pdf" });
    expect(pdf.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(pdf.message).toMatch(/cannot read paper.pdf \(PDF\) yet.*text, Markdown and HTML/);
    expect((await fails(tools, "doc_read", { attachment_id: "docx" })).message).toMatch(/DOCX/);
    expect((await fails(tools, "doc_read", { attachment_id: "csv" })).message).toMatch(
      /sheet_read/,
    );
  });

  it("refuses unknown ids, bad locators and attachments over the size cap", async () => {
    const { tools } = toolsWith({
      t: { name: "t.txt", mediaType: "text/plain", text: "hello" },
      big: {
        name: "big.txt",
        mediaType: "text/plain",
        bytes: new Uint8Array(ATTACHMENT_MAX_BYTES + 1),
      },
    });
    expect((await fails(tools, "doc_read", { attachment_id: "nope" })).code).toBe("NOT_FOUND");
    expect(
      (await fails(tools, "doc_read", { attachment_id: "t", start: "para:9" })).message,
    ).toMatch(/has 1 blocks/);
    expect((await fails(tools, "doc_read", { attachment_id: "t", start: "page:1" })).code).toBe(
      "INVALID_ARGUMENT",
    );
    expect((await fails(tools, "doc_read", { attachment_id: "big" })).code).toBe("TOO_LARGE");
  });
});

describe("sheet_read", () => {
  const CSV =
    'name,amount,paid,due\n"Smith, J",12.5,true,2026-01-31\n"say ""hi""",-3,FALSE,\n"multi\nline",1e3,x,2026-02-01T10:00:00Z\n';

  it("reads CSV as typed cells with an A1 range", async () => {
    const { tools } = toolsWith({ s: { name: "bills.csv", mediaType: "text/csv", text: CSV } });
    const out = await ok(tools, "sheet_read", { attachment_id: "s" });
    expect(out.workbook).toEqual({
      name: "bills.csv",
      sheets: [{ name: "Sheet1", rows: 4, columns: 4 }],
    });
    expect(out.range).toBe("Sheet1!A1:D4");
    const rows = out.rows as { row: number; cells: { v: unknown; t: string }[] }[];
    expect(rows[1]?.cells).toEqual([
      { v: "Smith, J", d: "Smith, J", t: "s" },
      { v: 12.5, d: "12.5", t: "n" },
      { v: true, d: "true", t: "b" },
      { v: "2026-01-31", d: "2026-01-31", t: "d" },
    ]);
    expect(rows[2]?.cells.map((c) => [c.v, c.t])).toEqual([
      ['say "hi"', "s"],
      [-3, "n"],
      [false, "b"],
      [null, "z"],
    ]);
    expect(rows[3]?.cells.map((c) => c.v)).toEqual([
      "multi\nline",
      1000,
      "x",
      "2026-02-01T10:00:00.000Z",
    ]);
    expect(out.truncated).toBe(false);
  });

  it("pages rows and caps columns, saying how to continue", async () => {
    const header = Array.from({ length: 8 }, (_, i) => `c${i}`).join("\t");
    const body = Array.from({ length: 25 }, (_, r) =>
      Array.from({ length: 8 }, (_, c) => r * 8 + c).join("\t"),
    );
    const { tools } = toolsWith({
      t: { name: "wide.tsv", mediaType: "", text: [header, ...body].join("\n") },
    });
    const first = await ok(tools, "sheet_read", {
      attachment_id: "t",
      max_rows: 10,
      max_columns: 3,
    });
    expect(first.range).toBe("Sheet1!A1:C10");
    const truncated = first.truncated as {
      rows_left: number;
      columns_left: number;
      next_call: { arguments: Record<string, unknown> };
    };
    expect(truncated).toMatchObject({ rows_left: 16, columns_left: 5 });
    expect(truncated.next_call.arguments).toMatchObject({ start_row: 11, max_rows: 10 });
    const second = await ok(tools, "sheet_read", truncated.next_call.arguments);
    expect(second.range).toBe("Sheet1!A11:C20");
    expect((second.rows as { cells: { v: unknown }[] }[])[0]?.cells[0]?.v).toBe(72);
  });

  it("cuts oversized cells and refuses workbooks it cannot read yet", async () => {
    const { tools } = toolsWith({
      s: {
        name: "s.csv",
        mediaType: "text/csv",
        text: `a\n${"y".repeat(SHEET_CELL_MAX_CHARS * 3)}\n`,
      },
      x: { name: "old.xls", mediaType: "application/vnd.ms-excel", text: "legacy" },
    });
    const out = await ok(tools, "sheet_read", { attachment_id: "s" });
    const cell = (out.rows as { cells: { d: string }[] }[])[1]?.cells[0];
    expect(cell?.d.length).toBe(SHEET_CELL_MAX_CHARS);
    const xls = await fails(tools, "sheet_read", { attachment_id: "x" });
    expect(xls.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(xls.message).toMatch(/XLS\) yet.*XLSX workbooks and CSV\/TSV/);
    expect(
      (await fails(tools, "sheet_read", { attachment_id: "s", sheet: "Data" })).message,
    ).toMatch(/one sheet/);
  });
});
