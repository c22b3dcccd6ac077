// sheet_read (R96): an XLSX workbook or a CSV/TSV attachment as typed cells `{v, d, t}`
// (sheet-cells.ts) with A1 locators like `Sheet1!A2:D18`: an overview of the sheets, then rows in
// pages under a row, a column and a character cap; a cut is always explicit
// (`truncated.next_call`). Legacy binary XLS gets a clear "not supported yet" error.
import { z } from "zod";
import type { ToolContext } from "../../turns/types.js";
import type { AgentTool } from "../../turns/types.js";
import { platformTool, PlatformToolError } from "../platform-tool.js";
import {
  type Attachment,
  attachmentKind,
  attachmentText,
  loadAttachment,
  notSupportedYet,
} from "./attachment.js";
import { columnName, parseDelimited } from "./csv.js";
import { type Cell, EMPTY_CELL, typedCell } from "./sheet-cells.js";
import { readXlsx } from "./xlsx.js";
import {
  ATTACHMENT_TOOL_TIMEOUT_MS,
  ATTACHMENTS_FAMILY,
  type AttachmentToolsOptions,
} from "./doc-read.js";

/** The one sheet of a CSV or TSV file. */
export const SHEET_NAME = "Sheet1";
export const SHEET_DEFAULT_ROWS = 100;
export const SHEET_MAX_ROWS = 500;
export const SHEET_DEFAULT_COLUMNS = 50;
export const SHEET_MAX_COLUMNS = 200;
export const SHEET_CELL_MAX_CHARS = 2000;
/** Characters of cell text one answer carries before it stops at a row boundary. */
export const SHEET_MAX_ANSWER_CHARS = 60_000;

/** One sheet ready to page through, and the overview of the workbook it is in. */
interface OpenSheet {
  /** Every sheet by name; only the one read has its size (sizing a sheet means parsing it). */
  overview: { name: string; rows?: number; columns?: number }[];
  name: string;
  rows: number;
  columns: number;
  /** `width` cells of 1-based row `row`. */
  cells(row: number, width: number): Cell[];
}

interface SheetRequest {
  sheet?: string | undefined;
  start_row: number;
  max_rows: number;
}

function openDelimited(attachment: Attachment, tab: boolean, request: SheetRequest): OpenSheet {
  if (request.sheet !== undefined && request.sheet !== SHEET_NAME) {
    throw new PlatformToolError(
      "INVALID_ARGUMENT",
      `${attachment.name} has one sheet, ${SHEET_NAME}; there is no sheet ${JSON.stringify(request.sheet)}`,
    );
  }
  const table = parseDelimited(attachmentText(attachment), {
    delimiter: tab ? "\t" : ",",
    maxRows: request.start_row - 1 + request.max_rows,
    maxFieldChars: SHEET_CELL_MAX_CHARS,
  });
  return {
    overview: [{ name: SHEET_NAME, rows: table.totalRows, columns: table.columns }],
    name: SHEET_NAME,
    rows: table.totalRows,
    columns: table.columns,
    cells: (row, width) => {
      const raw = table.rows[row - 1] ?? [];
      return Array.from({ length: width }, (_, c) => typedCell(raw[c] ?? ""));
    },
  };
}

async function openWorkbook(attachment: Attachment, request: SheetRequest): Promise<OpenSheet> {
  const book = await readXlsx(attachment.bytes, attachment.name, SHEET_CELL_MAX_CHARS);
  const name = request.sheet ?? book.sheetNames[0];
  if (name === undefined || !book.sheetNames.includes(name)) {
    throw new PlatformToolError(
      "INVALID_ARGUMENT",
      `${attachment.name} has no sheet ${JSON.stringify(name ?? "")}; its sheets are ${book.sheetNames.map((n) => JSON.stringify(n)).join(", ")}`,
    );
  }
  const sheet = book.sheet(name);
  return {
    overview: book.sheetNames.map((n) =>
      n === name ? { name: n, rows: sheet.rows, columns: sheet.columns } : { name: n },
    ),
    name,
    rows: sheet.rows,
    columns: sheet.columns,
    cells: (row, width) => {
      const raw = sheet.cells.get(row) ?? [];
      return Array.from({ length: width }, (_, c) => raw[c] ?? { ...EMPTY_CELL });
    },
  };
}

