// An invoice from a waybill ("İrsaliyeden fatura"), pure: the service's waybill → a form the merchant
// completes and corrects → the body of POST /api/waybills/{id}/invoice, or the fields to fix. The same
// rules as an order's invoice: VKN / T.C. check digits, a company needs its title and tax office, VAT rates
// of the service's list, a 0 % line needs an exemption code and its text, exact decimal amounts. No I/O.
import { InvoiceRequestSchema, isVatRate, type InvoiceRequest, type WaybillRecord } from "../invoicing-service/schemas";
import { computeTotals, type InvoiceTotals } from "../invoicing-service/totals";
import { Decimal } from "../invoicing-service/money";
import { isValidTckn, isValidVkn, ANONYMOUS_TAX_NUMBER } from "../orders/customer";
import { issueMoment, zoneOrTurkey, TURKEY_ZONE, localParts } from "../orders/dates";
import type { MappingSettings } from "../settings/schema";

export interface WaybillFormLine {
  /** The product id sent as lines[].id: the waybill line's seller_product_code, else its line id. */
  id: string;
  name: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  taxRate: string;
  exemptionCode: string;
  exemptionReason: string;
}

/** What the page shows and the merchant edits; every value a string as typed. */
export interface WaybillInvoiceForm {
  customer: {
    type: "company" | "person";
    taxNumber: string;
    title: string;
    name: string;
    surname: string;
    taxOffice: string;
    country: string;
    city: string;
    district: string;
    address: string;
    email: string;
  };
  lines: WaybillFormLine[];
  /** From the waybill: its document number and date go on the invoice. */
  waybillNumber: string;
  waybillDate: string;
  cashSale: boolean;
  paymentDate: string;
  dueDate: string;
  description: string;
}

/** Field path (e.g. "lines.0.quantity", "customer.taxNumber") → an error code with its parameters. */
export type FormErrors = Record<string, { code: string; params?: Record<string, string> }>;

/** The waybill facts the body needs besides the form (kept in the row's snapshot). */
export interface WaybillFacts {
  id: number;
  currency: string;
  currencyRate: string;
}

export interface WaybillBodyContext {
  waybill: WaybillFacts;
  settings: Pick<MappingSettings, "foreignBuyerTaxNumber">;
  saleChannelId: number;
  invoiceIntegrationId: number;
  /** The invoicing moment and the shop's zone: issue date and time, and "not after today". */
  now: Date;
  timezone: string;
  callbackUrl?: string;
}

export type WaybillBodyResult =
  | {
      ok: true;
      body: InvoiceRequest;
      totals: InvoiceTotals;
      customerName: string;
      warnings: Array<{ code: string; params?: Record<string, string> }>;
    }
  | { ok: false; errors: FormErrors };

/** Days after delivery within which an invoice must be issued (VUK art. 231/5, after-sale-facts.md). */
export const INVOICE_DUE_DAYS = 7;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * An amount as a Turkish merchant types it, as the plain decimal the service takes: "18,40" → "18.40",
 * "1.234,56" → "1234.56"; "18.40" and anything else stay as typed (the form refuses what is not a number).
 * Only characters move: the digits are kept exactly, no number is ever parsed into a float.
 */
export function decimalInput(typed: string): string {
  const value = typed.trim().replace(/\s/g, "");
  if (/^\d{1,3}(\.\d{3})+,\d+$/.test(value)) return value.replace(/\./g, "").replace(",", ".");
  if (/^\d+,\d+$/.test(value)) return value.replace(",", ".");
  return value;
}
const text = (value: unknown) =>
  typeof value === "string"
    ? value.replace(/\s+/g, " ").trim()
    : typeof value === "number" && Number.isFinite(value)
      ? String(value)
      : "";
const digits = (value: string) => value.replace(/[\s.\-/]/g, "");

/** A Y-m-d date, or "" for anything else (the service sends dates, some clients datetimes). */
function ymd(value: string | null | undefined): string {
  const head = (value ?? "").slice(0, 10);
  return DATE.test(head) && isRealDate(head) ? head : "";
}

