// The accountant package's facts, pure (no I/O): from the period's legal invoices (their request bodies as posted),
// the period's refunds and the PDFs that could not be read, what the package holds, before any sheet is drawn.
// Amounts are exact (decimal.js): per line the service's own rule (app/invoicing-service/totals.ts), summed per VAT
// rate, so that the summary's rows add up to the invoices' totals to the kuruş. The sheets: workbook.ts.
import { z } from "zod";
import { dec, money, round2, ZERO, type Decimal } from "../invoicing-service/money";
import { lineTotals } from "../invoicing-service/totals";
import type { ReturnRow } from "../after-sale/returns.server";
import { buyerRedacted as buyerRedactedIn } from "../invoicing-service/fiscal-record";
import { daysLate } from "../invoices/deadline";

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
