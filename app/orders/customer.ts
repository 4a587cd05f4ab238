// The invoice's recipient: who (company, citizen, anonymous or foreign buyer) and where.
import type { ShopifyAddress, ShopifyOrder } from "./order";
import { problem, type Problem } from "../problems";
import type { MappingSettings } from "../settings/schema";
import { checkTaxId, normalizeTaxId } from "./tax-id";
import { clean, foldAll, foldName } from "./text";
import { ANONYMOUS_TAX_NUMBER } from "../invoicing-service/schemas";
import type { BuyerOverride } from "./buyer-override";
import type { PurchasingCompany } from "./company";

export { isValidTckn, isValidVkn } from "./tax-id";

export { ANONYMOUS_TAX_NUMBER };

export interface InvoiceCustomer {
  id: number | string;
  type: "person" | "company";
  tax_number: string;
  tax_office?: string;
  title: string;
  name?: string;
  surname?: string;
  country: string;
  address: string;
  city: string;
  district: string;
  postcode?: string;
  phone?: string;
  email?: string;
}

/**
 * The longest value the buyer may give in each note attribute the invoice reads: the cart block's own limits
 * (extensions/invoice-details, its inputs' maxlength; a test holds the two together), which the server enforces
 * too, since a cart attribute can be set by anyone without the block. A company title is also the service's
 * title field, at most 255 characters like its other titles.
 */
export const ATTRIBUTE_LIMITS = { taxNumber: 20, taxOffice: 100, companyTitle: 255 } as const;

// Characters no buyer types: unassigned, private-use and lone surrogate code points (controls and invisible
// characters are removed from every text later: app/invoicing-service/text.ts).
const NOT_TEXT = /[\p{Cn}\p{Co}\p{Cs}]/u;

/** The buyer's note attributes that are too long or hold what is not text: nothing is sent while any is. */
function attributeProblems(order: ShopifyOrder, settings: MappingSettings): Problem[] {
  const problems: Problem[] = [];
  const limits: Array<[string[], number]> = [
    [settings.taxNumberAttributes, ATTRIBUTE_LIMITS.taxNumber],
    [settings.citizenNumberAttributes, ATTRIBUTE_LIMITS.taxNumber],
    [settings.taxOfficeAttributes, ATTRIBUTE_LIMITS.taxOffice],
    [settings.companyTitleAttributes, ATTRIBUTE_LIMITS.companyTitle],
  ];
  for (const [names, max] of limits) {
    const found = attribute(order, names);
    if (!found) continue;
    if (found.value.length > max)
      problems.push(problem("customer.attribute_too_long", { source: found.name, length: found.value.length, max }));
    else if (NOT_TEXT.test(found.value)) problems.push(problem("customer.attribute_not_text", { source: found.name }));
  }
  return problems;
}

/** A note attribute's value and the name it carries in the order (that name is shown when the value is wrong). */
function attribute(order: ShopifyOrder, names: string[]): { value: string; name: string } | undefined {
  const wanted = foldAll(names, (n) => n);
  for (const attr of order.note_attributes ?? []) {
    if (wanted.includes(foldName(attr.name))) {
      const value = clean(attr.value === null || attr.value === undefined ? undefined : String(attr.value));
      if (value) return { value, name: attr.name };
    }
  }
  return undefined;
}

type Identity =
  | { kind: "company"; taxNumber: string }
  | { kind: "citizen"; taxNumber: string }
  | { kind: "anonymous" }
  | { kind: "invalid"; value: string; attribute?: string; company?: string };

/** The buyer's number: note attributes first, then a 10/11-digit number written into the billing company. */
function identity(order: ShopifyOrder, settings: MappingSettings): Identity {
  // `attribute` names the note attribute the value came from; none means the billing address's company.
  const candidates: Array<{ value: string; attribute?: string }> = [];
  for (const names of [settings.taxNumberAttributes, settings.citizenNumberAttributes]) {
    const found = attribute(order, names);
    if (found) candidates.push({ value: found.value, attribute: found.name });
  }
  if (settings.useBillingCompany) {
    const inCompany = clean(order.billing_address?.company)?.match(/(?<!\d)(\d{10}|\d{11})(?!\d)/);
    if (inCompany) candidates.push({ value: inCompany[1] });
  }
  const first = candidates[0];
  if (!first) return { kind: "anonymous" };
  if (normalizeTaxId(first.value) === ANONYMOUS_TAX_NUMBER) return { kind: "anonymous" };
  // Either kind is accepted from either field: buyers put a VKN into a citizen-number field and back.
  const check = checkTaxId(first.value);
  if (check.valid)
    return check.kind === "vkn"
      ? { kind: "company", taxNumber: check.value }
      : { kind: "citizen", taxNumber: check.value };
  return { kind: "invalid", value: first.value, attribute: first.attribute };
}

