// An XLSX workbook's sheets as typed cells, from the parts that carry them: the workbook (sheet
// names, the 1904 date flag), its relationships (which part is which sheet), shared strings and
// the cell styles (which number formats are dates). SpreadsheetML is regular, machine-written
// XML, so a small linear scanner reads it (indexOf, never a backtracking pattern over a whole
// part: a hostile part of unclosed tags must not cost quadratic time). Nothing here evaluates
// formulas (the cached value is what Excel saved). Legacy binary XLS is not read.
import { PlatformToolError } from "../platform-tool.js";
import type { Cell } from "./sheet-cells.js";
import { zipMembers } from "./zip-members.js";

export const XLSX_MAX_ENTRIES = 2000;
export const XLSX_MAX_PART_BYTES = 64 * 1024 * 1024;
export const XLSX_MAX_TOTAL_BYTES = 160 * 1024 * 1024;

export interface XlsxSheet {
  name: string;
  /** Highest row number and column count that hold a cell. */
  rows: number;
  columns: number;
  /** Sparse rows by 1-based row number; each a sparse array of cells by 0-based column. */
  cells: Map<number, Cell[]>;
}

const ENTITY: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code =
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITY[name.toLowerCase()] ?? whole;
  });
}

/** Opening tags longer than this are skipped: no real SpreadsheetML tag comes near it. */
const MAX_TAG_CHARS = 4096;

interface Element {
  /** The opening tag's attributes, with a leading space. */
  attrs: string;
  body: string;
}

/**
 * Every `<name …>…</name>` or `<name …/>` in `xml`, in order, without nesting (the elements read
 * here never nest in themselves). Linear: each step searches forward only.
 */
function* elements(xml: string, name: string): Generator<Element> {
  const open = `<${name}`;
  const close = `</${name}>`;
  let i = 0;
  while ((i = xml.indexOf(open, i)) !== -1) {
    const after = xml[i + open.length];
    if (after !== " " && after !== ">" && after !== "/" && after !== "\n" && after !== "\t") {
      i += open.length;
      continue;
    }
    const tagEnd = xml.indexOf(">", i);
    if (tagEnd === -1) return;
    const selfClosing = xml[tagEnd - 1] === "/";
    const attrs = ` ${xml.slice(i + open.length, selfClosing ? tagEnd - 1 : tagEnd)}`;
    let next = tagEnd + 1;
    let body = "";
    if (!selfClosing) {
      const end = xml.indexOf(close, tagEnd);
      if (end === -1) return;
      body = xml.slice(tagEnd + 1, end);
      next = end + close.length;
    }
    i = next;
    if (attrs.length <= MAX_TAG_CHARS) yield { attrs, body };
  }
}

function first(xml: string, name: string): Element | undefined {
  for (const element of elements(xml, name)) return element;
  return undefined;
}

function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : unescapeXml(match[1]);
}

/** The text of every `<t>` in a string item (rich text runs concatenated, phonetic runs skipped). */
function itemText(xml: string): string {
  let out = "";
  // Phonetic runs (<rPh>) hold their own <t>; only the text runs and a plain <t> count.
  const runs =
    xml.includes("<r>") || xml.includes("<r ") ? [...elements(xml, "r")].map((r) => r.body) : [xml];
  for (const run of runs) {
    const t = first(run, "t");
    if (t !== undefined) out += unescapeXml(t.body);
  }
  return out;
}

function sharedStrings(xml: string | undefined): string[] {
  if (xml === undefined) return [];
  return [...elements(xml, "si")].map((si) => itemText(si.body));
}

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** For each cell style index, whether its number format shows a date or time. */
function dateStyles(xml: string | undefined): boolean[] {
  if (xml === undefined) return [];
  const custom = new Map<number, boolean>();
  for (const format of elements(xml, "numFmt")) {
    const id = Number(attr(format.attrs, "numFmtId"));
    // Quoted literals and [colour] sections are not date codes.
    const code = (attr(format.attrs, "formatCode") ?? "").replace(/"[^"]*"|\[[^\]]*\]/g, "");
    custom.set(id, /[ymdhs]/i.test(code));
  }
  const xfs = first(xml, "cellXfs")?.body ?? "";
  return [...elements(xfs, "xf")].map((xf) => {
    const id = Number(attr(xf.attrs, "numFmtId") ?? 0);
    return BUILTIN_DATE_FORMATS.has(id) || custom.get(id) === true;
  });
}

/** Excel's serial day number as ISO 8601 (a date, or a date-time when it has a time part). */
export function serialToIso(serial: number, date1904: boolean): string {
  // 1900 system: day 60 is the fictitious 1900-02-29, so serials after it are one day ahead.
  const days = date1904 ? serial + 1462 : serial < 60 ? serial + 1 : serial;
  const ms = Math.round((days - 25569) * 86_400_000);
  const iso = new Date(ms).toISOString();
  return Number.isInteger(serial) ? iso.slice(0, 10) : iso;
}

