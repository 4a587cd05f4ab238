// An issued invoice's fiscal facts apart from the personal data of its buyer (pure). A Turkish invoice stays in the
// merchant's books for years (VUK), whoever the buyer was, while customers/redact must erase what identifies a person.
// So an invoice keeps two things: the body it was posted with, from which customers/redact removes the person
// (redactedRequestBody), and its fiscal record (Invoice.fiscalRecord), which redaction never touches and the
// accountant package reads: dates, type, currency and rate, every line as posted, and the buyer only as far as it is
// a company (a company's title and tax number are not a person's data; a person is recorded as "a person").

export interface FiscalLine {
  name?: unknown;
  sku?: unknown;
  quantity: unknown;
  unit?: unknown;
  unit_price: unknown;
  tax_rate: unknown;
  discount_type?: unknown;
  discount?: unknown;
  exemption_code?: unknown;
  exemption_reason?: unknown;
  withholding_tax_code?: unknown;
  withholding_tax_reason?: unknown;
  extra_taxes?: unknown;
}

export type FiscalBuyer =
  { type: "company"; title?: string; tax_number?: string; tax_office?: string } | { type: "person" } | null;

export interface FiscalRecord {
  issue_date: string;
  issue_time?: string;
  type?: string;
  profile?: string;
  currency?: string;
  currency_rate?: unknown;
  order_id?: string;
  lines: FiscalLine[];
  buyer: FiscalBuyer;
}

const LINE_FIELDS = [
  "name",
  "sku",
  "quantity",
  "unit",
  "unit_price",
  "tax_rate",
  "discount_type",
  "discount",
  "exemption_code",
  "exemption_reason",
  "withholding_tax_code",
  "withholding_tax_reason",
  "extra_taxes",
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const pick = <K extends string>(source: Record<string, unknown>, keys: readonly K[]) =>
  Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));

/** The fiscal record of a body as posted, or null when the body is not an invoice's (none, or already erased). */
export function fiscalRecordOf(body: unknown): FiscalRecord | null {
  if (!isObject(body) || typeof body.issue_date !== "string" || !Array.isArray(body.lines) || body.lines.length === 0)
    return null;
  const customer = isObject(body.customer) ? body.customer : null;
  const buyer: FiscalBuyer = !customer
    ? null
    : customer.type === "company"
      ? {
          type: "company",
          ...(text(customer.title) ? { title: text(customer.title) } : {}),
          ...(customer.tax_number != null ? { tax_number: String(customer.tax_number) } : {}),
          ...(text(customer.tax_office) ? { tax_office: text(customer.tax_office) } : {}),
        }
      : { type: "person" };
  return {
    issue_date: body.issue_date,
    ...pick(body, ["issue_time", "type", "profile", "currency", "currency_rate", "order_id"] as const),
    lines: body.lines.filter(isObject).map((line) => pick(line, LINE_FIELDS) as unknown as FiscalLine),
    buyer,
  } as FiscalRecord;
}

/** Fields of a person that identify them; a company keeps its title, tax number, tax office and address. */
const PERSON_FIELDS = [
  "name",
  "surname",
  "tax_number",
  "address",
  "district",
  "city",
  "postcode",
  "phone",
  "email",
  "iban",
];
const CONTACT_FIELDS = ["phone", "email", "iban"];

/**
 * The posted body without the person: a person buyer keeps only its type and country, marked `redacted`; a company
 * buyer loses its contact details. Everything fiscal (dates, lines, totals, currency, type) stays, so the invoice
 * page, the returns list and the write-back still show the invoice's date and amounts.
 */
export function redactedRequestBody(body: unknown): unknown {
  if (!isObject(body)) return body;
  if (!isObject(body.customer)) return body;
  const customer = body.customer;
  const drop = customer.type === "company" ? CONTACT_FIELDS : PERSON_FIELDS;
  const kept = Object.fromEntries(Object.entries(customer).filter(([key]) => !drop.includes(key)));
  return { ...body, customer: { ...kept, redacted: true } };
}

/** Whether the body's buyer was erased by customers/redact (the package then says so instead of a name). */
export function buyerRedacted(body: unknown): boolean {
  if (!isObject(body)) return false;
  return body.redacted === true || (isObject(body.customer) && body.customer.redacted === true);
}