function isRealDate(value: string): boolean {
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** "20.00" → "20"; anything that is not a decimal stays as it is, for the form to show and refuse. */
function plainDecimal(value: string | null | undefined): string {
  const raw = text(value);
  return DECIMAL.test(raw) ? new Decimal(raw).toFixed() : raw;
}

/** A price as merchants read it: at least two decimals ("18.40"), more when the waybill has them. */
function moneyText(value: string | null | undefined): string {
  const plain = plainDecimal(value);
  return DECIMAL.test(plain) && !/\.\d\d/.test(plain) ? new Decimal(plain).toFixed(2) : plain;
}

/** The form prefilled from the waybill: recipient from the `delivery` party, lines from the waybill lines. */
export function draftFromWaybill(
  waybill: WaybillRecord,
  settings: Pick<MappingSettings, "exemptionCode" | "exemptionReason">,
  today: string,
): WaybillInvoiceForm {
  const delivery = (waybill.parties ?? []).find((party) => text(party.role).toLowerCase() === "delivery");
  const number = digits(text(delivery?.identifier_number));
  const company = number.length === 10;
  // A person named only in the title: its last word is the surname, as on an order.
  const titleWords = text(delivery?.title).split(" ").filter(Boolean);
  const split = !company && !text(delivery?.name) && !text(delivery?.surname) && titleWords.length > 1;
  const name = split ? titleWords.slice(0, -1).join(" ") : text(delivery?.name);
  const surname = split ? titleWords[titleWords.length - 1] : text(delivery?.surname);
  return {
    customer: {
      type: company ? "company" : "person",
      taxNumber: number,
      title: text(delivery?.title) || [name, surname].filter(Boolean).join(" "),
      name,
      surname,
      taxOffice: text(delivery?.tax_office),
      country: text(delivery?.country),
      city: text(delivery?.city),
      district: text(delivery?.district),
      address: text(delivery?.address),
      email: "",
    },
    lines: (waybill.lines ?? []).map((line) => {
      const rate = plainDecimal(line.tax_rate);
      return {
        id: text(line.seller_product_code) || (line.id == null ? "" : String(line.id)),
        name: text(line.name),
        quantity: plainDecimal(line.quantity),
        unit: text(line.unit).toUpperCase(),
        unitPrice: moneyText(line.unit_price),
        taxRate: rate,
        exemptionCode: rate === "0" ? (settings.exemptionCode ?? "") : "",
        exemptionReason: rate === "0" ? (settings.exemptionReason ?? "") : "",
      };
    }),
    waybillNumber: text(waybill.document_number),
    waybillDate: ymd(waybill.issue_date),
    cashSale: true,
    paymentDate: today,
    dueDate: "",
    description: "",
  };
}

/** Reads an untrusted form (the browser's JSON) into the form's shape; unknown fields are dropped. */
export function readForm(input: unknown): WaybillInvoiceForm {
  const o = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const c = (o.customer && typeof o.customer === "object" ? o.customer : {}) as Record<string, unknown>;
  const lines = Array.isArray(o.lines) ? o.lines.slice(0, MAX_LINES + 1) : [];
  return {
    customer: {
      type: c.type === "company" ? "company" : "person",
      taxNumber: text(c.taxNumber),
      title: text(c.title),
      name: text(c.name),
      surname: text(c.surname),
      taxOffice: text(c.taxOffice),
      country: text(c.country),
      city: text(c.city),
      district: text(c.district),
      address: text(c.address),
      email: text(c.email),
    },
    lines: lines.map((raw) => {
      const l = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
      return {
        id: text(l.id),
        name: text(l.name),
        quantity: decimalInput(text(l.quantity)),
        unit: text(l.unit).toUpperCase(),
        unitPrice: decimalInput(text(l.unitPrice)),
        taxRate: text(l.taxRate),
        exemptionCode: text(l.exemptionCode),
        exemptionReason: text(l.exemptionReason),
      };
    }),
    waybillNumber: text(o.waybillNumber),
    waybillDate: text(o.waybillDate),
    cashSale: o.cashSale !== false,
    paymentDate: text(o.paymentDate),
    dueDate: text(o.dueDate),
    description: text(o.description),
  };
}

/** More lines than any waybill the form is meant for; a longer list is refused, not cut. */
export const MAX_LINES = 500;
const MAX_TEXT = 255;
const MAX_ADDRESS = 500;

/** The customer id sent with a waybill invoice: never equal to a Shopify customer id (a number) or a guest's. */
export const waybillCustomerId = (waybillId: number) => `waybill-${waybillId}`;

/** Checks the form and builds the request body. */
export function waybillInvoiceBody(form: WaybillInvoiceForm, context: WaybillBodyContext): WaybillBodyResult {
  const errors: FormErrors = {};
  const fail = (field: string, code: string, params?: Record<string, string>) => {
    errors[field] ??= params ? { code, params } : { code };
  };
  const zone = zoneOrTurkey(context.timezone);
  const issue = issueMoment(context.now, zone);
  const today = localParts(context.now.getTime(), TURKEY_ZONE).date;

  // Recipient
  const c = form.customer;
  const taxNumber = digits(c.taxNumber);
  const special = taxNumber === ANONYMOUS_TAX_NUMBER || taxNumber === context.settings.foreignBuyerTaxNumber;
  if (c.type === "company") {
    if (!(taxNumber.length === 10 && isValidVkn(taxNumber))) fail("customer.taxNumber", "vkn", { value: c.taxNumber });
    if (!c.title) fail("customer.title", "required");
    if (!c.taxOffice) fail("customer.taxOffice", "required");
  } else {
    if (!(special || (taxNumber.length === 11 && isValidTckn(taxNumber))))
      fail("customer.taxNumber", "tckn", { value: c.taxNumber });
    if (!c.name) fail("customer.name", "required");
    if (!c.surname) fail("customer.surname", "required");
  }
  for (const part of ["country", "city", "district", "address"] as const)
    if (!c[part]) fail(`customer.${part}`, "required");
  for (const part of [
    "title",
    "name",
    "surname",
    "taxOffice",
    "country",
    "city",
    "district",
    "address",
    "email",
  ] as const) {
    const max = part === "address" ? MAX_ADDRESS : MAX_TEXT;
    if (c[part].length > max) fail(`customer.${part}`, "too_long", { max: String(max) });
  }
  if (c.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(c.email)) fail("customer.email", "email");

  // Lines
  if (form.lines.length === 0) fail("lines", "lines_empty");
  if (form.lines.length > MAX_LINES) fail("lines", "lines_too_many", { max: String(MAX_LINES) });
  form.lines.slice(0, MAX_LINES).forEach((line, i) => {
    const at = (field: string) => `lines.${i}.${field}`;
    if (!line.id) fail(at("id"), "required");
    else if (line.id.length > 100) fail(at("id"), "too_long", { max: "100" });
    if (!line.name) fail(at("name"), "required");
    else if (line.name.length > MAX_TEXT) fail(at("name"), "too_long", { max: String(MAX_TEXT) });
    if (!DECIMAL.test(line.quantity) || new Decimal(line.quantity).lte(0)) fail(at("quantity"), "positive");
    if (!/^[A-Z0-9]{1,3}$/.test(line.unit)) fail(at("unit"), "unit");
    if (!DECIMAL.test(line.unitPrice)) fail(at("unitPrice"), "non_negative");
    if (!isVatRate(line.taxRate)) fail(at("taxRate"), "tax_rate", { rate: line.taxRate });
    if (line.taxRate === "0") {
      if (!/^\d{3}$/.test(line.exemptionCode)) fail(at("exemptionCode"), "exemption_code");
      if (!line.exemptionReason) fail(at("exemptionReason"), "exemption_pair");
      else if (line.exemptionReason.length > MAX_TEXT)
        fail(at("exemptionReason"), "too_long", { max: String(MAX_TEXT) });
    }
  });

  // Waybill and payment
  if (!form.waybillNumber) fail("waybillNumber", "required");
  // The spec: waybill_number is a numeric string; a strict service refuses a prefixed number ("IRS2026…").
  else if (!/^\d+$/.test(form.waybillNumber)) fail("waybillNumber", "waybill_number");
  if (!ymd(form.waybillDate)) fail("waybillDate", "date");
  else if (form.waybillDate > today) fail("waybillDate", "date_future");
  if (form.cashSale) {
    if (!ymd(form.paymentDate)) fail("paymentDate", "date");
    else if (form.paymentDate > today) fail("paymentDate", "date_future");
  }
  if (form.dueDate && !ymd(form.dueDate)) fail("dueDate", "date");
  if (form.description.length > 500) fail("description", "too_long", { max: "500" });
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const lines: InvoiceRequest["lines"] = form.lines.map((line) => ({
    id: line.id,
    name: line.name,
    quantity: new Decimal(line.quantity).toFixed(),
    unit: line.unit,
    unit_price: new Decimal(line.unitPrice).toFixed(),
    tax_rate: line.taxRate as InvoiceRequest["lines"][number]["tax_rate"],
    ...(line.taxRate === "0" ? { exemption_code: line.exemptionCode, exemption_reason: line.exemptionReason } : {}),
  }));
  // Every line exempt with a full exemption (3xx, e.g. exports): an exemption invoice.
  const exemptionInvoice = lines.every((line) => line.tax_rate === "0" && /^3\d\d$/.test(String(line.exemption_code)));
  const customerName = c.type === "company" ? c.title : `${c.name} ${c.surname}`;
  const body: InvoiceRequest = {
    type: exemptionInvoice ? "ISTISNA" : "SATIS",
    sale_channel_id: context.saleChannelId,
    invoice_integration_id: context.invoiceIntegrationId,
    currency: context.waybill.currency,
    currency_rate: context.waybill.currencyRate,
    issue_date: issue.date,
    issue_time: issue.time,
    waybill_number: form.waybillNumber,
    waybill_date: form.waybillDate,
    cash_sale: form.cashSale,
    ...(form.cashSale ? { payment_date: form.paymentDate } : {}),
    ...(form.dueDate ? { due_date: form.dueDate } : {}),
    ...(context.callbackUrl ? { callback_url: context.callbackUrl } : {}),
    ...(form.description ? { description: form.description } : {}),
    lines,
    is_internet_sale: false,
    is_need_shipment: false,
    customer: {
      id: waybillCustomerId(context.waybill.id),
      type: c.type,
      tax_number: taxNumber,
      ...(c.type === "company"
        ? { title: c.title, tax_office: c.taxOffice }
        : { title: customerName, name: c.name, surname: c.surname }),
      country: c.country,
      city: c.city,
      district: c.district,
      address: c.address,
      ...(c.email ? { email: c.email } : {}),
    },
  };
  // The service's own rules, as the client checks them before sending: a failure here is this module's bug.
  const checked = InvoiceRequestSchema.safeParse(body);
  if (!checked.success)
    return {
      ok: false,
      errors: { form: { code: "invalid", params: { detail: checked.error.issues[0]?.message ?? "" } } },
    };

  const warnings: Array<{ code: string; params?: Record<string, string> }> = [];
  if (isLate(form.waybillDate, issue.date))
    warnings.push({ code: "late", params: { date: form.waybillDate, days: String(INVOICE_DUE_DAYS) } });
  return { ok: true, body, totals: computeTotals(lines), customerName, warnings };
}

/** Whether an invoice issued on `issueDate` comes later than the legal days after the waybill's delivery date. */
export function isLate(waybillDate: string, issueDate: string): boolean {
  return Boolean(ymd(waybillDate)) && addDays(waybillDate, INVOICE_DUE_DAYS) < issueDate;
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
