// Contract: every rejection rule of the spec (Errors table and field tables). Each case sends a body that
// is valid except for one thing, straight to the sandbox (so the case fails if the rule is removed from
// sandbox/rules.ts), and asserts 422 with that field's key; then the app's client must refuse the same
// body too (ValidationError, raised locally or from the sandbox's 422).
import { DateTime } from "luxon";
import { beforeAll, describe, expect, it } from "vitest";
import type { InvoicingClient } from "../../app/invoicing-service/client";
import { ValidationError } from "../../app/invoicing-service/errors";
import type { InvoiceRequest } from "../../app/invoicing-service/schemas";
import type { SandboxAccount } from "../../sandbox/server";
import { withSandbox } from "../helpers/sandbox";
import { clientFor, companyCustomer, invoiceBody, raw } from "./helpers";

const sandbox = withSandbox({ formalizeDelayMs: 20 });
let client: InvoicingClient;
let other: SandboxAccount;

beforeAll(async () => {
  client = clientFor(sandbox);
  other = sandbox.addAccount();
});

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const line = (b: Body) => b.lines[0];
const tomorrow = () => DateTime.now().setZone("Europe/Istanbul").plus({ days: 1 }).toFormat("yyyy-MM-dd");
const asCompany = (b: Body) => (b.customer = companyCustomer("1234567890"));
const shipment = (b: Body, s: Body) =>
  Object.assign(b, { is_need_shipment: true, shipment: { delivery_date: b.issue_date, ...s } });
const internetSale = (b: Body, s: Body) => Object.assign(b, { is_internet_sale: true, internet_sale: s });

async function expectRejected(change: (b: Body) => unknown, key: string, message?: RegExp) {
  const body: Body = structuredClone(invoiceBody(sandbox.account));
  change(body);
  const response = await raw(sandbox, "POST", "/invoices", body);
  expect(response.status, JSON.stringify(response.json)).toBe(422);
  expect(Object.keys(response.json.errors)).toContain(key);
  expect(typeof response.json.message).toBe("string");
  if (message) expect(response.json.errors[key].join(" ")).toMatch(message);
  const error = await client.createInvoice(body as InvoiceRequest).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  if (body.order_id) expect(sandbox.invoices.byOrderId(body.order_id)).toEqual([]);
}

describe("the body that all cases start from", () => {
  it("is accepted with amounts as JSON numbers and tax_rate as a string; the other JSON types are refused, as the spec types them", async () => {
    const response = await raw(sandbox, "POST", "/invoices", invoiceBody(sandbox.account));
    expect(response.status).toBe(201);
    expect(response.json.data.grand_total).toBe("66.66");
    const strings = invoiceBody(sandbox.account);
    const refused = await raw(sandbox, "POST", "/invoices", {
      ...strings,
      currency_rate: "1",
      lines: [{ ...strings.lines[0], quantity: "2", unit_price: "27.775", tax_rate: 20 }],
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.json.errors).sort()).toEqual([
      "currency_rate",
      "lines.0.quantity",
      "lines.0.tax_rate",
      "lines.0.unit_price",
    ]);
    // The app's client holds amounts as decimal strings and sends them as JSON numbers.
    const record = await clientFor(sandbox).createInvoice({
      ...strings,
      currency_rate: "1",
      lines: [{ ...strings.lines[0], quantity: "2", unit_price: "27.775" }],
    });
    expect(record.grand_total).toBe("66.66");
  });
});