/**
 * A buyer abroad keeps a Turkish number they gave (a VKN or T.C. number with valid check digits: a taxpayer
 * the invoice must name). Anything else they typed into the tax-number fields is a foreign tax id: the
 * service's tax_number takes only Turkish numbers, so it goes on the invoice's note and the number is
 * `foreignBuyerTaxNumber`. Numbers in the billing company are not read: abroad they are registry numbers.
 */
function foreignIdentity(
  order: ShopifyOrder,
  settings: MappingSettings,
): Identity | { kind: "foreign"; taxId?: string } {
  const given = (attribute(order, settings.taxNumberAttributes) ?? attribute(order, settings.citizenNumberAttributes))
    ?.value;
  if (!given) return { kind: "foreign" };
  const value = normalizeTaxId(given);
  if (value === ANONYMOUS_TAX_NUMBER || value === settings.foreignBuyerTaxNumber) return { kind: "foreign" };
  const check = checkTaxId(given);
  if (check.valid)
    return check.kind === "vkn"
      ? { kind: "company", taxNumber: check.value }
      : { kind: "citizen", taxNumber: check.value };
  return foreignTaxId(given);
}

/** A foreign tax id for the invoice's note: printable characters only, bounded, since it is printed on a legal document. */
function foreignTaxId(given: string): { kind: "foreign"; taxId?: string } {
  const taxId = given
    .replace(/[^\p{L}\p{N} .\-/]/gu, "")
    .trim()
    .slice(0, 40);
  return taxId ? { kind: "foreign", taxId } : { kind: "foreign" };
}

/**
 * A B2B buyer's number is the company location's tax registration id: a VKN, or a sole trader's T.C. number (their
 * tax number too), so either makes a company. Abroad it is the company's own foreign tax id, for the note. A location
 * without one falls back to what the order's note attributes say.
 */
function companyIdentity(
  order: ShopifyOrder,
  settings: MappingSettings,
  company: PurchasingCompany,
  foreign: boolean,
): Identity | { kind: "foreign"; taxId?: string } {
  const given = company.taxRegistrationId;
  if (!given) return foreign ? foreignIdentity(order, settings) : identity(order, settings);
  const check = checkTaxId(given);
  if (check.valid) return { kind: "company", taxNumber: check.value };
  return foreign ? foreignTaxId(given) : { kind: "invalid", value: given, company: company.name };
}

function isForeign(order: ShopifyOrder): { foreign: boolean; country?: string } {
  const address = order.billing_address ?? order.shipping_address;
  const code = clean(address?.country_code)?.toUpperCase();
  if (code) return { foreign: code !== "TR", country: clean(address?.country) ?? code };
  return { foreign: false };
}

function splitName(full: string): { name: string; surname: string } {
  const parts = full.split(" ");
  if (parts.length === 1) return { name: full, surname: "" };
  return { name: parts.slice(0, -1).join(" "), surname: parts[parts.length - 1] };
}

/** First and last name: billing address, then the customer, then the shipping address. */
function personName(order: ShopifyOrder): { name: string; surname: string } | undefined {
  const sources = [order.billing_address, order.customer, order.shipping_address];
  for (const s of sources) {
    const first = clean(s?.first_name);
    const last = clean(s?.last_name);
    if (first || last) {
      if (first && last) return { name: first, surname: last };
      return splitName((first ?? last) as string);
    }
  }
  return undefined;
}

const PARTS = ["address", "district", "city", "country"] as const;
type Part = (typeof PARTS)[number];

function addressParts(a: ShopifyAddress | null | undefined): Partial<Record<Part, string>> & { postcode?: string } {
  if (!a) return {};
  const street = [clean(a.address1), clean(a.address2)].filter(Boolean).join(" ");
  const code = clean(a.country_code)?.toUpperCase();
  // Turkish addresses in Shopify: province = il (the service's city), city = ilçe (district).
  // Abroad there is often no province: the city is then both city and district.
  const turkish = !code || code === "TR";
  return {
    address: street || undefined,
    district: turkish ? clean(a.city) : (clean(a.province) ?? clean(a.city)),
    city: turkish ? clean(a.province) : clean(a.city),
    country: clean(a.country) ?? clean(a.country_code),
    postcode: clean(a.zip),
  };
}

export interface MappedCustomer {
  customer?: InvoiceCustomer;
  /** A foreign buyer's own tax id, for the invoice's note (see foreignIdentity). */
  foreignTaxId?: string;
  errors: Problem[];
  warnings: Problem[];
}

