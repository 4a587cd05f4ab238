// The sandbox's body validation, rule by rule: a valid body, changed in exactly one way, must produce an
// error at exactly the expected key.
import { describe, expect, it } from "vitest";
import { exampleInvoiceBody } from "../../sandbox/examples";
import {
  INVOICE_RULES,
  parseDecimal,
  todayInIstanbul,
  validateInvoiceBody,
  validationMessage,
} from "../../sandbox/rules";

const ctx = { saleChannelIds: [11], invoiceIntegrationIds: [21, 22], today: "2026-03-10" };
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const valid = (): Body => exampleInvoiceBody({ saleChannelId: 11, invoiceIntegrationId: 21 }, ctx.today);
const line = (b: Body) => b.lines[0];
const company = (b: Body) => {
  b.customer = {
    id: 5,
    type: "company",
    tax_number: "1234567890",
    tax_office: "Kadıköy",
    title: "Acme A.Ş.",
    country: "TR",
    address: "a",
    city: "İstanbul",
    district: "Kadıköy",
  };
  return b;
};
const withShipment = (b: Body, shipment: Body) => ({
  ...b,
  is_need_shipment: true,
  shipment: { delivery_date: ctx.today, ...shipment },
});

function errorsOf(change: (b: Body) => Body | void): Record<string, string[]> {
  const body = valid();
  return validateInvoiceBody(change(body) ?? body, ctx);
}

