// The accountant package's sheets and CSV files, pure (no I/O): the rows of every table, in Turkish or English, from
// the package's facts (content.ts). The files are written by app/accountant/files.server.ts; what goes in and why:
// docs/decisions/0038-accountant-package.md.
import { dec, money, ZERO, type Decimal } from "../invoicing-service/money";
import { dateIn } from "../orders/dates";
import type { Locale } from "../i18n/i18n";
import type { ReturnRow } from "../after-sale/returns.server";
import { csvDate } from "../after-sale/returns-csv";
import { type Cell, type PackageContent, type Table } from "./content";
import { TEXT, failureText } from "./texts";

// What the package's modules and tests take from here: the facts (content.ts) with the tables.
export * from "./content";

const kindText = (kind: string | null) => (kind === "e_invoice" ? "e-Fatura" : kind === "e_archive" ? "e-Arşiv" : "");
const amount = (value: Decimal): Cell => ({ amount: money(value) });
const day = (ymd: string | null | undefined): Cell => (ymd ? { date: ymd } : "");
const rateLabel = (rate: string) => `%${rate}`;

export function invoicesTable(content: PackageContent, locale: Locale): Table {
  const t = TEXT[locale];
  const header = [
    t.date,
    t.serial,
    t.ettn,
    t.kind,
    t.order,
    t.buyer,
    t.taxNumber,
    ...content.rates.flatMap((r) => [t.net(r), t.vat(r)]),
    t.exemptions,
    t.extraTax,
    t.total,
    t.currency,
    t.currencyRate,
    t.totalTry,
    t.daysLate,
    t.check,
  ];
  const rows = content.invoices.map((f): Cell[] => {
    const perRate = content.rates.flatMap((rate): Cell[] => {
      const a = f.rates.get(rate);
      return a ? [amount(a.net), amount(a.vat)] : ["", ""];
    });
    const exemptions = [...f.exemptions.entries()]
      .map(([code, e]) => `${code}${e.reason ? ` ${e.reason}` : ""}: ${money(e.net)}`)
      .join("; ");
    return [
      day(f.issueDate),
      f.serialNumber,
      f.ettn,
      kindText(f.kind),
      f.orderName,
      f.buyerRedacted ? t.buyerRedacted : f.buyer,
      f.taxNumber,
      ...perRate,
      exemptions,
      amount(f.extraTax),
      amount(f.total),
      f.currency,
      f.currencyRate,
      f.totalTry ? amount(f.totalTry) : "",
      f.daysLate > 0 ? String(f.daysLate) : "",
      f.serviceTotal ? t.serviceTotal(f.serviceTotal) : "",
    ];
  });
  return { sheet: t.invoices, file: t.invoicesFile, header, rows };
}

/** Per currency: a row per VAT rate, a row per exemption code, the currency's total; then TRY, returns and what is missing. */
export function summaryTable(content: PackageContent, locale: Locale): Table {
  const t = TEXT[locale];
  const header = [t.section, t.currency, t.rate, t.count, t.netPlain, t.vatPlain, t.extraTax, t.total];
  const rows: Cell[][] = [];
  // First of all: a package built before its period ended lacks the period's later invoices.
  if (content.builtBeforeEnd)
    rows.push([
      t.notOver(csvDate(content.builtBeforeEnd.builtOn, locale), csvDate(content.builtBeforeEnd.periodEnd, locale)),
      "",
      "",
      "",
      "",
      "",
      "",
      "",
    ]);
  for (const c of content.summary) {
    for (const r of c.rates)
      rows.push([
        t.perRate,
        c.currency,
        rateLabel(r.rate),
        String(r.invoices),
        amount(r.net),
        amount(r.vat),
        "",
        amount(r.net.add(r.vat)),
      ]);
    for (const e of c.exemptions)
      rows.push([
        `${t.exemption}: ${e.code}${e.reason ? ` ${e.reason}` : ""}`,
        c.currency,
        rateLabel("0"),
        "",
        amount(e.net),
        "",
        "",
        "",
      ]);
    rows.push([
      t.allRates,
      c.currency,
      "",
      String(c.invoices),
      amount(c.net),
      amount(c.vat),
      amount(c.extraTax),
      amount(c.total),
    ]);
  }
  const tryTotals = content.summary.map((c) => c.totalTry);
  if (content.summary.length > 1 && tryTotals.every((x) => x !== null)) {
    rows.push([
      t.tryAll,
      "TRY",
      "",
      String(content.invoices.length),
      "",
      "",
      "",
      amount(tryTotals.reduce<Decimal>((s, x) => s.add(x!), ZERO)),
    ]);
  }
  const refunds = new Map<string, { count: number; sum: Decimal }>();
  for (const r of content.returns) {
    const s = refunds.get(r.currency) ?? { count: 0, sum: ZERO };
    refunds.set(r.currency, { count: s.count + 1, sum: s.sum.add(dec(r.amount)) });
  }
  for (const [currency, s] of [...refunds.entries()].sort(([a], [b]) => a.localeCompare(b)))
    rows.push([t.returnsTotal, currency, "", String(s.count), "", "", "", amount(s.sum)]);
  const late = content.invoices.filter((f) => f.daysLate > 0).length;
  if (late) rows.push([t.lateCount, "", "", String(late), "", "", "", ""]);
  if (content.panel.length) rows.push([t.panelCount, "", "", String(content.panel.length), "", "", "", ""]);
  for (const u of content.unreadable)
    rows.push([`${t.unreadable}: ${u.serialNumber ?? u.orderName}`, "", "", "", "", "", "", ""]);
  for (const f of content.failures)
    rows.push([`${t.missingPdf}: ${f.serialNumber ?? f.orderName}`, "", "", "", "", "", "", ""]);
  return { sheet: t.summary, file: t.summaryFile, header, rows };
}

