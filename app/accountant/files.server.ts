// Writes the accountant package's tables (app/accountant/workbook.ts) to disk: one XLSX workbook through exceljs's
// streaming writer (rows are written and let go as they come), and one CSV file per table with the Returns export's
// rules (UTF-8 with a BOM, `;` between fields, every field quoted and defused against formulas, dates and decimals as
// the package's language writes them: app/after-sale/returns-csv.ts). Amounts are exact decimal strings; the workbook
// stores them as numbers with two decimals (what a spreadsheet sums) and days as dates, the CSV as text.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import ExcelJS from "exceljs";
import { csvAmount, csvDate, csvField, type CsvOptions } from "../after-sale/returns-csv";
import type { Locale } from "../i18n/i18n";
import type { Cell, Table } from "./workbook";

const AMOUNT_FORMAT = "#,##0.00";
/** Excel's date formats: Turkish Excel shows 20.11.2026; an English workbook keeps the unambiguous ISO day. */
const DATE_FORMAT: Record<Locale, string> = { tr: "dd.mm.yyyy", en: "yyyy-mm-dd" };

/**
 * The workbook: one sheet per table, header row bold and frozen, amounts as numbers formatted to two decimals, days
 * as dates in the package's language.
 */
export async function writeWorkbook(path: string, tables: Table[], locale: Locale = "tr"): Promise<void> {
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
        if (typeof cell === "string") return;
        row.getCell(i + 1).numFmt = "amount" in cell ? AMOUNT_FORMAT : DATE_FORMAT[locale];
      });
      row.commit();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/**
 * A cell's value: text as it is; an amount as the number whose shortest decimal form is the amount's two-decimal
 * string (Number("1234.50") reads back as "1234.5", the same value to the kuruş); a day as midnight UTC of that day
 * (Excel's dates have no zone: exceljs writes a Date by its UTC day).
 */
function cellValue(cell: Cell): string | number | Date {
  if (typeof cell === "string") return cell;
  return "amount" in cell ? Number(cell.amount) : new Date(`${cell.date}T00:00:00Z`);
}

function csvText(cell: Cell, options: CsvOptions): string {
  if (typeof cell === "string") return cell;
  return "amount" in cell ? csvAmount(cell.amount, options.decimal) : csvDate(cell.date, options.locale);
}

/** The table as CSV, written line by line, with the package's dates and decimal separator. */
export async function writeCsv(path: string, table: Table, options: CsvOptions): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  try {
    await write("\uFEFF" + table.header.map(csvField).join(";") + "\r\n");
    for (const cells of table.rows)
      await write(cells.map((cell) => csvField(csvText(cell, options))).join(";") + "\r\n");
  } finally {
    out.end();
    await once(out, "close");
  }
}
