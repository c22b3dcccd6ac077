// A sheet cell as sheet_read returns it (L10153): `v` the typed value, `d` the text as shown,
// `t` the type: n number, b boolean, d date (ISO 8601), s string, z empty.

export interface Cell {
  v: string | number | boolean | null;
  d: string;
  t: "n" | "b" | "d" | "s" | "z";
}

export const EMPTY_CELL: Readonly<Cell> = Object.freeze({ v: null, d: "", t: "z" });

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A CSV field's type, guessed as a spreadsheet would on import. */
export function typedCell(text: string): Cell {
  const trimmed = text.trim();
  if (trimmed === "") return { v: null, d: text, t: "z" };
  if (NUMBER.test(trimmed)) return { v: Number(trimmed), d: text, t: "n" };
  if (/^(true|false)$/i.test(trimmed)) {
    return { v: trimmed.toLowerCase() === "true", d: text, t: "b" };
  }
  if (ISO_DATE.test(trimmed)) {
    const date = new Date(trimmed.replace(" ", "T"));
    if (!Number.isNaN(date.getTime())) {
      return { v: trimmed.length === 10 ? trimmed : date.toISOString(), d: text, t: "d" };
    }
  }
  return { v: text, d: text, t: "s" };
}
