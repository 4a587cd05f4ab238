// What of an order its invoice's recipient and taxes depend on: the buyer (customer, e-mail, phone, a B2B order's
// company and location), the billing and shipping addresses, the note attributes (tax number, T.C. number, tax office, company title from the cart)
// and the tax lines (the order's and each line's). orders/updated fires for every change of an order (tags, notes,
// fulfilments, the app's own write-back); only a change of these makes an invoice worth looking at again. Values
// are compared as text after normalising what the webhook's REST shape and the Admin API's read differ in (absent
// vs null vs "", 0.2 vs "0.20", ids as numbers or strings), so the same order read either way gives the same facts.
// Pure.
import { Decimal } from "../invoicing-service/money";

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => {
  if (value === null || value === undefined || typeof value === "object") return null;
  const trimmed = String(value).trim();
  return trimmed === "" ? null : trimmed;
};
const amount = (value: unknown): string | null => {
  const t = text(value);
  if (t === null) return null;
  try {
    return new Decimal(t).toFixed();
  } catch {
    return t;
  }
};
// Stryker disable next-line ArrayDeclaration: every list read here is filtered to objects next, so a stand-in of a string is dropped as the empty list is.
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const ADDRESS_FIELDS = [
  "first_name",
  "last_name",
  "company",
  "address1",
  "address2",
  "city",
  "province",
  "zip",
  "country_code",
  "phone",
] as const;

function address(value: unknown): Record<string, string | null> | null {
  if (!isObject(value)) return null;
  const fields = Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(value[field])]));
  return Object.values(fields).every((v) => v === null) ? null : fields;
}

const taxLines = (value: unknown) =>
  list(value)
    .filter(isObject)
    .map((line) => ({ title: text(line.title), rate: amount(line.rate), price: amount(line.price) }))
    .sort((a, b) => `${a.title}|${a.rate}|${a.price}`.localeCompare(`${b.title}|${b.rate}|${b.price}`));

/** The facts as one canonical text; equal texts mean nothing the recipient or the taxes depend on changed. */
export function buyerFacts(order: unknown): string {
  const o = isObject(order) ? order : {};
  const customer = isObject(o.customer) ? o.customer : null;
  const facts = {
    email: text(o.email)?.toLowerCase() ?? null,
    phone: text(o.phone),
    customer: customer
      ? {
          id: text(customer.id),
          first_name: text(customer.first_name),
          last_name: text(customer.last_name),
          email: text(customer.email)?.toLowerCase() ?? null,
          phone: text(customer.phone),
        }
      : null,
    billing: address(o.billing_address),
    shipping: address(o.shipping_address),
    notes: list(o.note_attributes)
      .filter(isObject)
      .map((attr) => [text(attr.name), text(attr.value)] as const)
      .filter(([name, value]) => name !== null && value !== null)
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
    taxes: taxLines(o.tax_lines),
    lineTaxes: list(o.line_items)
      .filter(isObject)
      .map((item) => [text(item.id), taxLines(item.tax_lines)] as const)
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
    taxesIncluded: typeof o.taxes_included === "boolean" ? o.taxes_included : null,
    // A B2B order bought for another company or location is invoiced to another buyer (./company.ts).
    company: isObject(o.company) ? { id: text(o.company.id), location: text(o.company.location_id) } : null,
  };
  return JSON.stringify(facts);
}

export const buyerFactsChanged = (before: unknown, after: unknown): boolean => buyerFacts(before) !== buyerFacts(after);
