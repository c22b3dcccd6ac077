// sheet_read (R96): a CSV or TSV attachment as typed cells `{v, d, t}` (value, displayed text,
// type: n number, b boolean, d date as ISO 8601, s string, z empty) with A1 locators like
// `Sheet1!A2:D18`. Rows come in pages under a row, a column and a character cap; a cut is always
// explicit (`truncated.next_call`). XLSX/XLS need a workbook parser the repo does not ship yet
// and get a clear "not supported yet" error.
import { z } from "zod";
import type { AgentTool } from "../../turns/types.js";
import { platformTool, PlatformToolError } from "../platform-tool.js";
import { attachmentKind, attachmentText, loadAttachment, notSupportedYet } from "./attachment.js";
import { columnName, parseDelimited } from "./csv.js";
import { ATTACHMENTS_FAMILY, type AttachmentToolsOptions } from "./doc-read.js";

export const SHEET_NAME = "Sheet1";
export const SHEET_DEFAULT_ROWS = 100;
export const SHEET_MAX_ROWS = 500;
export const SHEET_DEFAULT_COLUMNS = 50;
export const SHEET_MAX_COLUMNS = 200;
export const SHEET_CELL_MAX_CHARS = 2000;
/** Characters of cell text one answer carries before it stops at a row boundary. */
export const SHEET_MAX_ANSWER_CHARS = 60_000;

export interface Cell {
  v: string | number | boolean | null;
  d: string;
  t: "n" | "b" | "d" | "s" | "z";
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function typedCell(text: string): Cell {
  const trimmed = text.trim();
  if (trimmed === "") return { v: null, d: text, t: "z" };
  if (NUMBER.test(trimmed)) return { v: Number(trimmed), d: text, t: "n" };
  if (/^(true|false)$/i.test(trimmed))
    return { v: trimmed.toLowerCase() === "true", d: text, t: "b" };
  if (ISO_DATE.test(trimmed)) {
    const date = new Date(trimmed.replace(" ", "T"));
    if (!Number.isNaN(date.getTime())) {
      return { v: trimmed.length === 10 ? trimmed : date.toISOString(), d: text, t: "d" };
    }
  }
  return { v: text, d: text, t: "s" };
}

export function sheetReadTool(options: AttachmentToolsOptions): AgentTool {
  return platformTool({
    name: "sheet_read",
    family: ATTACHMENTS_FAMILY,
    description:
      "Read a spreadsheet attached to this conversation (CSV, TSV) as typed cells {v, d, t} with A1 " +
      `ranges like Sheet1!A2:D18. Pages of up to ${SHEET_MAX_ROWS} rows; a cut is explicit: call truncated.next_call to continue.`,
    input: z.object({
      attachment_id: z.string().min(1),
      sheet: z.string().optional(),
      start_row: z.int().min(1).default(1),
      max_rows: z.int().min(1).max(SHEET_MAX_ROWS).default(SHEET_DEFAULT_ROWS),
      max_columns: z.int().min(1).max(SHEET_MAX_COLUMNS).default(SHEET_DEFAULT_COLUMNS),
    }),
    async run(input, ctx) {
      const attachment = await loadAttachment(options.attachment, input.attachment_id, ctx);
      const kind = attachmentKind(attachment);
      if (kind !== "csv" && kind !== "tsv") {
        notSupportedYet(attachment, kind, "sheet_read", "CSV and TSV sheets");
      }
      if (input.sheet !== undefined && input.sheet !== SHEET_NAME) {
        throw new PlatformToolError(
          "INVALID_ARGUMENT",
          `${attachment.name} has one sheet, ${SHEET_NAME}; there is no sheet ${JSON.stringify(input.sheet)}`,
        );
      }
      const table = parseDelimited(attachmentText(attachment), {
        delimiter: kind === "tsv" ? "\t" : ",",
        maxRows: input.start_row - 1 + input.max_rows,
        maxFieldChars: SHEET_CELL_MAX_CHARS,
      });
      const workbook = {
        name: attachment.name,
        sheets: [{ name: SHEET_NAME, rows: table.totalRows, columns: table.columns }],
      };
      const width = Math.min(table.columns, input.max_columns);
      const rows: { row: number; cells: Cell[] }[] = [];
      let chars = 0;
      for (let r = input.start_row; r <= table.rows.length; r++) {
        const raw = table.rows[r - 1] as string[];
        const cells = Array.from({ length: width }, (_, c) => typedCell(raw[c] ?? ""));
        const size = cells.reduce((n, cell) => n + cell.d.length, 0);
        if (rows.length > 0 && chars + size > SHEET_MAX_ANSWER_CHARS) break;
        rows.push({ row: r, cells });
        chars += size;
      }
      const lastRow = rows.at(-1)?.row ?? input.start_row - 1;
      const range =
        rows.length === 0 || width === 0
          ? null
          : `${SHEET_NAME}!A${input.start_row}:${columnName(width - 1)}${lastRow}`;
      const rowsLeft = table.totalRows - lastRow;
      const columnsLeft = table.columns - width;
      return {
        workbook,
        sheet: SHEET_NAME,
        range,
        rows,
        truncated:
          rowsLeft <= 0 && columnsLeft <= 0
            ? false
            : {
                ...(rowsLeft > 0 ? { rows_left: rowsLeft } : {}),
                ...(columnsLeft > 0
                  ? {
                      columns_left: columnsLeft,
                      hint: `pass max_columns up to ${SHEET_MAX_COLUMNS}`,
                    }
                  : {}),
                ...(rowsLeft > 0
                  ? {
                      next_call: {
                        tool: "sheet_read",
                        arguments: {
                          attachment_id: input.attachment_id,
                          start_row: lastRow + 1,
                          max_rows: input.max_rows,
                          max_columns: input.max_columns,
                        },
                      },
                    }
                  : {}),
              },
      };
    },
  });
}
