// RFC 4180 CSV (and TSV) to rows of strings: quoted fields with doubled quotes and embedded
// newlines, CRLF or LF. Bounded: at most `maxRows` rows are kept (the rest only counted) and a
// field longer than `maxFieldChars` is cut, so a hostile file cannot make a huge answer.

export interface ParsedTable {
  rows: string[][];
  /** Rows in the file, including those past `maxRows`. */
  totalRows: number;
  /** Widest row. */
  columns: number;
}

export interface CsvOptions {
  delimiter: "," | "\t";
  maxRows: number;
  maxFieldChars: number;
}

export function parseDelimited(text: string, options: CsvOptions): ParsedTable {
  const { delimiter, maxRows, maxFieldChars } = options;
  const rows: string[][] = [];
  let totalRows = 0;
  let columns = 0;
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  const endField = () => {
    row.push(field.length > maxFieldChars ? field.slice(0, maxFieldChars) : field);
    field = "";
    fieldStarted = false;
  };
  const endRow = () => {
    endField();
    totalRows++;
    columns = Math.max(columns, row.length);
    if (rows.length < maxRows) rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          if (field.length <= maxFieldChars) field += '"';
          i++;
        } else quoted = false;
      } else if (field.length <= maxFieldChars) field += char;
      continue;
    }
    if (char === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (char === delimiter) endField();
    else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      endRow();
    } else {
      fieldStarted = true;
      if (field.length <= maxFieldChars) field += char;
    }
  }
  // A last line without a newline is a row; a trailing newline does not add an empty one.
  if (fieldStarted || field !== "" || row.length > 0) endRow();
  return { rows, totalRows, columns };
}

/** `0 → A`, `25 → Z`, `26 → AA`. */
export function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}
