// The accountant package's content, pure (no I/O): from the period's legal invoices (their request bodies as posted),
// the period's refunds and the PDFs that could not be read, the rows of every sheet and CSV file. Amounts are exact
// (decimal.js): per line the service's own rule (app/invoicing-service/totals.ts), summed per VAT rate, so that the summary's
// rows add up to the invoices' totals to the kuruş. Sheets and columns in Turkish or English.
// The files are written by app/accountant/files.server.ts; what goes in and why: docs/decisions/0038-accountant-package.md.
import { z } from "zod";
import { dec, money, round2, ZERO, type Decimal } from "../invoicing-service/money";
import { lineTotals } from "../invoicing-service/totals";
import { dateIn } from "../orders/dates";
import type { Locale } from "../i18n/i18n";
import type { ReturnRow } from "../after-sale/returns.server";
import { buyerRedacted as buyerRedactedIn } from "../invoicing-service/fiscal-record";
import { daysLate } from "../invoices/deadline";
import { csvDate } from "../after-sale/returns-csv";

/** One legal invoice of the period as the database holds it. */
export interface PackageInvoice {
  id: string;
  orderName: string;
  serialNumber: string | null;
  ettn: string | null;
  documentKind: string | null;
  remoteId: number;
  /** The body the invoice was (last) posted with (customers/redact takes the person out of it). */
  requestBody: unknown;
  /** Its fiscal facts, which no redaction touches (app/invoicing-service/fiscal-record.ts); absent on older rows. */
  fiscalRecord?: unknown;
  /** The service's totals of it (lines_total, tax_total, grand_total …), when read. */
  remoteTotals: unknown;
  /** The order's (or waybill's) date: the 7-day deadline counts from it. */
  orderCreatedAt?: Date;
}

/**
 * An invoice the merchant issued in the invoicing panel and recorded in the app (closed by hand with its serial): it
 * belongs in the books, but the app never had its amounts or PDF. `recordedOn`: the day it was recorded (shop's zone).
 */
export interface PanelInvoice {
  id: string;
  orderName: string;
  serialNumber: string;
  recordedOn: string;
  note: string;
}

/** A PDF the package lacks, and why. */
export interface PdfFailure {
  invoiceId: string;
  serialNumber: string | null;
  ettn: string | null;
  issueDate: string;
  orderName: string;
  reason: string;
  attempts: number;
}

/**
 * A cell: text; an exact amount (two decimals) that the workbook writes as a number and the CSV as text with the
 * package's decimal separator; or a day (YYYY-MM-DD) that the workbook writes as a date and the CSV as the package's
 * language writes dates.
 */
export type Cell = string | { amount: string } | { date: string };

export interface Table {
  /** Sheet name, and the CSV file's name without ".csv". */
  sheet: string;
  file: string;
  header: string[];
  rows: Cell[][];
}

const LineSchema = z
  .object({
    quantity: z.union([z.string(), z.number()]),
    unit_price: z.union([z.string(), z.number()]),
    tax_rate: z.union([z.string(), z.number()]),
    discount_type: z.enum(["amount", "percentage"]).nullish(),
    discount: z.union([z.string(), z.number()]).nullish(),
    exemption_code: z.union([z.string(), z.number()]).nullish(),
    exemption_reason: z.string().nullish(),
    extra_taxes: z
      .array(z.object({ tax_code: z.string().optional(), tax_rate: z.union([z.string(), z.number()]) }))
      .nullish(),
  })
  .loose();