/** The identity the merchant set on the invoice page (./buyer-override.ts), over the order's. */
function overriddenIdentity(override: BuyerOverride): Identity {
  if (override.kind === "company") return { kind: "company", taxNumber: override.taxNumber };
  return override.taxNumber === ANONYMOUS_TAX_NUMBER
    ? { kind: "anonymous" }
    : { kind: "citizen", taxNumber: override.taxNumber };
}

/**
 * `exportTo`: the goods go abroad untaxed (abroad.ts), so the buyer is a buyer abroad whatever the billing country.
 * `override`: the buyer as the merchant set it (number, title or name, tax office); address and contact stay the order's.
 * `company`: a B2B order's company as Shopify holds it (./company.ts): its number, title, tax office and billing
 * address are the invoice's, over the order's; the merchant's override still comes first.
 */
export function mapCustomer(
  ordered: ShopifyOrder,
  settings: MappingSettings,
  exportTo?: { country: string } | null,
  override?: BuyerOverride | null,
  company?: PurchasingCompany | null,
): MappedCustomer {
  const b2b = override ? null : (company ?? null);
  // The company location's billing address is the invoice's: the order's may be the contact's own.
  const order: ShopifyOrder = b2b?.billingAddress ? { ...ordered, billing_address: b2b.billingAddress } : ordered;
  // The buyer set by hand replaces every attribute the buyer typed: theirs no longer stop the invoice.
  const errors: Problem[] = override ? [] : attributeProblems(order, settings);
  const warnings: Problem[] = [];
  // A value over its limit is not read further (its tax number is not checked, its title is not used).
  if (errors.length) return { errors, warnings };

  const billing = addressParts(order.billing_address);
  const shipping = addressParts(order.shipping_address);
  const address: Partial<Record<Part, string>> = {};
  const fromShipping: string[] = [];
  const fromDefaults: string[] = [];
  for (const part of PARTS) {
    // A street from one address and a district from another would describe no real place, but each part
    // is only filled where the billing address has nothing.
    if (billing[part]) address[part] = billing[part];
    else if (shipping[part]) {
      address[part] = shipping[part];
      if (order.billing_address) fromShipping.push(part);
    } else if (settings.defaultAddress?.[part]) {
      address[part] = settings.defaultAddress[part];
      fromDefaults.push(part);
    } else errors.push(problem("customer.missing_address", { part }));
  }
  if (fromShipping.length)
    warnings.push(problem("customer.address_from_shipping", { parts: fromShipping.join(", ") }, "warning"));
  if (fromDefaults.length)
    warnings.push(problem("customer.address_from_defaults", { parts: fromDefaults.join(", ") }, "warning"));
  const postcode = billing.postcode ?? shipping.postcode ?? settings.defaultAddress?.postcode;

  const billed = isForeign(order);
  const foreign = billed.foreign || Boolean(exportTo);
  const country = billed.foreign ? billed.country : exportTo?.country;
  const who = override
    ? overriddenIdentity(override)
    : b2b
      ? companyIdentity(order, settings, b2b, foreign)
      : foreign
        ? foreignIdentity(order, settings)
        : identity(order, settings);
  if (override) warnings.push(problem("customer.buyer_set_by_merchant", { reason: override.reason }, "warning"));
  if (b2b)
    warnings.push(problem("customer.from_company", { company: b2b.name, location: b2b.locationName }, "warning"));
  if (who.kind === "invalid") {
    // Before anything is posted: the value as the buyer gave it and where it came from, so the merchant can find it.
    errors.push(
      who.company !== undefined
        ? problem("customer.invalid_company_tax_number", { value: who.value, company: who.company })
        : who.attribute === undefined
          ? problem("customer.invalid_tax_number_in_company", { value: who.value })
          : problem("customer.invalid_tax_number", { value: who.value, source: who.attribute }),
    );
  }
  // A Turkish company with no number anywhere would be invoiced as an anonymous consumer: the merchant adds it.
  if (b2b && !foreign && who.kind === "anonymous")
    errors.push(problem("customer.company_without_tax_number", { company: b2b.name, location: b2b.locationName }));
  const foreignTaxId = who.kind === "foreign" ? who.taxId : undefined;

  const email = clean(order.email) ?? clean(order.customer?.email);
  const phone =
    clean(order.billing_address?.phone) ??
    clean(order.phone) ??
    clean(order.customer?.phone) ??
    clean(order.shipping_address?.phone);
  // Guests have no Shopify customer: a stable id from the order keeps one card per guest order.
  const id: number | string = order.customer?.id ?? `guest-${order.id}`;
  const billingCompany = settings.useBillingCompany ? billingCompanyTitle(order) : undefined;

  let person =
    override?.kind === "person" && override.name
      ? { name: override.name, surname: override.surname ?? "" }
      : personName(order);
  if (!person && !(who.kind === "company")) {
    warnings.push(problem("customer.missing_name", undefined, "warning"));
    person = { name: "Nihai", surname: "Tüketici" };
  }

  const base = {
    id,
    country: address.country ?? "",
    address: address.address ?? "",
    city: address.city ?? "",
    district: address.district ?? "",
    ...(postcode ? { postcode } : {}),
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
  };

  let customer: InvoiceCustomer;
  if (who.kind === "company") {
    const typedTaxOffice = attribute(order, settings.taxOfficeAttributes)?.value;
    const taxOffice = override ? override.taxOffice : b2b ? (b2b.taxOffice ?? typedTaxOffice) : typedTaxOffice;
    // A title the buyer typed for the invoice (the cart block's field) wins over the billing address's company; a B2B
    // company's own name wins over both.
    const typedTitle = attribute(order, settings.companyTitleAttributes)?.value ?? billingCompany;
    const title = override ? override.title : b2b ? (clean(b2b.name) ?? typedTitle) : typedTitle;
    if (!taxOffice && b2b)
      errors.push(
        problem("customer.company_without_tax_office_b2b", {
          company: b2b.name,
          metafield: settings.companyTaxOfficeMetafield,
        }),
      );
    else if (!taxOffice) errors.push(problem("customer.company_without_tax_office", { taxNumber: who.taxNumber }));
    if (!title) errors.push(problem("customer.company_without_title", { taxNumber: who.taxNumber }));
    customer = { ...base, type: "company", tax_number: who.taxNumber, tax_office: taxOffice ?? "", title: title ?? "" };
  } else {
    const names = person ?? { name: "Nihai", surname: "Tüketici" };
    let taxNumber = ANONYMOUS_TAX_NUMBER;
    if (who.kind === "citizen") taxNumber = who.taxNumber;
    if (who.kind === "foreign") {
      taxNumber = settings.foreignBuyerTaxNumber;
      warnings.push(problem("customer.foreign_buyer", { country: country ?? "", taxNumber }, "warning"));
      if (foreignTaxId)
        warnings.push(problem("customer.foreign_tax_id", { taxId: foreignTaxId, taxNumber }, "warning"));
    }
    const fullName = [names.name, names.surname].filter(Boolean).join(" ");
    // A buyer abroad that is a company is named by its company (a B2B company's own name first).
    const companyTitle = who.kind === "foreign" ? (clean(b2b?.name) ?? billingCompany) : undefined;
    customer = {
      ...base,
      type: "person",
      tax_number: taxNumber,
      title: companyTitle ?? fullName,
      name: names.name,
      surname: names.surname,
    };
  }
  return {
    customer: errors.length ? undefined : customer,
    ...(foreignTaxId ? { foreignTaxId } : {}),
    errors,
    warnings,
  };
}