async function openSheet(attachment: Attachment, request: SheetRequest): Promise<OpenSheet> {
  const kind = attachmentKind(attachment);
  if (kind === "csv" || kind === "tsv") return openDelimited(attachment, kind === "tsv", request);
  if (kind === "xlsx") return openWorkbook(attachment, request);
  return notSupportedYet(attachment, kind, "sheet_read", "XLSX workbooks and CSV/TSV sheets");
}

export function sheetReadTool(options: AttachmentToolsOptions): AgentTool {
  return platformTool({
    name: "sheet_read",
    family: ATTACHMENTS_FAMILY,
    timeoutMs: ATTACHMENT_TOOL_TIMEOUT_MS,
    description:
      "Read a spreadsheet attached to this conversation (XLSX, CSV, TSV) as typed cells {v, d, t} with A1 " +
      `ranges like Sheet1!A2:D18. Pages of up to ${SHEET_MAX_ROWS} rows; a cut is explicit: call truncated.next_call to continue.`,
    input: z.object({
      attachment_id: z.string().min(1),
      sheet: z.string().optional().describe("The sheet's name; default the first"),
      start_row: z.int().min(1).default(1),
      max_rows: z.int().min(1).max(SHEET_MAX_ROWS).default(SHEET_DEFAULT_ROWS),
      max_columns: z.int().min(1).max(SHEET_MAX_COLUMNS).default(SHEET_DEFAULT_COLUMNS),
    }),
    run: (input, ctx) => readPage(options, input, ctx),
  });
}

async function readPage(
  options: AttachmentToolsOptions,
  input: SheetRequest & { attachment_id: string; max_columns: number },
  ctx: ToolContext,
) {
  const attachment = await loadAttachment(options.attachment, input.attachment_id, ctx);
  const sheet = await openSheet(attachment, input);
  const width = Math.min(sheet.columns, input.max_columns);
  const end = Math.min(sheet.rows, input.start_row - 1 + input.max_rows);
  const rows: { row: number; cells: Cell[] }[] = [];
  let chars = 0;
  for (let r = input.start_row; r <= end; r++) {
    const cells = sheet.cells(r, width);
    const size = cells.reduce((n, cell) => n + cell.d.length, 0);
    if (rows.length > 0 && chars + size > SHEET_MAX_ANSWER_CHARS) break;
    rows.push({ row: r, cells });
    chars += size;
  }
  const lastRow = rows.at(-1)?.row ?? input.start_row - 1;
  const range =
    rows.length === 0 || width === 0
      ? null
      : `${sheet.name}!A${input.start_row}:${columnName(width - 1)}${lastRow}`;
  const rowsLeft = sheet.rows - lastRow;
  const columnsLeft = sheet.columns - width;
  return {
    workbook: { name: attachment.name, sheets: sheet.overview },
    sheet: sheet.name,
    range,
    rows,
    truncated:
      rowsLeft <= 0 && columnsLeft <= 0
        ? false
        : {
            ...(rowsLeft > 0 ? { rows_left: rowsLeft } : {}),
            ...(columnsLeft > 0
              ? { columns_left: columnsLeft, hint: `pass max_columns up to ${SHEET_MAX_COLUMNS}` }
              : {}),
            ...(rowsLeft > 0
              ? {
                  next_call: {
                    tool: "sheet_read",
                    arguments: {
                      attachment_id: input.attachment_id,
                      sheet: sheet.name,
                      start_row: lastRow + 1,
                      max_rows: input.max_rows,
                      max_columns: input.max_columns,
                    },
                  },
                }
              : {}),
          },
  };
}
