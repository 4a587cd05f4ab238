// The Returns export for the accountant: CSV that Excel opens as it is (UTF-8 with a BOM, `;` between fields,
// every field quoted) and, as an option, amounts with a decimal comma (Excel set to Turkish). Pure.
import { translateKey, type Locale } from "../i18n/i18n";
import type { ReturnRow } from "./returns.server";

export interface CsvOptions {
  locale: Locale;
  /** "comma": 1234,50 (Turkish Excel); "point": 1234.50. */
  decimal: "comma" | "point";
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
  const amount = (v: string) => (options.decimal === "comma" ? v.replace(".", ",") : v);
  const yes = options.locale === "tr" ? "evet" : "yes";
  const no = options.locale === "tr" ? "hayır" : "no";
  const kind = (k: string | null) => (k === "e_invoice" ? "e-Fatura" : k === "e_archive" ? "e-Arşiv" : "");
  const lines = [HEADERS[options.locale]];
  for (const row of rows) {
    const base = [
      row.refundedAt.slice(0, 10),
      row.orderName,
      row.serialNumber ?? "",
      row.issueDate ?? "",
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