/** The billing address's company without a tax number written into it (and the separators around that number). */
function billingCompanyTitle(order: ShopifyOrder): string | undefined {
  return clean(
    clean(order.billing_address?.company)
      ?.replace(/(?<!\d)(\d{10}|\d{11})(?!\d)/, "")
      .replace(/[\s\-/,]+$/, "")
      .replace(/^[\s\-/,]+/, ""),
  );
}

/** What the buyer form on the invoice page starts from: the buyer as the order gives it, right or wrong. */
export interface BuyerDraft {
  kind: "person" | "company";
  taxNumber: string;
  title: string;
  name: string;
  surname: string;
  taxOffice: string;
}

/**
 * The order's buyer as the merchant's form starts from it (issue 36, point 4): the number the buyer typed (a wrong one
 * too: the merchant corrects it rather than types it again), the company title and tax office they typed or the
 * billing company, the billing name. A 10-digit number or a company title makes it a company.
 */
export function buyerDraft(order: ShopifyOrder, settings: MappingSettings): BuyerDraft {
  const who = identity(order, settings);
  const typed =
    who.kind === "company" || who.kind === "citizen" ? who.taxNumber : who.kind === "invalid" ? who.value : "";
  const billingCompany = settings.useBillingCompany ? billingCompanyTitle(order) : undefined;
  const title = attribute(order, settings.companyTitleAttributes)?.value ?? billingCompany ?? "";
  // 10 digits (a VKN, valid or not) is a company; 11 (a T.C. number) a person; otherwise a typed title decides.
  const digits = typed.replace(/\D/g, "").length;
  const company = digits === 10 || (digits !== 11 && title !== "");
  return {
    kind: company ? "company" : "person",
    taxNumber: typed,
    title,
    name: clean(order.billing_address?.first_name) ?? clean(order.customer?.first_name) ?? "",
    surname: clean(order.billing_address?.last_name) ?? clean(order.customer?.last_name) ?? "",
    taxOffice: attribute(order, settings.taxOfficeAttributes)?.value ?? "",
  };
}