describe("Errors table of the spec", () => {
  it("sale_channel_id missing", () => expectRejected((b) => delete b.sale_channel_id, "sale_channel_id"));
  it("sale_channel_id not a channel of the account", () =>
    expectRejected((b) => (b.sale_channel_id = other.saleChannelId), "sale_channel_id"));
  it("tax_rate 0 without exemption_code: an exemption code is required for products with VAT rate 0", () =>
    expectRejected(
      (b) => Object.assign(line(b), { tax_rate: "0", exemption_reason: "11/1-a Mal İhracatı" }),
      "lines.0.exemption_code",
      /exemption code is required for products with VAT rate 0/,
    ));
  it("tax_rate 0 without exemption_reason", () =>
    expectRejected(
      (b) => Object.assign(line(b), { tax_rate: "0", exemption_code: "301" }),
      "lines.0.exemption_reason",
      /VAT rate 0/,
    ));
  it("is_need_shipment true and both carrier and courier pairs empty", async () => {
    await expectRejected((b) => shipment(b, {}), "shipment.company_title");
    await expectRejected((b) => shipment(b, {}), "shipment.courier_name");
  });
  it("cash_sale true without payment_date", () => expectRejected((b) => delete b.payment_date, "payment_date"));
  it("is_internet_sale true without internet_sale", () =>
    expectRejected((b) => (b.is_internet_sale = true), "internet_sale"));
  it("is_need_shipment true without shipment", () => expectRejected((b) => (b.is_need_shipment = true), "shipment"));
  it("is_need_shipment true without delivery_date", () =>
    expectRejected(
      (b) =>
        shipment(b, { company_title: "Yurtiçi Kargo", company_tax_number: "9860008925", delivery_date: undefined }),
      "shipment.delivery_date",
    ));
  it("no customer_id and no customer", () => expectRejected((b) => delete b.customer, "customer"));
  it("order_id without order_created_at", () => expectRejected((b) => delete b.order_created_at, "order_created_at"));
  it("issue_date later than today", () => expectRejected((b) => (b.issue_date = tomorrow()), "issue_date"));
  it("quantity not greater than 0", async () => {
    await expectRejected((b) => (line(b).quantity = "0"), "lines.0.quantity");
    await expectRejected((b) => (line(b).quantity = -1), "lines.0.quantity");
  });
  it("negative unit_price", () => expectRejected((b) => (line(b).unit_price = "-0.01"), "lines.0.unit_price"));
});

describe("field rules: header", () => {
  it("type required", () => expectRejected((b) => delete b.type, "type"));
  it("type in the known value set", () => expectRejected((b) => (b.type = "PROFORMA"), "type"));
  it("invoice_integration_id required", () =>
    expectRejected((b) => delete b.invoice_integration_id, "invoice_integration_id"));
  it("invoice_integration_id belongs to the account", () =>
    expectRejected((b) => (b.invoice_integration_id = other.invoiceIntegrationId), "invoice_integration_id"));
  it("issue_date required", () => expectRejected((b) => delete b.issue_date, "issue_date"));
  it("issue_date is Y-m-d", () => expectRejected((b) => (b.issue_date = "22.11.2026"), "issue_date"));
  it("issue_time required", () => expectRejected((b) => delete b.issue_time, "issue_time"));
  it("issue_time is H:i", () => expectRejected((b) => (b.issue_time = "25:00"), "issue_time"));
  it("cash_sale required", () => expectRejected((b) => delete b.cash_sale, "cash_sale"));
  it("cash_sale is a boolean", () => expectRejected((b) => (b.cash_sale = "true"), "cash_sale"));
  it("order_created_at is Y-m-d", () =>
    expectRejected((b) => (b.order_created_at = "2026-11-22 10:00"), "order_created_at"));
  it("payment_date is Y-m-d", () => expectRejected((b) => (b.payment_date = "2026-13-01"), "payment_date"));
  it("due_date is Y-m-d", () => expectRejected((b) => (b.due_date = "soon"), "due_date"));
  it("waybill_date is Y-m-d", () => expectRejected((b) => (b.waybill_date = "2026/11/01"), "waybill_date"));
  it("waybill_number is a numeric string", () =>
    expectRejected((b) => (b.waybill_number = "IRS-12"), "waybill_number"));
  it("callback_url is a valid URL", () =>
    expectRejected((b) => (b.callback_url = "callback.example/invoice"), "callback_url"));
  it("currency is a 3-letter code", () => expectRejected((b) => (b.currency = "TL"), "currency"));
  it("customer_id must be a customer of the account", () =>
    expectRejected((b) => Object.assign(b, { customer: undefined, customer_id: 987654 }), "customer_id"));
});

