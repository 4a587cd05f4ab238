// The invoicing service's body validation, as the local stand-in applies it to
// POST /api/invoices and POST /api/waybills/{id}/invoice.
//
// Source: docs/spec/invoicing-service.md (field tables, Errors table, Limits) and
// invoicing-service-facts.md (value sets). Each rule below is one small named function; `INVOICE_RULES`
// lists them all in the order they run. The answer is Laravel-shaped: `{ "lines.0.tax_rate": ["..."] }`,
// `{}` when the body is valid.
//
// Types are the spec's tables, no looser: a field typed "number" (quantity, unit_price, discount,
// currency_rate, the ids) must be a JSON number, a decimal string ("12.50") is "must be a number"; a field
// typed "string" (tax_rate, "one of 0, 1, 2, 8, 10, 18, 20") must be a JSON string. Accepted numbers are
// read exactly with decimal.js (app/invoicing-service/money.ts). Booleans must be JSON booleans.
import { DateTime } from "luxon";
import { dec, type Decimal } from "../app/invoicing-service/money";

export interface RulesContext {
  /** Sales channels of the calling account (team). */
  saleChannelIds: number[];
  /** Invoice integrations (accounts) of the calling account, the dummy one included. */
  invoiceIntegrationIds: number[];
  /** Today as `Y-m-d` in Europe/Istanbul (see todayInIstanbul). */
  today: string;
}

export type FieldErrors = Record<string, string[]>;

// ---------------------------------------------------------------------------------------------------------
// Value sets (facts file)

export const INVOICE_TYPES = [
  "SATIS",
  "IADE",
  "TEVKIFAT",
  "TEVKIFATIADE",
  "ISTISNA",
  "OZELMATRAH",
  "IHRACKAYITLI",
  "KONAKLAMAVERGISI",
] as const;
export const TAX_RATES = ["0", "1", "2", "8", "10", "18", "20"] as const;
export const DISCOUNT_TYPES = ["amount", "percentage"] as const;
export const CUSTOMER_TYPES = ["person", "company"] as const;
export const PAYMENT_METHODS = [
  "credit_or_debit",
  "direct_transfer",
  "cash_on_delivery",
  "payment_agent",
  "other",
] as const;

// ---------------------------------------------------------------------------------------------------------
// Small helpers

type Obj = Record<string, unknown>;

/** Collects Laravel-style errors: one key, a list of messages. */
class ErrorBag {
  readonly errors: FieldErrors = {};
  add(key: string, message: string): void {
    (this.errors[key] ??= []).push(message);
  }
  has(key: string): boolean {
    return key in this.errors;
  }
}

function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Laravel's "present and not empty": null, undefined, "" (after trim) and [] count as missing. */
export function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

const DECIMAL_STRING = /^-?(\d+(\.\d+)?|\.\d+)$/;

/** A JSON number or a plain decimal string, parsed exactly; null when it is neither. */
export function parseDecimal(value: unknown): Decimal | null {
  if (typeof value === "number") return Number.isFinite(value) ? dec(value) : null;
  if (typeof value === "string" && DECIMAL_STRING.test(value.trim())) return dec(value.trim());
  return null;
}

/** A JSON integer: what the spec's "number" ids (sale_channel_id, invoice_integration_id, customer_id) are. */
export function isJsonInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value);
}