const BodySchema = z
  .object({
    issue_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    currency: z.string().nullish(),
    currency_rate: z.union([z.string(), z.number()]).nullish(),
    lines: z.array(LineSchema).min(1),
    customer: z
      .object({
        title: z.string().nullish(),
        name: z.string().nullish(),
        surname: z.string().nullish(),
        tax_number: z.union([z.string(), z.number()]).nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();

/** The invoice's issue date (Y-m-d, as posted), or null when its body has none. */
export function issueDateOf(body: unknown): string | null {
  const date = (body as { issue_date?: unknown } | null)?.issue_date;
  return typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

export interface RateAmounts {
  net: Decimal;
  vat: Decimal;
}

export interface InvoiceFacts {
  id: string;
  issueDate: string;
  orderName: string;
  serialNumber: string;
  ettn: string;
  kind: "e_invoice" | "e_archive" | null;
  /** The buyer's title or name; empty when customers/redact erased a person (`buyerRedacted`). */
  buyer: string;
  taxNumber: string;
  /** The buyer was a person whose data the customer had erased: the package says so in the buyer's column. */
  buyerRedacted: boolean;
  currency: string;
  /** The exchange rate sent with the invoice (TRY per unit of `currency`); "1" for TRY. */
  currencyRate: string;
  /** Net and VAT per VAT rate ("0", "1", "10", "20" …), as the service computes each line. */
  rates: Map<string, RateAmounts>;
  /** Net of 0 % lines per exemption code, with its reason. */
  exemptions: Map<string, { reason: string; net: Decimal }>;
  /** Extra taxes (ÖTV and the like), when any line had them. */
  extraTax: Decimal;
  /** Σ net + VAT + extra tax of the lines: the invoice's grand total. */
  total: Decimal;
  /** The total in TRY: the total itself for TRY, else the total × the invoice's exchange rate, rounded to kuruş. */
  totalTry: Decimal | null;
  /** The service's own grand total, when it differs from the lines' (named in the summary, never hidden). */
  serviceTotal: string | null;
  /** Issued this many days after its 7-day deadline (0: in time; unknown order date: 0). */
  daysLate: number;
}

export type FactsResult =
  | { ok: true; facts: InvoiceFacts }
  | { ok: false; unreadable: { id: string; orderName: string; serialNumber: string | null; reason: string } };

/** What one invoice contributes, from the body it was posted with; `zone`: the shop's, for the deadline's day. */
export function invoiceFacts(invoice: PackageInvoice, zone = "Europe/Istanbul"): FactsResult {
  // The fiscal record first: it holds the lines and dates even after the buyer's data was erased from the body.
  const parsed = BodySchema.safeParse(invoice.fiscalRecord ?? invoice.requestBody);
  if (!parsed.success)
    return {
      ok: false,
      unreadable: {
        id: invoice.id,
        orderName: invoice.orderName,
        serialNumber: invoice.serialNumber,
        reason: "unreadable_body",
      },
    };
  const body = parsed.data;
  const rates = new Map<string, RateAmounts>();
  const exemptions = new Map<string, { reason: string; net: Decimal }>();
  let extraTax = ZERO;
  let total = ZERO;
  for (const line of body.lines) {
    const t = lineTotals(line);
    const rate = dec(line.tax_rate).toFixed();
    const sum = rates.get(rate) ?? { net: ZERO, vat: ZERO };
    rates.set(rate, { net: sum.net.add(t.net), vat: sum.vat.add(t.tax) });
    if (dec(line.tax_rate).isZero()) {
      const code = line.exemption_code == null || line.exemption_code === "" ? "-" : String(line.exemption_code);
      const known = exemptions.get(code);
      exemptions.set(code, {
        reason: known?.reason || (line.exemption_reason ?? ""),
        net: (known?.net ?? ZERO).add(t.net),
      });
    }
    extraTax = extraTax.add(t.extraTax);
    total = total.add(t.total);
  }
  const currency = (body.currency || "TRY").toUpperCase();
  const fx =
    currency === "TRY"
      ? dec(1)
      : body.currency_rate != null && body.currency_rate !== ""
        ? dec(body.currency_rate)
        : null;
  const posted = BodySchema.shape.customer.safeParse((invoice.requestBody as { customer?: unknown } | null)?.customer);
  const fiscalBuyer = (
    invoice.fiscalRecord as { buyer?: { type?: string; title?: string; tax_number?: string } } | null
  )?.buyer;
  const customer = (posted.success ? posted.data : null) ?? body.customer ?? {};
  const buyerRedacted = buyerRedactedIn(invoice.requestBody) && fiscalBuyer?.type !== "company";
  const buyer = buyerRedacted
    ? ""
    : customer.title?.trim() ||
      [customer.name, customer.surname].filter(Boolean).join(" ").trim() ||
      fiscalBuyer?.title?.trim() ||
      "";
  const taxNumber = buyerRedacted
    ? ""
    : customer.tax_number != null
      ? String(customer.tax_number)
      : (fiscalBuyer?.tax_number ?? "");
  const grand = (invoice.remoteTotals as { grand_total?: unknown } | null)?.grand_total;
  const serviceTotal =
    typeof grand === "string" && /^-?\d+(\.\d+)?$/.test(grand) && !dec(grand).eq(round2(total)) ? money(grand) : null;
  return {
    ok: true,
    facts: {
      id: invoice.id,
      issueDate: body.issue_date,
      orderName: invoice.orderName,
      serialNumber: invoice.serialNumber ?? "",
      ettn: invoice.ettn ?? "",
      kind: invoice.documentKind === "e_invoice" || invoice.documentKind === "e_archive" ? invoice.documentKind : null,
      buyer,
      taxNumber,
      buyerRedacted,
      currency,
      currencyRate: fx && fx.gt(0) ? fx.toFixed() : "",
      rates,
      exemptions,
      extraTax,
      total,
      totalTry: fx && fx.gt(0) ? round2(total.mul(fx)) : null,
      serviceTotal,
      daysLate: invoice.orderCreatedAt ? daysLate(invoice.orderCreatedAt, body.issue_date, zone) : 0,
    },
  };
}

export interface CurrencySummary {
  currency: string;
  invoices: number;
  rates: Array<{ rate: string; invoices: number; net: Decimal; vat: Decimal }>;
  exemptions: Array<{ code: string; reason: string; net: Decimal }>;
  net: Decimal;
  vat: Decimal;
  extraTax: Decimal;
  total: Decimal;
  totalTry: Decimal | null;
}

export interface PackageContent {
  invoices: InvoiceFacts[];
  /** Invoices whose stored body could not be read: named, never left out silently. */
  unreadable: Array<{ id: string; orderName: string; serialNumber: string | null; reason: string }>;
  /** VAT rates present in the period, ascending: one net and one VAT column each. */
  rates: string[];
  summary: CurrencySummary[];
  returns: ReturnRow[];
  failures: PdfFailure[];
  /** Invoices issued in the invoicing panel and recorded in the app, by the day they were recorded. */
  panel: PanelInvoice[];
  /** The period ends on or after the day the package was built: later invoices of the period are not in it. */
  builtBeforeEnd: { builtOn: string; periodEnd: string } | null;
}

/** What the package knows besides the invoices, returns and failures. */
export interface PackageExtras {
  panel?: PanelInvoice[];
  period?: { to: string; builtOn: string };
}

const byRate = (a: string, b: string) => dec(a).cmp(dec(b));

/** The package's content: each invoice's facts (by issue date and serial), the summary per currency and VAT rate. */
export function packageContent(
  invoices: PackageInvoice[],
  returns: ReturnRow[],
  failures: PdfFailure[],
  extras: PackageExtras = {},
): PackageContent {
  return contentOf(
    invoices.map((invoice) => invoiceFacts(invoice)),
    returns,
    failures,
    extras,
  );
}

/** The same from facts read page by page (the builder keeps the facts, never every stored body at once). */
export function contentOf(
  results: FactsResult[],
  returns: ReturnRow[],
  failures: PdfFailure[],
  extras: PackageExtras = {},
): PackageContent {
  const facts: InvoiceFacts[] = [];
  const unreadable: PackageContent["unreadable"] = [];
  for (const result of results) {
    if (result.ok) facts.push(result.facts);
    else unreadable.push(result.unreadable);
  }
  facts.sort(
    (a, b) =>
      a.issueDate.localeCompare(b.issueDate) ||
      a.serialNumber.localeCompare(b.serialNumber) ||
      a.id.localeCompare(b.id),
  );
  const rates = [...new Set(facts.flatMap((f) => [...f.rates.keys()]))].sort(byRate);
  const currencies = [...new Set(facts.map((f) => f.currency))].sort((a, b) =>
    a === "TRY" ? -1 : b === "TRY" ? 1 : a.localeCompare(b),
  );
  const summary = currencies.map((currency): CurrencySummary => {
    const mine = facts.filter((f) => f.currency === currency);
    const perRate = new Map<string, { invoices: number; net: Decimal; vat: Decimal }>();
    const exemptions = new Map<string, { reason: string; net: Decimal }>();
    for (const f of mine) {
      for (const [rate, amounts] of f.rates) {
        const sum = perRate.get(rate) ?? { invoices: 0, net: ZERO, vat: ZERO };
        perRate.set(rate, { invoices: sum.invoices + 1, net: sum.net.add(amounts.net), vat: sum.vat.add(amounts.vat) });
      }
      for (const [code, e] of f.exemptions) {
        const sum = exemptions.get(code);
        exemptions.set(code, { reason: sum?.reason || e.reason, net: (sum?.net ?? ZERO).add(e.net) });
      }
    }
    const rateRows = [...perRate.entries()].sort(([a], [b]) => byRate(a, b)).map(([rate, s]) => ({ rate, ...s }));
    const tryTotals = mine.map((f) => f.totalTry);
    return {
      currency,
      invoices: mine.length,
      rates: rateRows,
      exemptions: [...exemptions.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([code, e]) => ({ code, ...e })),
      net: rateRows.reduce((s, r) => s.add(r.net), ZERO),
      vat: rateRows.reduce((s, r) => s.add(r.vat), ZERO),
      extraTax: mine.reduce((s, f) => s.add(f.extraTax), ZERO),
      total: mine.reduce((s, f) => s.add(f.total), ZERO),
      totalTry: tryTotals.every((t) => t !== null) ? tryTotals.reduce<Decimal>((s, t) => s.add(t!), ZERO) : null,
    };
  });
  const panel = [...(extras.panel ?? [])].sort(
    (a, b) => a.recordedOn.localeCompare(b.recordedOn) || a.serialNumber.localeCompare(b.serialNumber),
  );
  const period = extras.period;
  return {
    invoices: facts,
    unreadable,
    rates,
    summary,
    returns,
    failures,
    panel,
    builtBeforeEnd: period && period.to >= period.builtOn ? { builtOn: period.builtOn, periodEnd: period.to } : null,
  };
}

// ---- Tables (sheets and CSV files)

const TEXT = {
  tr: {
    invoices: "Faturalar",
    invoicesFile: "faturalar",
    returns: "İadeler",
    returnsFile: "iadeler",
    summary: "Özet",
    summaryFile: "ozet",
    failures: "Eksik PDF",
    failuresFile: "eksik-pdf",
    panel: "Panelde kesilen",
    panelFile: "panelde-kesilen",
    recordedOn: "Uygulamaya kaydedildiği gün",
    note: "Not",
    panelCount: "Fatura panelinde kesilen (tutarları ve PDF'leri bu pakette yok)",
    daysLate: "Gecikme (gün)",
    lateCount: "7 günlük süreden sonra kesilen",
    notOver: (builtOn: string, end: string) =>
      `Dönem bitmeden hazırlandı (${builtOn}; dönem ${end} tarihinde bitiyor): sonraki faturalar bu pakette yok`,
    date: "Fatura tarihi",
    serial: "Fatura no",
    ettn: "ETTN",
    kind: "Belge",
    order: "Sipariş",
    buyer: "Alıcı",
    buyerRedacted: "Kişi (müşterinin isteğiyle kişisel verileri silindi)",
    taxNumber: "VKN/TCKN",
    net: (rate: string) => `Matrah %${rate}`,
    vat: (rate: string) => `KDV %${rate}`,
    netPlain: "Matrah",
    vatPlain: "KDV",
    exemptions: "İstisnalar",
    extraTax: "Diğer vergiler",
    total: "Toplam",
    currency: "Para birimi",
    currencyRate: "Kur",
    totalTry: "Toplam (TRY)",
    check: "Kontrol",
    serviceTotal: (total: string) => `Servisin toplamı ${total}: satırlardan hesaplanandan farklı`,
    section: "Bölüm",
    rate: "KDV oranı",
    count: "Fatura sayısı",
    perRate: "KDV oranına göre",
    exemption: "İstisna (%0 matrahının içinde)",
    allRates: "Toplam",
    tryAll: "Tüm faturalar (TRY karşılığı)",
    returnsTotal: "İadeler (bilgi; faturalardan düşülmez)",
    unreadable: "Okunamayan fatura (tutarları özette yok)",
    missingPdf: "PDF'i pakette olmayan fatura",
    reason: "Neden",
    attempts: "Deneme",
    refundDate: "İade tarihi",
    invoiceDate: "Fatura tarihi",
    item: "Ürün",
    sku: "Stok kodu",
    quantity: "Adet",
    itemAmount: "Ürün tutarı",
    itemVat: "Ürün KDV",
    shipping: "İade edilen kargo",
    refundTotal: "İade toplamı",
    restocked: "Stoka alındı",
    path: "Yapılacak",
    yes: "evet",
    no: "hayır",
  },
  en: {
    invoices: "Invoices",
    invoicesFile: "invoices",
    returns: "Returns",
    returnsFile: "returns",
    summary: "Summary",
    summaryFile: "summary",
    failures: "Missing PDFs",
    failuresFile: "missing-pdfs",
    panel: "Issued in the panel",
    panelFile: "issued-in-panel",
    recordedOn: "Recorded in the app on",
    note: "Note",
    panelCount: "Issued in the invoicing panel (their amounts and PDFs are not in this package)",
    daysLate: "Days late",
    lateCount: "Issued after the 7-day deadline",
    notOver: (builtOn: string, end: string) =>
      `Built before the period ended (on ${builtOn}; the period ends ${end}): later invoices are not in this package`,
    date: "Invoice date",
    serial: "Invoice number",
    ettn: "ETTN",
    kind: "Document",
    order: "Order",
    buyer: "Buyer",
    buyerRedacted: "A person (personal data erased at the customer's request)",
    taxNumber: "Tax number (VKN/TCKN)",
    net: (rate: string) => `Net ${rate} %`,
    vat: (rate: string) => `VAT ${rate} %`,
    netPlain: "Net",
    vatPlain: "VAT",
    exemptions: "Exemptions",
    extraTax: "Other taxes",
    total: "Total",
    currency: "Currency",
    currencyRate: "Exchange rate",
    totalTry: "Total (TRY)",
    check: "Check",
    serviceTotal: (total: string) => `The service's total ${total} differs from the lines' total`,
    section: "Section",
    rate: "VAT rate",
    count: "Invoices",
    perRate: "By VAT rate",
    exemption: "Exemption (within the 0 % net)",
    allRates: "Total",
    tryAll: "All invoices (TRY equivalent)",
    returnsTotal: "Returns (for information; not deducted from the invoices)",
    unreadable: "Invoice that could not be read (its amounts are not in the summary)",
    missingPdf: "Invoice whose PDF is not in the package",
    reason: "Reason",
    attempts: "Attempts",
    refundDate: "Refund date",
    invoiceDate: "Invoice date",
    item: "Item",
    sku: "SKU",
    quantity: "Quantity",
    itemAmount: "Item amount",
    itemVat: "Item VAT",
    shipping: "Shipping refunded",
    refundTotal: "Refund total",
    restocked: "Restocked",
    path: "What applies",
    yes: "yes",
    no: "no",
  },
} as const;

export const FAILURE_REASONS: Record<Locale, Record<string, string>> = {
  tr: {
    not_ready: "Servis bu faturanın PDF'ini vermedi (resmileşmemiş görünüyor)",
    authentication: "API anahtarı servis tarafından reddedildi",
    service: "Servis PDF'i veremedi (denemeler bitti)",
    not_pdf: "Servisin cevabı PDF değildi",
    unreadable_body: "Faturanın kayıtlı gövdesi okunamadı",
  },
  en: {
    not_ready: "The service gave no PDF for this invoice (it looks not formalised)",
    authentication: "The service refused the API key",
    service: "The service could not give the PDF (attempts spent)",
    not_pdf: "The service's answer was not a PDF",
    unreadable_body: "The invoice's stored body could not be read",
  },
};

export function failureText(reason: string, locale: Locale): string {
  return FAILURE_REASONS[locale][reason] ?? reason;
}

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