describe("validateInvoiceBody", () => {
  it("accepts the example body: amounts as JSON numbers, tax_rate as a string, as the spec types them", () => {
    expect(validateInvoiceBody(valid(), ctx)).toEqual({});
    expect(errorsOf((b) => void Object.assign(line(b), { quantity: 1.5, unit_price: 10, tax_rate: "20" }))).toEqual({});
    expect(errorsOf(company)).toEqual({});
  });

  // [description, change, expected error key]
  const cases: Array<[string, (b: Body) => Body | void, string]> = [
    ["type missing", (b) => void delete b.type, "type"],
    ["type unknown", (b) => void (b.type = "FOO"), "type"],
    ["invoice_integration_id missing", (b) => void delete b.invoice_integration_id, "invoice_integration_id"],
    [
      "invoice_integration_id of another account",
      (b) => void (b.invoice_integration_id = 99),
      "invoice_integration_id",
    ],
    ["sale_channel_id missing", (b) => void delete b.sale_channel_id, "sale_channel_id"],
    ["sale_channel_id of another account", (b) => void (b.sale_channel_id = 12), "sale_channel_id"],
    ["order_id without order_created_at", (b) => void delete b.order_created_at, "order_created_at"],
    ["order_created_at not Y-m-d", (b) => void (b.order_created_at = "2026-03-10T10:00:00Z"), "order_created_at"],
    ["issue_date missing", (b) => void delete b.issue_date, "issue_date"],
    ["issue_date after today", (b) => void (b.issue_date = "2026-03-11"), "issue_date"],
    ["issue_date not a date", (b) => void (b.issue_date = "2026-02-30"), "issue_date"],
    ["issue_time missing", (b) => void delete b.issue_time, "issue_time"],
    ["issue_time not H:i", (b) => void (b.issue_time = "10:15:00"), "issue_time"],
    ["cash_sale missing", (b) => void delete b.cash_sale, "cash_sale"],
    ["cash_sale not boolean", (b) => void (b.cash_sale = "yes"), "cash_sale"],
    ["cash_sale true without payment_date", (b) => void delete b.payment_date, "payment_date"],
    ["payment_date not Y-m-d", (b) => void (b.payment_date = "10.03.2026"), "payment_date"],
    ["due_date not Y-m-d", (b) => void (b.due_date = "tomorrow"), "due_date"],
    ["waybill_date not Y-m-d", (b) => void (b.waybill_date = "2026/03/01"), "waybill_date"],
    ["waybill_number not numeric", (b) => void (b.waybill_number = "IRS-1"), "waybill_number"],
    ["callback_url not a URL", (b) => void (b.callback_url = "not a url"), "callback_url"],
    ["currency not a 3-letter code", (b) => void (b.currency = "TL"), "currency"],
    ["currency_rate not numeric", (b) => void (b.currency_rate = "abc"), "currency_rate"],
    ["lines missing", (b) => void delete b.lines, "lines"],
    ["lines empty", (b) => void (b.lines = []), "lines"],
    ["line id missing", (b) => void delete line(b).id, "lines.0.id"],
    ["line name missing", (b) => void delete line(b).name, "lines.0.name"],
    ["line quantity 0", (b) => void (line(b).quantity = 0), "lines.0.quantity"],
    ["line quantity negative", (b) => void (line(b).quantity = -1), "lines.0.quantity"],
    // The spec's tables type these "number" and tax_rate "string": a strict service refuses the other JSON type.
    ["line quantity as a decimal string", (b) => void (line(b).quantity = "2"), "lines.0.quantity"],
    ["line unit_price as a decimal string", (b) => void (line(b).unit_price = "27.775"), "lines.0.unit_price"],
    [
      "line discount as a decimal string",
      (b) => void Object.assign(line(b), { discount_type: "amount", discount: "1.00" }),
      "lines.0.discount",
    ],
    ["currency_rate as a decimal string", (b) => void (b.currency_rate = "1"), "currency_rate"],
    ["line tax_rate as a JSON number", (b) => void (line(b).tax_rate = 20), "lines.0.tax_rate"],
    ["line tax_rate not written as listed", (b) => void (line(b).tax_rate = "20.00"), "lines.0.tax_rate"],
    ["sale_channel_id as a string", (b) => void (b.sale_channel_id = "11"), "sale_channel_id"],
    ["invoice_integration_id as a string", (b) => void (b.invoice_integration_id = "21"), "invoice_integration_id"],
    ["customer_id as a string", (b) => Object.assign(b, { customer: undefined, customer_id: "42" }), "customer_id"],
    ["line unit not a UN/ECE code", (b) => void (line(b).unit = "Adet"), "lines.0.unit"],
    ["line quantity not numeric", (b) => void (line(b).quantity = "two"), "lines.0.quantity"],
    ["line unit missing", (b) => void delete line(b).unit, "lines.0.unit"],
    ["line unit empty", (b) => void (line(b).unit = ""), "lines.0.unit"],
    ["line unit_price negative", (b) => void (line(b).unit_price = -0.01), "lines.0.unit_price"],
    ["line unit_price missing", (b) => void delete line(b).unit_price, "lines.0.unit_price"],
    ["line tax_rate not allowed", (b) => void (line(b).tax_rate = "19"), "lines.0.tax_rate"],
    ["line tax_rate missing", (b) => void delete line(b).tax_rate, "lines.0.tax_rate"],
    [
      "tax_rate 0 without exemption_code",
      (b) => void Object.assign(line(b), { tax_rate: "0", exemption_reason: "11/1-a Mal İhracatı" }),
      "lines.0.exemption_code",
    ],
    [
      "tax_rate 0 without exemption_reason",
      (b) => void Object.assign(line(b), { tax_rate: "0", exemption_code: "301" }),
      "lines.0.exemption_reason",
    ],
    [
      "discount_type unknown",
      (b) => void Object.assign(line(b), { discount_type: "fixed", discount: 1 }),
      "lines.0.discount_type",
    ],
    [
      "discount negative",
      (b) => void Object.assign(line(b), { discount_type: "amount", discount: -1 }),
      "lines.0.discount",
    ],
    [
      "percentage discount over 100",
      (b) => void Object.assign(line(b), { discount_type: "percentage", discount: 100.01 }),
      "lines.0.discount",
    ],
    ["no customer and no customer_id", (b) => void delete b.customer, "customer"],
    ["customer id missing", (b) => void delete b.customer.id, "customer.id"],
    ["customer type unknown", (b) => void (b.customer.type = "robot"), "customer.type"],
    ["customer tax_number missing", (b) => void delete b.customer.tax_number, "customer.tax_number"],
    ["customer tax_number 9 digits", (b) => void (b.customer.tax_number = "123456789"), "customer.tax_number"],
    ["customer tax_number 12 digits", (b) => void (b.customer.tax_number = "123456789012"), "customer.tax_number"],
    ["customer tax_number with letters", (b) => void (b.customer.tax_number = "12345678AB"), "customer.tax_number"],
    ["company without tax_office", (b) => void delete company(b).customer.tax_office, "customer.tax_office"],
    ["company without title", (b) => void delete company(b).customer.title, "customer.title"],
    ["person without name or title", (b) => void delete b.customer.name, "customer.name"],
    ["person without surname or title", (b) => void delete b.customer.surname, "customer.surname"],
    ["customer country missing", (b) => void delete b.customer.country, "customer.country"],
    ["customer address missing", (b) => void delete b.customer.address, "customer.address"],
    ["customer city missing", (b) => void delete b.customer.city, "customer.city"],
    ["customer district missing", (b) => void delete b.customer.district, "customer.district"],
    ["is_internet_sale true without internet_sale", (b) => void (b.is_internet_sale = true), "internet_sale"],
    [
      "payment_platform over 255",
      (b) => void Object.assign(b, { is_internet_sale: true, internet_sale: { payment_platform: "x".repeat(256) } }),
      "internet_sale.payment_platform",
    ],
    [
      "payment_method unknown",
      (b) => void Object.assign(b, { is_internet_sale: true, internet_sale: { payment_method: "KREDIKARTI" } }),
      "internet_sale.payment_method",
    ],
    [
      "internet_sale.payment_date not Y-m-d",
      (b) => void Object.assign(b, { is_internet_sale: true, internet_sale: { payment_date: "x" } }),
      "internet_sale.payment_date",
    ],
    ["is_need_shipment true without shipment", (b) => void (b.is_need_shipment = true), "shipment"],
    [
      "shipment without delivery_date",
      (b) => withShipment(b, { company_title: "Yurtiçi", company_tax_number: "9860008925", delivery_date: undefined }),
      "shipment.delivery_date",
    ],
    ["shipment with both pairs empty", (b) => withShipment(b, {}), "shipment.company_title"],
    [
      "shipment company without tax number",
      (b) => withShipment(b, { company_title: "Yurtiçi" }),
      "shipment.company_tax_number",
    ],
    [
      "shipment courier without tax number",
      (b) => withShipment(b, { courier_name: "Ali" }),
      "shipment.courier_tax_number",
    ],
    [
      "shipment company_title over 255",
      (b) => withShipment(b, { company_title: "x".repeat(256), company_tax_number: "1" }),
      "shipment.company_title",
    ],
    [
      "shipment company_tax_number over 20",
      (b) => withShipment(b, { company_title: "Y", company_tax_number: "1".repeat(21) }),
      "shipment.company_tax_number",
    ],
    [
      "shipment courier_name over 255",
      (b) => withShipment(b, { courier_name: "x".repeat(256), courier_tax_number: "1" }),
      "shipment.courier_name",
    ],
    [
      "shipment courier_tax_number over 20",
      (b) => withShipment(b, { courier_name: "A", courier_tax_number: "1".repeat(21) }),
      "shipment.courier_tax_number",
    ],
  ];

  it.each(cases)("rejects: %s", (_name, change, key) => {
    const errors = errorsOf(change);
    expect(Object.keys(errors)).toContain(key);
    expect(errors[key][0]).toMatch(/\S/);
  });

  it("states that an exemption code is required for VAT rate 0", () => {
    const errors = errorsOf((b) => void Object.assign(line(b), { tax_rate: "0" }));
    expect(errors["lines.0.exemption_code"]).toEqual(["An exemption code is required for products with VAT rate 0."]);
    expect(
      errorsOf(
        (b) =>
          void Object.assign(line(b), { tax_rate: "0", exemption_code: 301, exemption_reason: "11/1-a Mal İhracatı" }),
      ),
    ).toEqual({});
  });

  it("uses Laravel-style messages", () => {
    expect(errorsOf((b) => void (line(b).tax_rate = "19"))).toEqual({
      "lines.0.tax_rate": ["The lines.0.tax_rate field must be one of 0, 1, 2, 8, 10, 18, 20."],
    });
    expect(validationMessage({ a: ["First."], b: ["Second.", "Third."] })).toBe("First. (and 2 more errors)");
  });

  it("accepts the conditional fields when they are satisfied", () => {
    expect(errorsOf((b) => Object.assign(b, { customer: undefined, customer_id: 42 }))).toEqual({});
    expect(
      errorsOf((b) => void Object.assign(b.customer, { name: undefined, surname: undefined, title: "Ayşe Yılmaz" })),
    ).toEqual({});
    expect(errorsOf((b) => Object.assign(b, { cash_sale: false, payment_date: undefined }))).toEqual({});
    expect(errorsOf((b) => Object.assign(b, { order_id: undefined, order_created_at: undefined }))).toEqual({});
    expect(errorsOf((b) => withShipment(b, { courier_name: "Ali Veli", courier_tax_number: "12345678901" }))).toEqual(
      {},
    );
    expect(
      errorsOf((b) => withShipment(b, { company_title: "Yurtiçi Kargo", company_tax_number: "9860008925" })),
    ).toEqual({});
    // shipment is only validated when is_need_shipment is explicitly true
    expect(errorsOf((b) => Object.assign(b, { is_need_shipment: false, shipment: {} }))).toEqual({});
    expect(
      errorsOf((b) =>
        Object.assign(b, {
          is_internet_sale: true,
          internet_sale: {
            web_address: "https://shop.example",
            payment_method: "credit_or_debit",
            payment_platform: "iyzico",
            payment_date: ctx.today,
          },
        }),
      ),
    ).toEqual({});
    expect(errorsOf((b) => void Object.assign(line(b), { discount_type: "percentage", discount: 100 }))).toEqual({});
    expect(errorsOf((b) => void Object.assign(line(b), { unit_price: 0 }))).toEqual({});
  });

  it("reports every required field of a non-object body", () => {
    const errors = validateInvoiceBody("nope", ctx);
    for (const key of [
      "type",
      "invoice_integration_id",
      "sale_channel_id",
      "issue_date",
      "issue_time",
      "cash_sale",
      "lines",
      "customer",
    ])
      expect(errors).toHaveProperty(key);
  });

  it("names every rule", () => {
    for (const rule of INVOICE_RULES) expect(rule.name).toMatch(/^[a-z][A-Za-z]+$/);
  });
});

