// The Returns export for the accountant: CSV that Excel opens as it is (UTF-8 with a BOM, `;` between fields,
// every field quoted), dates as the export's language writes them (06.12.2026 in Turkish, 2026-12-06 in English) and
// amounts with a decimal comma (Excel set to Turkish) or point. The accountant package's CSV files follow the same
// rules (app/accountant/files.server.ts). Pure.
import { translateKey, type Locale } from "../i18n/i18n";
import { dateIn, TURKEY_ZONE } from "../orders/dates";
import type { ReturnRow } from "./returns.server";

export type CsvDecimal = "comma" | "point";

export interface CsvOptions {
  locale: Locale;
  /** "comma": 1234,50 (Turkish Excel); "point": 1234.50. */
  decimal: CsvDecimal;
  /** The shop's time zone: a refund's date is its day there (Turkey's by default). */
  zone?: string;
}

/** A CSV's decimal separator unless the merchant chose the other: a comma in Turkish (Excel set to Turkish). */
export function defaultDecimal(locale: Locale): CsvDecimal {
  return locale === "tr" ? "comma" : "point";
}

/** An exact two-decimal amount ("1249.90") with the chosen separator. */
export function csvAmount(value: string, decimal: CsvDecimal): string {
  return decimal === "comma" ? value.replace(".", ",") : value;
}

/** A day (YYYY-MM-DD) as the language writes it: 20.11.2026 in Turkish, 2026-11-20 in English; "" stays "". */
export function csvDate(day: string, locale: Locale): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return parts && locale === "tr" ? `${parts[3]}.${parts[2]}.${parts[1]}` : day;
}

const HEADERS: Record<Locale, string[]> = {
  tr: [
    "İade tarihi",
    "Sipariş",
    "Fatura no",
    "Fatura tarihi",
    "ETTN",
    "Belge",
    "Alıcı",
    "Alıcı VKN/TCKN",
    "Ürün",
    "Stok kodu",
    "Adet",
    "Ürün tutarı",
    "Ürün KDV",
    "İade edilen kargo",
    "İade toplamı",
    "Stoka alındı",
    "Yapılacak",
  ],
  en: [
    "Refund date",
    "Order",
    "Invoice number",
    "Invoice date",
    "ETTN",
    "Document",
    "Buyer",
    "Buyer tax number",
    "Item",
    "SKU",
    "Quantity",
    "Item amount",
    "Item VAT",
    "Shipping refunded",
    "Refund total",
    "Restocked",
    "What applies",
  ],
};

// Where a spreadsheet may start a cell inside a value: its start, and after a `,` or `;` (a file opened with the other
// separator, or one that ignores quotes, splits there), a tab or a line break. A cell is risky when, past blanks and
// quotes, it starts with = + - @, or when it starts with a tab or CR (OWASP's list). The blanks skipped are those that
// start no cell (not a tab or a line break): each character is then looked at from one cell start only, so the
// defusing stays linear in the text's length (skipping line breaks made a run of them quadratic: 20,000 took 0.7 s).
const CELL_START = /(^|[,;\t\r\n])(?=(?:[^\S\t\r\n]|")*[=+\-@]|[\t\r])/g;
const PLAIN_NUMBER = /^-?\d+([.,]\d+)?$/;

/**
 * A field as CSV text: always quoted, and every place a cell could start with a formula under either separator is
 * defused with a leading apostrophe (a plain number such as -12.50 is left as it is).
 */
export function csvField(value: string): string {
  const safe = PLAIN_NUMBER.test(value) ? value : value.replace(CELL_START, "$1'");
  return `"${safe.replace(/"/g, '""')}"`;
}

export function returnsCsv(rows: ReturnRow[], options: CsvOptions, pathText: (row: ReturnRow) => string): string {
  const amount = (v: string) => csvAmount(v, options.decimal);
  const day = (v: string | null) => (v ? csvDate(v, options.locale) : "");
  const yes = options.locale === "tr" ? "evet" : "yes";
  const no = options.locale === "tr" ? "hayır" : "no";
  const kind = (k: string | null) => (k === "e_invoice" ? "e-Fatura" : k === "e_archive" ? "e-Arşiv" : "");
  const lines = [HEADERS[options.locale]];
  for (const row of rows) {
    const base = [
      day(dateIn(row.refundedAt, options.zone ?? TURKEY_ZONE) ?? row.refundedAt.slice(0, 10)),
      row.orderName,
      row.serialNumber ?? "",
      day(row.issueDate),
      row.ettn ?? "",
      kind(row.documentKind),
      row.buyerName ?? "",
      row.buyerTaxNumber ?? "",
    ];
    const tail = [amount(row.shipping), amount(row.amount), row.restock ? yes : no, pathText(row)];
    if (row.lines.length === 0) lines.push([...base, "", "", "", "", "", ...tail]);
    for (const line of row.lines)
      lines.push([
        ...base,
        line.name,
        line.sku ?? "",
        String(line.quantity),
        amount(line.subtotal),
        amount(line.tax),
        ...tail,
      ]);
  }
  return "\uFEFF" + lines.map((fields) => fields.map(csvField).join(";")).join("\r\n") + "\r\n";
}

/** What applies to a refund, in words (the page's column and the export's last field). */
export function returnPathText(
  row: Pick<ReturnRow, "path">,
  locale: Locale,
  day: (ymd: string) => string = (d) => d,
): string {
  const path = row.path;
  // Stryker disable next-line StringLiteral: the fallback is for a key the catalogues lack; both have it (tr.ts is typed by en.ts keys).
  if (!path) return translateKey(locale, "returns.path.none", "");
  // Stryker disable next-line StringLiteral: as above.
  if (path.kind === "cancel") return translateKey(locale, "returns.path.cancel", "", { deadline: day(path.deadline) });
  return translateKey(locale, `returns.path.${path.kind}`, path.kind);
}