describe("field rules: lines", () => {
  it("at least one line", () => expectRejected((b) => (b.lines = []), "lines"));
  it("lines required", () => expectRejected((b) => delete b.lines, "lines"));
  it("line id required when sale_channel_id is sent", () => expectRejected((b) => delete line(b).id, "lines.0.id"));
  it("name required", () => expectRejected((b) => delete line(b).name, "lines.0.name"));
  it("quantity numeric", () => expectRejected((b) => (line(b).quantity = "iki"), "lines.0.quantity"));
  it("unit required and non-empty", async () => {
    await expectRejected((b) => delete line(b).unit, "lines.0.unit");
    await expectRejected((b) => (line(b).unit = ""), "lines.0.unit");
  });
  it("unit_price required", () => expectRejected((b) => delete line(b).unit_price, "lines.0.unit_price"));
  it("unit_price numeric", () => expectRejected((b) => (line(b).unit_price = "12,50"), "lines.0.unit_price"));
  it("tax_rate required", () => expectRejected((b) => delete line(b).tax_rate, "lines.0.tax_rate"));
  it("tax_rate one of 0, 1, 2, 8, 10, 18, 20", () =>
    expectRejected((b) => (line(b).tax_rate = "19"), "lines.0.tax_rate", /must be one of 0, 1, 2, 8, 10, 18, 20/));
  it("discount_type amount or percentage", () =>
    expectRejected((b) => Object.assign(line(b), { discount_type: "fixed", discount: "1" }), "lines.0.discount_type"));
  it("discount not negative", () =>
    expectRejected((b) => Object.assign(line(b), { discount_type: "amount", discount: "-1" }), "lines.0.discount"));
  it("percentage discount at most 100", () =>
    expectRejected(
      (b) => Object.assign(line(b), { discount_type: "percentage", discount: "100.5" }),
      "lines.0.discount",
    ));
  it("rules apply to every line, keyed by its index", () =>
    expectRejected((b) => b.lines.push({ ...line(b), id: "sku-2", tax_rate: "7" }), "lines.1.tax_rate"));
});

describe("field rules: customer", () => {
  it("customer.id required", () => expectRejected((b) => delete b.customer.id, "customer.id"));
  it("customer.type person or company", () => expectRejected((b) => (b.customer.type = "individual"), "customer.type"));
  it("customer.tax_number required", () => expectRejected((b) => delete b.customer.tax_number, "customer.tax_number"));
  it("customer.tax_number 10 or 11 digits", async () => {
    await expectRejected((b) => (b.customer.tax_number = "123456789"), "customer.tax_number");
    await expectRejected((b) => (b.customer.tax_number = "123456789012"), "customer.tax_number");
    await expectRejected((b) => (b.customer.tax_number = "12345678A0"), "customer.tax_number");
  });
  it("customer.tax_office required for a company", () =>
    expectRejected((b) => {
      asCompany(b);
      delete b.customer.tax_office;
    }, "customer.tax_office"));
  it("customer.title required for a company", () =>
    expectRejected((b) => {
      asCompany(b);
      delete b.customer.title;
    }, "customer.title"));
  it("customer.name required for a person without title", () =>
    expectRejected((b) => delete b.customer.name, "customer.name"));
  it("customer.surname required for a person without title", () =>
    expectRejected((b) => delete b.customer.surname, "customer.surname"));
  it("customer.country required", () => expectRejected((b) => delete b.customer.country, "customer.country"));
  it("customer.address required", () => expectRejected((b) => delete b.customer.address, "customer.address"));
  it("customer.city required", () => expectRejected((b) => delete b.customer.city, "customer.city"));
  it("customer.district required", () => expectRejected((b) => (b.customer.district = ""), "customer.district"));
});

