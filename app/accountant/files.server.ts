// Writes the accountant package's tables (app/accountant/workbook.ts) to disk: one XLSX workbook through exceljs's
// streaming writer (rows are written and let go as they come), and one CSV file per table with the Returns export's
// rules (UTF-8 with a BOM, `;` between fields, every field quoted and defused against formulas: app/after-sale/returns-csv.ts).
// Amounts are exact decimal strings; the workbook stores them as numbers with two decimals (what a spreadsheet sums),
// the CSV as the strings themselves.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import ExcelJS from "exceljs";
import { csvField } from "../after-sale/returns-csv";
import type { Cell, Table } from "./workbook";

const AMOUNT_FORMAT = "#,##0.00";

/** The workbook: one sheet per table, header row bold and frozen, amounts as numbers formatted to two decimals. */
export async function writeWorkbook(path: string, tables: Table[]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
  workbook.creator = "e-Fatura for Shopify";
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.sheet, { views: [{ state: "frozen", ySplit: 1 }] });
    sheet.columns = table.header.map((header) => ({ header, width: Math.min(48, Math.max(10, header.length + 2)) }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for (const cells of table.rows) {
      const row = sheet.addRow(cells.map(cellValue));
      cells.forEach((cell, i) => {
        if (typeof cell !== "string") row.getCell(i + 1).numFmt = AMOUNT_FORMAT;
      });
      row.commit();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/**
 * A cell's value: text as it is; an amount as the number whose shortest decimal form is the amount's two-decimal
 * string (Number("1234.50") reads back as "1234.5", the same value to the kuruş).
 */
function cellValue(cell: Cell): string | number {
  return typeof cell === "string" ? cell : Number(cell.amount);
}

/** The table as CSV, written line by line. */
export async function writeCsv(path: string, table: Table): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  try {
    await write("\uFEFF" + table.header.map(csvField).join(";") + "\r\n");
    for (const cells of table.rows)
      await write(cells.map((cell) => csvField(typeof cell === "string" ? cell : cell.amount)).join(";") + "\r\n");
  } finally {
    out.end();
    await once(out, "close");
  }
}