describe("helpers", () => {
  it("parses numbers and decimal strings exactly, and rejects anything else", () => {
    expect(parseDecimal("0.1")!.add(parseDecimal("0.2")!).toString()).toBe("0.3");
    expect(parseDecimal(12.5)!.toString()).toBe("12.5");
    for (const bad of ["1e3", "12,5", "", " ", "abc", NaN, Infinity, null, true, {}])
      expect(parseDecimal(bad)).toBeNull();
  });

  it("computes today in Europe/Istanbul (UTC+3)", () => {
    expect(todayInIstanbul(new Date("2026-03-10T20:59:59Z"))).toBe("2026-03-10");
    expect(todayInIstanbul(new Date("2026-03-10T21:00:00Z"))).toBe("2026-03-11");
  });
});

describe("Laravel input middleware", () => {
  it("trims strings and reads empty strings as null, so optional empty fields pass and required ones fail", () => {
    expect(errorsOf((b) => Object.assign(b, { callback_url: "", currency: " ", due_date: "" }))).toEqual({});
    expect(errorsOf((b) => void Object.assign(line(b), { tax_rate: " 20 ", unit: " C62 " }))).toEqual({});
    expect(Object.keys(errorsOf((b) => void (line(b).name = "   ")))).toEqual(["lines.0.name"]);
    expect(Object.keys(errorsOf((b) => void (b.cash_sale = "")))).toEqual(["cash_sale"]);
  });
});