describe("field rules: internet sale and shipment", () => {
  it("internet_sale.payment_platform at most 255 characters", () =>
    expectRejected((b) => internetSale(b, { payment_platform: "p".repeat(256) }), "internet_sale.payment_platform"));
  it("internet_sale.payment_method from the constants list", () =>
    expectRejected((b) => internetSale(b, { payment_method: "KREDIKARTI" }), "internet_sale.payment_method"));
  it("internet_sale.payment_date is Y-m-d", () =>
    expectRejected((b) => internetSale(b, { payment_date: "yesterday" }), "internet_sale.payment_date"));
  it("shipment company_title needs company_tax_number", () =>
    expectRejected((b) => shipment(b, { company_title: "Yurtiçi Kargo" }), "shipment.company_tax_number"));
  it("shipment courier_name needs courier_tax_number", () =>
    expectRejected((b) => shipment(b, { courier_name: "Ali Kurye" }), "shipment.courier_tax_number"));
  it("shipment company_title at most 255", () =>
    expectRejected(
      (b) => shipment(b, { company_title: "c".repeat(256), company_tax_number: "9860008925" }),
      "shipment.company_title",
    ));
  it("shipment company_tax_number at most 20", () =>
    expectRejected(
      (b) => shipment(b, { company_title: "Yurtiçi", company_tax_number: "9".repeat(21) }),
      "shipment.company_tax_number",
    ));
  it("shipment courier_name at most 255", () =>
    expectRejected(
      (b) => shipment(b, { courier_name: "k".repeat(256), courier_tax_number: "12345678950" }),
      "shipment.courier_name",
    ));
  it("shipment courier_tax_number at most 20", () =>
    expectRejected(
      (b) => shipment(b, { courier_name: "Ali", courier_tax_number: "1".repeat(21) }),
      "shipment.courier_tax_number",
    ));

  it("shipment is validated only when is_need_shipment is true; a complete pair passes", async () => {
    const ok = async (change: (b: Body) => unknown) => {
      const body: Body = structuredClone(invoiceBody(sandbox.account));
      change(body);
      const response = await raw(sandbox, "POST", "/invoices", body);
      expect(response.status, JSON.stringify(response.json)).toBe(201);
    };
    await ok((b) => Object.assign(b, { is_need_shipment: false, shipment: {} }));
    await ok((b) => shipment(b, { courier_name: "Ali Kurye", courier_tax_number: "12345678950" }));
    await ok((b) => shipment(b, { company_title: "Yurtiçi Kargo", company_tax_number: "9860008925" }));
    await ok((b) =>
      internetSale(b, {
        web_address: "https://magaza.example",
        payment_method: "credit_or_debit",
        payment_platform: "iyzico",
        payment_date: b.issue_date,
      }),
    );
  });
});

describe("field types", () => {
  it("profile is a string", () => expectRejected((b) => (b.profile = 1), "profile"));
  it("order_id is a string", () => expectRejected((b) => (b.order_id = 1001), "order_id"));
  it("description is a string", () => expectRejected((b) => (b.description = ["a"]), "description"));
  it("line sku is a string", () => expectRejected((b) => (line(b).sku = { code: 1 }), "lines.0.sku"));
  it("extra_taxes elements have tax_code and a numeric tax_rate", async () => {
    await expectRejected((b) => (line(b).extra_taxes = [{ tax_rate: "7.5" }]), "lines.0.extra_taxes.0.tax_code");
    await expectRejected(
      (b) => (line(b).extra_taxes = [{ tax_code: "4080", tax_rate: "yedi" }]),
      "lines.0.extra_taxes.0.tax_rate",
    );
  });
  it("customer.email is a string", () => expectRejected((b) => (b.customer.email = 42), "customer.email"));
});

describe("error shape", () => {
  it("is Laravel's 422 {message, errors}, and a redirect when the request does not ask for JSON", async () => {
    const body: Body = structuredClone(invoiceBody(sandbox.account));
    line(body).tax_rate = "19";
    const response = await raw(sandbox, "POST", "/invoices", body);
    expect(response.json).toEqual({
      message: "The lines.0.tax_rate field must be one of 0, 1, 2, 8, 10, 18, 20.",
      errors: { "lines.0.tax_rate": ["The lines.0.tax_rate field must be one of 0, 1, 2, 8, 10, 18, 20."] },
    });
    const html = await fetch(`${sandbox.url}/invoices`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sandbox.account.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      redirect: "manual",
    });
    expect(html.status).toBe(302);
  });
});
