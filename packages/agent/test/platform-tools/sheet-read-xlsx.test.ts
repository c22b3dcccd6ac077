import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { attachmentTools } from "../../src/platform-tools/attachments/attachment-tools.js";
import { serialToIso } from "../../src/platform-tools/attachments/xlsx.js";
import { fails, ok } from "./helpers.js";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const fixture = (name: string) => readFile(new URL(`../fixtures/sheets/${name}`, import.meta.url));

async function toolsFor(name: string, mediaType = XLSX) {
  const bytes = await fixture(name);
  return attachmentTools({
    attachment: (id) => Promise.resolve(id === "book" ? { name, mediaType, bytes } : undefined),
  });
}

type Rows = { row: number; cells: { v: unknown; d: string; t: string }[] }[];

describe("sheet_read on XLSX", () => {
  it("reads shared, rich and inline strings, numbers, booleans, dates and cached formula values", async () => {
    const tools = await toolsFor("budget.xlsx");
    const out = await ok(tools, "sheet_read", { attachment_id: "book" });
    expect(out.workbook).toEqual({
      name: "budget.xlsx",
      sheets: [{ name: "Budget & Plan", rows: 5, columns: 4 }, { name: "Notes" }],
    });
    expect(out.sheet).toBe("Budget & Plan");
    expect(out.range).toBe("Budget & Plan!A1:D5");
    const rows = out.rows as Rows;
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]?.cells.map((c) => c.v)).toEqual(["Item", "Amount", "Due", "Paid?"]);
    expect(rows[1]?.cells).toEqual([
      { v: "Rent <flat> ", d: "Rent <flat> ", t: "s" },
      { v: 1250.5, d: "1250.5", t: "n" },
      { v: "2026-01-01", d: "2026-01-01", t: "d" },
      { v: true, d: "TRUE", t: "b" },
    ]);
    expect(rows[2]?.cells.map((c) => [c.v, c.t])).toEqual([
      ["Bold food", "s"],
      [125.05, "n"],
      ["2026-01-02T12:00:00.000Z", "d"],
      [false, "b"],
    ]);
    // Row 4 is absent from the file: empty cells, not a shifted row.
    expect(rows[3]?.cells.every((c) => c.t === "z")).toBe(true);
    expect(rows[4]?.cells.map((c) => [c.v, c.t])).toEqual([
      ["Total", "s"],
      ["#DIV/0!", "s"],
      [null, "z"],
      [null, "z"],
    ]);
  });

  it("reads another sheet by name and pages with next_call naming the sheet", async () => {
    const tools = await toolsFor("budget.xlsx");
    const notes = await ok(tools, "sheet_read", { attachment_id: "book", sheet: "Notes" });
    expect(notes.range).toBe("Notes!A1:B1");
    expect((notes.rows as Rows)[0]?.cells.map((c) => c.v)).toEqual([null, "only B1"]);
    const page = await ok(tools, "sheet_read", { attachment_id: "book", max_rows: 2 });
    const next = (page.truncated as { next_call: { arguments: Record<string, unknown> } })
      .next_call;
    expect(next.arguments).toMatchObject({ sheet: "Budget & Plan", start_row: 3 });
    const rest = await ok(tools, "sheet_read", next.arguments);
    expect(rest.range).toBe("Budget & Plan!A3:D4");
    const missing = await fails(tools, "sheet_read", { attachment_id: "book", sheet: "Data" });
    expect(missing.message).toMatch(/its sheets are "Budget & Plan", "Notes"/);
  });

  it("refuses a zip bomb and a file that is not a workbook", async () => {
    const bomb = await fails(await toolsFor("bomb.xlsx"), "sheet_read", { attachment_id: "book" });
    expect(bomb.code).toBe("TOO_LARGE");
    expect(bomb.message).toMatch(/inflates past/);
    const bogus = attachmentTools({
      attachment: () =>
        Promise.resolve({ name: "fake.xlsx", mediaType: XLSX, bytes: Buffer.from("PK not a zip") }),
    });
    const error = await fails(bogus, "sheet_read", { attachment_id: "x" });
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(error.message).toMatch(/fake.xlsx is not a readable workbook/);
  });

  it("reads a part full of unclosed tags in linear time, as empty", async () => {
    const out = await ok(await toolsFor("unclosed.xlsx"), "sheet_read", { attachment_id: "book" });
    expect(out.workbook).toMatchObject({
      sheets: [{ name: "Budget & Plan", rows: 0, columns: 0 }, { name: "Notes" }],
    });
    expect(out.rows).toEqual([]);
  });

  it("converts Excel serial dates in both date systems", () => {
    expect(serialToIso(1, false)).toBe("1900-01-01");
    expect(serialToIso(61, false)).toBe("1900-03-01");
    expect(serialToIso(45658, false)).toBe("2025-01-01");
    expect(serialToIso(0, true)).toBe("1904-01-01");
  });
});