export function returnsTable(
  content: PackageContent,
  locale: Locale,
  zone: string,
  pathText: (row: ReturnRow) => string,
): Table {
  const t = TEXT[locale];
  const header = [
    t.refundDate,
    t.order,
    t.serial,
    t.invoiceDate,
    t.ettn,
    t.kind,
    t.buyer,
    t.taxNumber,
    t.item,
    t.sku,
    t.quantity,
    t.itemAmount,
    t.itemVat,
    t.shipping,
    t.refundTotal,
    t.currency,
    t.restocked,
    t.path,
  ];
  const rows: Cell[][] = [];
  for (const row of content.returns) {
    const base: Cell[] = [
      day(dateIn(row.refundedAt, zone) ?? row.refundedAt.slice(0, 10)),
      row.orderName,
      row.serialNumber ?? "",
      day(row.issueDate),
      row.ettn ?? "",
      kindText(row.documentKind),
      row.buyerName ?? "",
      row.buyerTaxNumber ?? "",
    ];
    const tail: Cell[] = [
      { amount: money(row.shipping) },
      { amount: money(row.amount) },
      row.currency,
      row.restock ? t.yes : t.no,
      pathText(row),
    ];
    if (row.lines.length === 0) rows.push([...base, "", "", "", "", "", ...tail]);
    for (const line of row.lines)
      rows.push([
        ...base,
        line.name,
        line.sku ?? "",
        String(line.quantity),
        { amount: money(line.subtotal) },
        { amount: money(line.tax) },
        ...tail,
      ]);
  }
  return { sheet: t.returns, file: t.returnsFile, header, rows };
}

export function failuresTable(content: PackageContent, locale: Locale): Table {
  const t = TEXT[locale];
  const header = [t.date, t.serial, t.ettn, t.order, t.reason, t.attempts];
  const rows: Cell[][] = [
    ...content.failures.map((f): Cell[] => [
      day(f.issueDate),
      f.serialNumber ?? "",
      f.ettn ?? "",
      f.orderName,
      failureText(f.reason, locale),
      String(f.attempts),
    ]),
    ...content.unreadable.map((u): Cell[] => [
      "",
      u.serialNumber ?? "",
      "",
      u.orderName,
      failureText(u.reason, locale),
      "",
    ]),
  ];
  return { sheet: t.failures, file: t.failuresFile, header, rows };
}

/** The invoices issued in the invoicing panel: serial and order, for the books (only when there is one). */
export function panelTable(content: PackageContent, locale: Locale): Table {
  const t = TEXT[locale];
  return {
    sheet: t.panel,
    file: t.panelFile,
    header: [t.recordedOn, t.serial, t.order, t.note],
    rows: content.panel.map((p): Cell[] => [day(p.recordedOn), p.serialNumber, p.orderName, p.note]),
  };
}

/** The text file that names every invoice whose PDF is missing (only written when there is one). */
export function failuresText(content: PackageContent, locale: Locale, period: { from: string; to: string }): string {
  const lines =
    locale === "tr"
      ? [
          `${csvDate(period.from, locale)} - ${csvDate(period.to, locale)} dönemi: ${content.failures.length} faturanın PDF'i bu pakette YOK.`,
          "Bu faturaları panelden ya da uygulamanın fatura sayfasından tek tek indirin.",
          "",
        ]
      : [
          `Period ${period.from} to ${period.to}: the PDFs of ${content.failures.length} invoices are NOT in this package.`,
          "Download them one by one from the panel or from the invoice's page in the app.",
          "",
        ];
  for (const f of content.failures)
    lines.push(
      `${csvDate(f.issueDate, locale)}\t${f.serialNumber ?? "-"}\t${f.ettn ?? "-"}\t${f.orderName}\t${failureText(f.reason, locale)}`,
    );
  return lines.join("\r\n") + "\r\n";
}

export function failuresTextName(locale: Locale): string {
  return locale === "tr" ? "EKSIK-PDF-LISTESI.txt" : "MISSING-PDFS.txt";
}

/** Every table of the package, in the workbook's order. */
export function packageTables(
  content: PackageContent,
  locale: Locale,
  zone: string,
  pathText: (row: ReturnRow) => string,
): Table[] {
  return [
    invoicesTable(content, locale),
    returnsTable(content, locale, zone, pathText),
    summaryTable(content, locale),
    failuresTable(content, locale),
    ...(content.panel.length ? [panelTable(content, locale)] : []),
  ];
}

/** The package's ZIP and workbook name: muhasebe-2026-11 (a whole month) or muhasebe-2026-11-03_2026-11-17. */
export function packageBaseName(from: string, to: string, locale: Locale): string {
  const prefix = locale === "tr" ? "muhasebe" : "accountant";
  const month = from.slice(0, 7);
  const wholeMonth = from.endsWith("-01") && to.slice(0, 7) === month && lastDayOfMonth(month) === to;
  return wholeMonth ? `${prefix}-${month}` : `${prefix}-${from}_${to}`;
}

export function lastDayOfMonth(month: string): string {
  const [year, m] = month.split("-").map(Number);
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${month}-${String(last).padStart(2, "0")}`;
}