/** An integer id: a JSON integer or a string of digits (reading stored or already validated values). */
export function parseId(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  if (typeof value === "string" && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** `Y-m-d` and a real calendar date. */
export function isDate(value: unknown): boolean {
  return (
    typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromFormat(value, "yyyy-MM-dd").isValid
  );
}

/** `H:i` (24-hour). */
export function isTime(value: unknown): boolean {
  return typeof value === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}

export function isUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Today's date (`Y-m-d`) in Turkey, where "issue_date must not be later than today" is judged. */
export function todayInIstanbul(now: Date): string {
  return DateTime.fromJSDate(now).setZone("Europe/Istanbul").toFormat("yyyy-MM-dd");
}

const msg = {
  required: (k: string) => `The ${k} field is required.`,
  requiredIf: (k: string, other: string, value: string) => `The ${k} field is required when ${other} is ${value}.`,
  requiredWithout: (k: string, other: string) => `The ${k} field is required when ${other} is not present.`,
  requiredWith: (k: string, other: string) => `The ${k} field is required when ${other} is present.`,
  string: (k: string) => `The ${k} field must be a string.`,
  boolean: (k: string) => `The ${k} field must be true or false.`,
  integer: (k: string) => `The ${k} field must be an integer.`,
  numeric: (k: string) => `The ${k} field must be a number.`,
  object: (k: string) => `The ${k} field must be an object.`,
  array: (k: string) => `The ${k} field must be an array.`,
  in: (k: string, values: readonly string[]) => `The ${k} field must be one of ${values.join(", ")}.`,
  date: (k: string) => `The ${k} field must match the format Y-m-d.`,
  time: (k: string) => `The ${k} field must match the format H:i.`,
  url: (k: string) => `The ${k} field must be a valid URL.`,
  max: (k: string, n: number) => `The ${k} field must not be greater than ${n} characters.`,
  gt: (k: string, n: number) => `The ${k} field must be greater than ${n}.`,
  gte: (k: string, n: number) => `The ${k} field must be greater than or equal to ${n}.`,
  lte: (k: string, n: number) => `The ${k} field must be less than or equal to ${n}.`,
  invalid: (k: string) => `The selected ${k} is invalid.`,
};

// Field checks shared by the rules. Each returns true when the value is acceptable (or absent, for optional ones).

function requireFilled(o: Obj, key: string, path: string, e: ErrorBag): boolean {
  if (isFilled(o[key])) return true;
  e.add(path, msg.required(path));
  return false;
}

function optionalString(o: Obj, key: string, path: string, e: ErrorBag, max?: number): void {
  const value = o[key];
  if (value === undefined || value === null) return;
  if (typeof value !== "string") return e.add(path, msg.string(path));
  if (max !== undefined && value.length > max) e.add(path, msg.max(path, max));
}

function requiredString(o: Obj, key: string, path: string, e: ErrorBag, max?: number): void {
  if (!requireFilled(o, key, path, e)) return;
  optionalString(o, key, path, e, max);
}

function optionalBoolean(o: Obj, key: string, path: string, e: ErrorBag): void {
  const value = o[key];
  if (value !== undefined && value !== null && typeof value !== "boolean") e.add(path, msg.boolean(path));
}

function optionalDate(o: Obj, key: string, path: string, e: ErrorBag): void {
  const value = o[key];
  if (value !== undefined && value !== null && value !== "" && !isDate(value)) e.add(path, msg.date(path));
}

/**
 * A field the spec types "number": a finite JSON number. `lenient` also takes a decimal string, for the
 * fields whose type the spec does not show (extra_taxes.*.tax_rate).
 */
function optionalDecimal(o: Obj, key: string, path: string, e: ErrorBag, lenient = false): Decimal | null {
  const value = o[key];
  if (value === undefined || value === null || value === "") return null;
  const parsed = typeof value === "number" || lenient ? parseDecimal(value) : null;
  if (parsed === null) e.add(path, msg.numeric(path));
  return parsed;
}

function requiredDecimal(o: Obj, key: string, path: string, e: ErrorBag, lenient = false): Decimal | null {
  if (!requireFilled(o, key, path, e)) return null;
  return optionalDecimal(o, key, path, e, lenient);
}

/** `true` only for a JSON `true` (Laravel's "accepted" values other than true are not sent by clients). */
const isTrue = (value: unknown) => value === true;

// ---------------------------------------------------------------------------------------------------------
// Header rules

type Rule = (body: Obj, ctx: RulesContext, e: ErrorBag) => void;

/** type: required, one of the known invoice types. */
export const typeIsKnown: Rule = (b, _c, e) => {
  if (!requireFilled(b, "type", "type", e)) return;
  if (!INVOICE_TYPES.includes(b.type as (typeof INVOICE_TYPES)[number])) e.add("type", msg.in("type", INVOICE_TYPES));
};

/** profile: optional string (TEMELFATURA, TICARIFATURA, ...; the full list is not published). */
export const profileIsString: Rule = (b, _c, e) => optionalString(b, "profile", "profile", e);

/** invoice_integration_id: required (unless workflow_status is predraft), an integration of this account. */
export const invoiceIntegrationBelongsToAccount: Rule = (b, c, e) => {
  const key = "invoice_integration_id";
  if (!isFilled(b[key])) {
    if (b.workflow_status !== "predraft") e.add(key, msg.required(key));
    return;
  }
  const id = b[key];
  if (!isJsonInteger(id)) return e.add(key, msg.integer(key));
  if (!c.invoiceIntegrationIds.includes(id)) e.add(key, msg.invalid(key));
};

/** sale_channel_id: required, a sales channel of this account (another account's channel is rejected). */
export const saleChannelBelongsToAccount: Rule = (b, c, e) => {
  const key = "sale_channel_id";
  if (!requireFilled(b, key, key, e)) return;
  const id = b[key];
  if (!isJsonInteger(id)) return e.add(key, msg.integer(key));
  if (!c.saleChannelIds.includes(id)) e.add(key, msg.invalid(key));
};

/** order_id and order_d_id: optional strings. */
export const orderIdsAreStrings: Rule = (b, _c, e) => {
  optionalString(b, "order_id", "order_id", e, 255);
  optionalString(b, "order_d_id", "order_d_id", e, 255);
};

/** order_created_at: required when order_id is present; `Y-m-d`. */
export const orderCreatedAtWithOrderId: Rule = (b, _c, e) => {
  if (isFilled(b.order_id) && !isFilled(b.order_created_at))
    e.add("order_created_at", msg.requiredWith("order_created_at", "order_id"));
  optionalDate(b, "order_created_at", "order_created_at", e);
};

/** currency: optional three-letter ISO 4217 code; currency_rate: optional number greater than 0. */
export const currencyIsCode: Rule = (b, _c, e) => {
  const value = b.currency;
  if (value !== undefined && value !== null && (typeof value !== "string" || !/^[A-Z]{3}$/.test(value))) {
    e.add("currency", "The currency field must be a 3-letter ISO 4217 currency code.");
  }
  const rate = optionalDecimal(b, "currency_rate", "currency_rate", e);
  if (rate !== null && !rate.gt(0)) e.add("currency_rate", msg.gt("currency_rate", 0));
};

/** issue_date: required, `Y-m-d`, not later than today (Istanbul). */
export const issueDateNotInFuture: Rule = (b, c, e) => {
  if (!requireFilled(b, "issue_date", "issue_date", e)) return;
  if (!isDate(b.issue_date)) return e.add("issue_date", msg.date("issue_date"));
  if ((b.issue_date as string) > c.today)
    e.add("issue_date", `The issue_date field must be a date before or equal to today.`);
};

/** issue_time: required, `H:i`. */
export const issueTimeFormat: Rule = (b, _c, e) => {
  if (!requireFilled(b, "issue_time", "issue_time", e)) return;
  if (!isTime(b.issue_time)) e.add("issue_time", msg.time("issue_time"));
};

/** waybill_number: optional numeric string; waybill_date: optional `Y-m-d`. */
export const waybillFields: Rule = (b, _c, e) => {
  const value = b.waybill_number;
  if (value !== undefined && value !== null && (typeof value !== "string" || !/^\d+$/.test(value))) {
    e.add("waybill_number", "The waybill_number field must be a numeric string.");
  }
  optionalDate(b, "waybill_date", "waybill_date", e);
};

/** cash_sale: required boolean. */
export const cashSaleIsBoolean: Rule = (b, _c, e) => {
  if (b.cash_sale === undefined || b.cash_sale === null) return e.add("cash_sale", msg.required("cash_sale"));
  optionalBoolean(b, "cash_sale", "cash_sale", e);
};

/** payment_date: required when cash_sale is true; `Y-m-d`. */
export const paymentDateWhenCashSale: Rule = (b, _c, e) => {
  if (isTrue(b.cash_sale) && !isFilled(b.payment_date))
    e.add("payment_date", msg.requiredIf("payment_date", "cash_sale", "true"));
  optionalDate(b, "payment_date", "payment_date", e);
};

/** due_date: optional `Y-m-d`. */
export const dueDateFormat: Rule = (b, _c, e) => optionalDate(b, "due_date", "due_date", e);

/** callback_url: optional, a valid http(s) URL. */
export const callbackUrlIsUrl: Rule = (b, _c, e) => {
  const value = b.callback_url;
  if (value !== undefined && value !== null && !isUrl(value)) e.add("callback_url", msg.url("callback_url"));
};

/** description: optional string. */
export const descriptionIsString: Rule = (b, _c, e) => optionalString(b, "description", "description", e);

// ---------------------------------------------------------------------------------------------------------
// Lines

/** lines: required array with at least one element; each element is an object checked by LINE_RULES. */
export const linesPresent: Rule = (b, c, e) => {
  const lines = b.lines;
  if (lines === undefined || lines === null) return e.add("lines", msg.required("lines"));
  if (!Array.isArray(lines)) return e.add("lines", msg.array("lines"));
  if (lines.length < 1) return e.add("lines", "The lines field must have at least 1 items.");
  lines.forEach((line, i) => {
    const path = `lines.${i}`;
    if (!isObject(line)) return e.add(path, msg.object(path));
    for (const rule of LINE_RULES) rule(line, path, b, c, e);
  });
};

type LineRule = (line: Obj, path: string, body: Obj, ctx: RulesContext, e: ErrorBag) => void;

/** lines.*.id: required whenever sale_channel_id is sent; a number or a non-empty string. */
export const lineIdWithSaleChannel: LineRule = (l, p, b, _c, e) => {
  const key = `${p}.id`;
  if (isFilled(b.sale_channel_id) && !isFilled(l.id)) return e.add(key, msg.requiredWith(key, "sale_channel_id"));
  if (isFilled(l.id) && typeof l.id !== "string" && typeof l.id !== "number") e.add(key, msg.string(key));
};

/** lines.*.name: required string. */
export const lineName: LineRule = (l, p, _b, _c, e) => requiredString(l, "name", `${p}.name`, e);

/** lines.*.quantity: required number, greater than 0 (fractions allowed). */
export const lineQuantityPositive: LineRule = (l, p, _b, _c, e) => {
  const quantity = requiredDecimal(l, "quantity", `${p}.quantity`, e);
  if (quantity !== null && !quantity.gt(0)) e.add(`${p}.quantity`, msg.gt(`${p}.quantity`, 0));
};

/** lines.*.unit: required, a UN/ECE Recommendation 20 unit code (C62, KGM, ...): 1 to 3 capitals or digits. */
export const lineUnit: LineRule = (l, p, _b, _c, e) => {
  const key = `${p}.unit`;
  requiredString(l, "unit", key, e);
  if (typeof l.unit === "string" && isFilled(l.unit) && !/^[A-Z0-9]{1,3}$/.test(l.unit))
    e.add(key, `The ${key} field must be a UN/ECE unit code (for example C62).`);
};

/** lines.*.unit_price: required number, greater than or equal to 0. */
export const lineUnitPriceNotNegative: LineRule = (l, p, _b, _c, e) => {
  const price = requiredDecimal(l, "unit_price", `${p}.unit_price`, e);
  if (price !== null && price.lt(0)) e.add(`${p}.unit_price`, msg.gte(`${p}.unit_price`, 0));
};

/** lines.*.tax_rate: required string (the spec's type), one of 0, 1, 2, 8, 10, 18, 20. */
export const lineTaxRateAllowed: LineRule = (l, p, _b, _c, e) => {
  const key = `${p}.tax_rate`;
  if (!isFilled(l.tax_rate) && l.tax_rate !== 0) return e.add(key, msg.required(key));
  if (typeof l.tax_rate !== "string") return e.add(key, msg.string(key));
  if (!TAX_RATES.includes(l.tax_rate as (typeof TAX_RATES)[number])) e.add(key, msg.in(key, TAX_RATES));
};

/** lines.*.exemption_code and exemption_reason: required when tax_rate is 0. */
export const lineExemptionWhenZeroRate: LineRule = (l, p, _b, _c, e) => {
  const rate = parseDecimal(l.tax_rate);
  const zero = rate !== null && rate.isZero();
  if (zero && !isFilled(l.exemption_code)) {
    e.add(`${p}.exemption_code`, "An exemption code is required for products with VAT rate 0.");
  }
  if (zero && !isFilled(l.exemption_reason)) {
    e.add(
      `${p}.exemption_reason`,
      "An exemption reason is required for products with VAT rate 0 (the official text of the exemption code).",
    );
  }
  const code = l.exemption_code;
  if (code !== undefined && code !== null && typeof code !== "string" && typeof code !== "number")
    e.add(`${p}.exemption_code`, msg.string(`${p}.exemption_code`));
  optionalString(l, "exemption_reason", `${p}.exemption_reason`, e);
};

/** lines.*.discount_type: amount | percentage; discount: number >= 0, at most 100 for a percentage. */
export const lineDiscount: LineRule = (l, p, _b, _c, e) => {
  const type = l.discount_type;
  if (type !== undefined && type !== null && !DISCOUNT_TYPES.includes(type as (typeof DISCOUNT_TYPES)[number])) {
    e.add(`${p}.discount_type`, msg.in(`${p}.discount_type`, DISCOUNT_TYPES));
  }
  const discount = optionalDecimal(l, "discount", `${p}.discount`, e);
  if (discount === null) return;
  if (discount.lt(0)) e.add(`${p}.discount`, msg.gte(`${p}.discount`, 0));
  else if (type === "percentage" && discount.gt(100)) e.add(`${p}.discount`, msg.lte(`${p}.discount`, 100));
};

/** lines.*.sku, description, withholding_tax_code, withholding_tax_reason: optional strings. */
export const lineOptionalStrings: LineRule = (l, p, _b, _c, e) => {
  for (const key of ["sku", "description", "withholding_tax_code", "withholding_tax_reason"])
    optionalString(l, key, `${p}.${key}`, e);
};

/** lines.*.extra_taxes: optional array; each element has tax_code and a tax_rate >= 0. */
export const lineExtraTaxes: LineRule = (l, p, _b, _c, e) => {
  const extras = l.extra_taxes;
  if (extras === undefined || extras === null) return;
  if (!Array.isArray(extras)) return e.add(`${p}.extra_taxes`, msg.array(`${p}.extra_taxes`));
  extras.forEach((extra, j) => {
    const q = `${p}.extra_taxes.${j}`;
    if (!isObject(extra)) return e.add(q, msg.object(q));
    if (isFilled(extra.tax_code)) {
      if (typeof extra.tax_code !== "string" && typeof extra.tax_code !== "number")
        e.add(`${q}.tax_code`, msg.string(`${q}.tax_code`));
    } else e.add(`${q}.tax_code`, msg.required(`${q}.tax_code`));
    const rate = requiredDecimal(extra, "tax_rate", `${q}.tax_rate`, e, true);
    if (rate !== null && rate.lt(0)) e.add(`${q}.tax_rate`, msg.gte(`${q}.tax_rate`, 0));
  });
};

export const LINE_RULES: LineRule[] = [
  lineIdWithSaleChannel,
  lineName,
  lineQuantityPositive,
  lineUnit,
  lineUnitPriceNotNegative,
  lineTaxRateAllowed,
  lineExemptionWhenZeroRate,
  lineDiscount,
  lineOptionalStrings,
  lineExtraTaxes,
];

// ---------------------------------------------------------------------------------------------------------
// Recipient

/** customer_id or customer: a customer object is required when customer_id is not sent. */
export const customerOrCustomerId: Rule = (b, _c, e) => {
  if (isFilled(b.customer_id)) {
    if (!isJsonInteger(b.customer_id)) e.add("customer_id", msg.integer("customer_id"));
  } else if (!isFilled(b.customer)) {
    e.add("customer", msg.requiredWithout("customer", "customer_id"));
  }
  if (isFilled(b.customer) && !isObject(b.customer)) e.add("customer", msg.object("customer"));
};

/** customer.*: checked whenever a customer object is sent. */
export const customerFields: Rule = (b, _c, e) => {
  if (!isObject(b.customer)) return;
  for (const rule of CUSTOMER_RULES) rule(b.customer, e);
};

type CustomerRule = (customer: Obj, e: ErrorBag) => void;

/** customer.id: required, a number or a non-empty string (the client's own identifier). */
export const customerId: CustomerRule = (c, e) => {
  if (!requireFilled(c, "id", "customer.id", e)) return;
  if (typeof c.id !== "number" && typeof c.id !== "string") e.add("customer.id", msg.integer("customer.id"));
};

/** customer.type: required, person | company. */
export const customerType: CustomerRule = (c, e) => {
  if (!requireFilled(c, "type", "customer.type", e)) return;
  if (!CUSTOMER_TYPES.includes(c.type as (typeof CUSTOMER_TYPES)[number]))
    e.add("customer.type", msg.in("customer.type", CUSTOMER_TYPES));
};

/** customer.tax_number: required string of 10 (VKN) or 11 (TCKN) digits. */
export const customerTaxNumber: CustomerRule = (c, e) => {
  if (!requireFilled(c, "tax_number", "customer.tax_number", e)) return;
  if (typeof c.tax_number !== "string") return e.add("customer.tax_number", msg.string("customer.tax_number"));
  if (!/^\d{10,11}$/.test(c.tax_number))
    e.add("customer.tax_number", "The customer.tax_number field must be between 10 and 11 digits.");
};

/** customer.tax_office and customer.title: required for a company. */
export const customerCompanyFields: CustomerRule = (c, e) => {
  if (c.type === "company") {
    requiredString(c, "tax_office", "customer.tax_office", e);
    requiredString(c, "title", "customer.title", e);
  } else {
    optionalString(c, "tax_office", "customer.tax_office", e);
    optionalString(c, "title", "customer.title", e);
  }
};

/** customer.name and customer.surname: required for a person unless a title (name and surname) is given. */
export const customerPersonName: CustomerRule = (c, e) => {
  if (c.type === "person" && !isFilled(c.title)) {
    if (!isFilled(c.name)) e.add("customer.name", msg.requiredWithout("customer.name", "customer.title"));
    if (!isFilled(c.surname)) e.add("customer.surname", msg.requiredWithout("customer.surname", "customer.title"));
  }
  optionalString(c, "name", "customer.name", e);
  optionalString(c, "surname", "customer.surname", e);
};

/** customer.country, address, city, district: required strings. */
export const customerAddress: CustomerRule = (c, e) => {
  for (const key of ["country", "address", "city", "district"]) requiredString(c, key, `customer.${key}`, e);
};

/** customer.postcode, phone, email, iban: optional strings. */
export const customerOptionalStrings: CustomerRule = (c, e) => {
  for (const key of ["postcode", "phone", "email", "iban"]) optionalString(c, key, `customer.${key}`, e);
};

export const CUSTOMER_RULES: CustomerRule[] = [
  customerId,
  customerType,
  customerTaxNumber,
  customerCompanyFields,
  customerPersonName,
  customerAddress,
  customerOptionalStrings,
];

// ---------------------------------------------------------------------------------------------------------
// Internet sale and shipment

/** is_internet_sale: optional boolean; when true, internet_sale is required. */
export const internetSaleWhenFlagged: Rule = (b, _c, e) => {
  optionalBoolean(b, "is_internet_sale", "is_internet_sale", e);
  if (isTrue(b.is_internet_sale) && !isFilled(b.internet_sale))
    e.add("internet_sale", msg.requiredIf("internet_sale", "is_internet_sale", "true"));
};

/** internet_sale.*: web_address string, payment_method from the list, payment_platform <= 255, payment_date `Y-m-d`. */
export const internetSaleFields: Rule = (b, _c, e) => {
  const sale = b.internet_sale;
  if (sale === undefined || sale === null) return;
  if (!isObject(sale)) return e.add("internet_sale", msg.object("internet_sale"));
  optionalString(sale, "web_address", "internet_sale.web_address", e);
  const method = sale.payment_method;
  if (
    method !== undefined &&
    method !== null &&
    !PAYMENT_METHODS.includes(method as (typeof PAYMENT_METHODS)[number])
  ) {
    e.add("internet_sale.payment_method", msg.in("internet_sale.payment_method", PAYMENT_METHODS));
  }
  optionalString(sale, "payment_platform", "internet_sale.payment_platform", e, 255);
  optionalDate(sale, "payment_date", "internet_sale.payment_date", e);
};

/** is_need_shipment: optional boolean; when (and only when) true, shipment with delivery_date is required. */
export const shipmentWhenFlagged: Rule = (b, _c, e) => {
  optionalBoolean(b, "is_need_shipment", "is_need_shipment", e);
  if (!isTrue(b.is_need_shipment)) return;
  if (!isFilled(b.shipment)) return e.add("shipment", msg.requiredIf("shipment", "is_need_shipment", "true"));
  if (!isObject(b.shipment)) return e.add("shipment", msg.object("shipment"));
  const s = b.shipment;
  if (!isFilled(s.delivery_date))
    e.add("shipment.delivery_date", msg.requiredIf("shipment.delivery_date", "is_need_shipment", "true"));
  else optionalDate(s, "delivery_date", "shipment.delivery_date", e);
};

/**
 * shipment carrier: at least one complete pair, (company_title + company_tax_number) or
 * (courier_name + courier_tax_number); titles/names at most 255 characters, tax numbers at most 20.
 * Runs only when is_need_shipment is true.
 */
export const shipmentCarrierPair: Rule = (b, _c, e) => {
  if (!isTrue(b.is_need_shipment) || !isObject(b.shipment)) return;
  const s = b.shipment;
  const hasCompany = isFilled(s.company_title);
  const hasCourier = isFilled(s.courier_name);
  if (!hasCompany && !hasCourier) {
    e.add("shipment.company_title", msg.requiredWithout("shipment.company_title", "shipment.courier_name"));
    e.add("shipment.courier_name", msg.requiredWithout("shipment.courier_name", "shipment.company_title"));
  }
  if (hasCompany && !isFilled(s.company_tax_number))
    e.add("shipment.company_tax_number", msg.requiredWith("shipment.company_tax_number", "shipment.company_title"));
  if (hasCourier && !isFilled(s.courier_tax_number))
    e.add("shipment.courier_tax_number", msg.requiredWith("shipment.courier_tax_number", "shipment.courier_name"));
  optionalString(s, "company_title", "shipment.company_title", e, 255);
  optionalString(s, "company_tax_number", "shipment.company_tax_number", e, 20);
  optionalString(s, "courier_name", "shipment.courier_name", e, 255);
  optionalString(s, "courier_tax_number", "shipment.courier_tax_number", e, 20);
};

// ---------------------------------------------------------------------------------------------------------

/** Every rule of the invoice body, in order. */
export const INVOICE_RULES: Rule[] = [
  typeIsKnown,
  profileIsString,
  invoiceIntegrationBelongsToAccount,
  saleChannelBelongsToAccount,
  orderIdsAreStrings,
  orderCreatedAtWithOrderId,
  currencyIsCode,
  issueDateNotInFuture,
  issueTimeFormat,
  waybillFields,
  cashSaleIsBoolean,
  paymentDateWhenCashSale,
  dueDateFormat,
  callbackUrlIsUrl,
  descriptionIsString,
  linesPresent,
  customerOrCustomerId,
  customerFields,
  internetSaleWhenFlagged,
  internetSaleFields,
  shipmentWhenFlagged,
  shipmentCarrierPair,
];

/**
 * Validates an invoice request body like the service does. Returns Laravel-style field errors
 * (`{"lines.0.tax_rate": ["..."]}`), `{}` when the body is valid. A body that is not a JSON object is
 * treated as an empty object (every required field is reported).
 */
export function validateInvoiceBody(body: unknown, ctx: RulesContext): FieldErrors {
  const input = laravelInput(body);
  const b: Obj = isObject(input) ? input : {};
  const e = new ErrorBag();
  for (const rule of INVOICE_RULES) rule(b, ctx, e);
  return e.errors;
}

/**
 * What a Laravel controller sees of a JSON body: the global TrimStrings and ConvertEmptyStringsToNull
 * middleware trim every string and turn "" into null, at every depth. The sandbox validates and stores this.
 */
export function laravelInput(value: unknown): unknown {
  if (typeof value === "string") {
    const trimmed = value.trim();
    return trimmed === "" ? null : trimmed;
  }
  if (Array.isArray(value)) return value.map(laravelInput);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, laravelInput(v)]));
  return value;
}

/** The Laravel 422 message: the first error, plus "(and N more errors)". */
export function validationMessage(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  if (messages.length === 0) return "The given data was invalid.";
  const more = messages.length - 1;
  return more === 0 ? messages[0] : `${messages[0]} (and ${more} more error${more === 1 ? "" : "s"})`;
}