/** "AB12" → column 27 (0-based), row 12. */
function cellRef(ref: string): { column: number; row: number } | undefined {
  const m = /^([A-Z]{1,3})(\d+)$/.exec(ref);
  if (m === null) return undefined;
  let column = 0;
  for (const char of m[1] as string) column = column * 26 + (char.charCodeAt(0) - 64);
  return { column: column - 1, row: Number(m[2]) };
}

function cellValue(
  tag: string,
  body: string,
  strings: readonly string[],
  dates: readonly boolean[],
  date1904: boolean,
): Cell {
  const type = attr(tag, "t") ?? "n";
  const raw = first(body, "v")?.body;
  if (type === "inlineStr") {
    const text = itemText(first(body, "is")?.body ?? "");
    return { v: text, d: text, t: "s" };
  }
  if (raw === undefined) return { v: null, d: "", t: "z" };
  const value = unescapeXml(raw);
  switch (type) {
    case "s": {
      const text = strings[Number(value)] ?? "";
      return { v: text, d: text, t: "s" };
    }
    case "b":
      return { v: value === "1", d: value === "1" ? "TRUE" : "FALSE", t: "b" };
    case "str":
    case "e":
      return { v: value, d: value, t: "s" };
    default: {
      const number = Number(value);
      if (!Number.isFinite(number)) return { v: value, d: value, t: "s" };
      if (dates[Number(attr(tag, "s") ?? 0)] === true) {
        const iso = serialToIso(number, date1904);
        return { v: iso, d: iso, t: "d" };
      }
      return { v: number, d: value, t: "n" };
    }
  }
}

function parseSheet(
  name: string,
  xml: string,
  strings: readonly string[],
  dates: readonly boolean[],
  date1904: boolean,
  maxCellChars: number,
): XlsxSheet {
  const cells = new Map<number, Cell[]>();
  let rows = 0;
  let columns = 0;
  const data = first(xml, "sheetData")?.body ?? "";
  for (const c of elements(data, "c")) {
    const ref = cellRef(attr(c.attrs, "r") ?? "");
    if (ref === undefined) continue;
    const cell = cellValue(c.attrs, c.body, strings, dates, date1904);
    if (cell.t === "z") continue;
    if (cell.d.length > maxCellChars) {
      cell.d = cell.d.slice(0, maxCellChars);
      if (typeof cell.v === "string") cell.v = cell.d;
    }
    let row = cells.get(ref.row);
    if (row === undefined) cells.set(ref.row, (row = []));
    row[ref.column] = cell;
    rows = Math.max(rows, ref.row);
    columns = Math.max(columns, ref.column + 1);
  }
  return { name, rows, columns, cells };
}

function resolveTarget(target: string): string {
  const trimmed = target.replace(/^\/+/, "");
  return trimmed.startsWith("xl/") ? trimmed : `xl/${trimmed}`;
}

export interface XlsxWorkbook {
  sheetNames: string[];
  /** Parses one sheet (a workbook can hold many; only the one asked for is read). */
  sheet(name: string): XlsxSheet;
}

export async function readXlsx(
  bytes: Uint8Array,
  label: string,
  maxCellChars: number,
): Promise<XlsxWorkbook> {
  const parts = await zipMembers(
    bytes,
    label,
    {
      maxEntries: XLSX_MAX_ENTRIES,
      maxMemberBytes: XLSX_MAX_PART_BYTES,
      maxTotalBytes: XLSX_MAX_TOTAL_BYTES,
    },
    (name) => name.startsWith("xl/") && (name.endsWith(".xml") || name.endsWith(".rels")),
  );
  const text = (name: string) => parts.get(name)?.toString("utf8");
  const workbook = text("xl/workbook.xml");
  if (workbook === undefined) {
    throw new PlatformToolError(
      "INVALID_ARGUMENT",
      `${label} has no xl/workbook.xml; it is not an XLSX workbook`,
    );
  }
  const rels = new Map<string, string>();
  for (const rel of elements(text("xl/_rels/workbook.xml.rels") ?? "", "Relationship")) {
    const id = attr(rel.attrs, "Id");
    const target = attr(rel.attrs, "Target");
    if (id !== undefined && target !== undefined) rels.set(id, resolveTarget(target));
  }
  const sheets = [...elements(workbook, "sheet")].map((sheet) => ({
    name: attr(sheet.attrs, "name") ?? "",
    part: rels.get(attr(sheet.attrs, "r:id") ?? "") ?? "",
  }));
  const flag = attr(first(workbook, "workbookPr")?.attrs ?? "", "date1904");
  const date1904 = flag === "1" || flag === "true";
  const strings = sharedStrings(text("xl/sharedStrings.xml"));
  const dates = dateStyles(text("xl/styles.xml"));
  return {
    sheetNames: sheets.map((s) => s.name),
    sheet(name) {
      const found = sheets.find((s) => s.name === name);
      const xml = found === undefined ? undefined : text(found.part);
      if (xml === undefined) {
        throw new PlatformToolError(
          "INVALID_ARGUMENT",
          `${label} has no readable sheet ${JSON.stringify(name)}`,
        );
      }
      return parseSheet(name, xml, strings, dates, date1904, maxCellChars);
    },
  };
}
