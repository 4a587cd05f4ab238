// The shapes the client sends and accepts (app/invoicing-service/schemas.ts).
import { describe, expect, it } from "vitest";
import {
  InvoiceIntegrationSchema,
  InvoiceRecordSchema,
  InvoiceRequestSchema,
  SaleChannelSchema,
  WaybillRecordSchema,
  documentKindOf,
  type InvoiceRequest,
} from "../../app/invoicing-service/schemas";

const valid: InvoiceRequest = {
  type: "SATIS",
  invoice_integration_id: 3,
  sale_channel_id: 8,
  order_id: "5551234",
  order_created_at: "2025-11-07",
  issue_date: "2025-11-07",
  issue_time: "09:15",
  cash_sale: true,
  payment_date: "2025-11-07",
  lines: [{ id: 1, name: "Kupa", quantity: "1.5", unit: "C62", unit_price: "0", tax_rate: "20" }],
  customer: {
    id: 9,
    type: "person",
    tax_number: "11111111111",
    title: "Ayşe Yılmaz",
    country: "TR",
    city: "İstanbul",
    district: "Kadıköy",
    address: "Moda",
  },
};

/** Paths of the issues the body raises, e.g. ["payment_date", "lines.0.quantity"]. */
function issues(body: unknown): string[] {
  const result = InvoiceRequestSchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
}

describe("InvoiceRequestSchema", () => {
  it("accepts a complete body, with amounts as decimal strings or numbers", () => {
    expect(issues(valid)).toEqual([]);
    expect(
      issues({ ...valid, lines: [{ ...valid.lines[0], quantity: 2, unit_price: 41.67 }], currency_rate: "34.1234" }),
    ).toEqual([]);
  });

  it.each([
    ["order_id without order_created_at", { order_created_at: undefined }, ["order_created_at"]],
    ["cash_sale without payment_date", { payment_date: undefined }, ["payment_date"]],
    ["internet sale without internet_sale", { is_internet_sale: true }, ["internet_sale"]],
    ["neither customer nor customer_id", { customer: undefined }, ["customer"]],
    ["issue_time with seconds", { issue_time: "09:15:00" }, ["issue_time"]],
    ["an impossible issue_date", { issue_date: "2025-02-30" }, ["issue_date"]],
    ["no lines", { lines: [] }, ["lines"]],
    ["an unknown invoice type", { type: "PROFORMA" }, ["type"]],
  ])("rejects %s", (_label, change, paths) => {
    expect(issues({ ...valid, ...change })).toEqual(paths);
  });

  it("accepts customer_id instead of a customer object", () => {
    expect(issues({ ...valid, customer: undefined, customer_id: 12 })).toEqual([]);
  });

  it("checks each line: quantity > 0, unit_price >= 0, a known tax rate, exemption for rate 0", () => {
    const line = valid.lines[0];
    expect(issues({ ...valid, lines: [{ ...line, quantity: "0.000" }] })).toEqual(["lines.0.quantity"]);
    expect(issues({ ...valid, lines: [{ ...line, unit_price: "-0.01" }] })).toEqual(["lines.0.unit_price"]);
    expect(issues({ ...valid, lines: [{ ...line, unit_price: "1,50" }] })).toEqual(["lines.0.unit_price"]);
    expect(issues({ ...valid, lines: [{ ...line, tax_rate: "5" }] })).toEqual(["lines.0.tax_rate"]);
    expect(issues({ ...valid, lines: [line, { ...line, tax_rate: "0" }] })).toEqual([
      "lines.1.exemption_code",
      "lines.1.exemption_reason",
    ]);
    expect(
      issues({
        ...valid,
        lines: [{ ...line, tax_rate: "0", exemption_code: "301", exemption_reason: "11/1-a Mal İhracatı" }],
      }),
    ).toEqual([]);
  });

  it("refuses what the spec's formats refuse: a currency that is not an ISO code, a waybill number that is not numeric, a unit that is not a UN/ECE code", () => {
    expect(issues({ ...valid, currency: "TL" })).toEqual(["currency"]);
    expect(issues({ ...valid, currency: "try" })).toEqual(["currency"]);
    expect(issues({ ...valid, waybill_number: "IRS2026000000001" })).toEqual(["waybill_number"]);
    expect(issues({ ...valid, waybill_number: "2026000000001" })).toEqual([]);
    expect(issues({ ...valid, lines: [{ ...valid.lines[0], unit: "Adet" }] })).toEqual(["lines.0.unit"]);
  });

  it("requires tax office and title of a company", () => {
    const company = { ...valid.customer!, type: "company" as const, tax_number: "1234567890", title: undefined };
    expect(issues({ ...valid, customer: company })).toEqual(["customer.tax_office", "customer.title"]);
  });

  it("with is_need_shipment, requires a complete carrier or courier pair and the delivery date", () => {
    const shipped = { ...valid, is_need_shipment: true };
    expect(issues(shipped)).toEqual(["shipment"]);
    expect(issues({ ...shipped, shipment: { company_title: "Yurtiçi Kargo", delivery_date: "2025-11-08" } })).toEqual([
      "shipment",
    ]);
    expect(
      issues({ ...shipped, shipment: { company_title: "Yurtiçi Kargo", company_tax_number: "9860008925" } }),
    ).toEqual(["shipment.delivery_date"]);
    expect(
      issues({
        ...shipped,
        shipment: { courier_name: "Ali Kurye", courier_tax_number: "12345678901", delivery_date: "2025-11-08" },
      }),
    ).toEqual([]);
    // Without the flag the shipment is not validated (spec: only when explicitly true).
    expect(issues({ ...valid, shipment: { company_title: "Yurtiçi Kargo" } })).toEqual([]);
  });
});

describe("InvoiceRecordSchema", () => {
  it("needs only id; tolerates nulls, numbers for decimals and a string id", () => {
    const parsed = InvoiceRecordSchema.parse({
      id: "501",
      grand_total: 100.5,
      currency_rate: 1,
      errors: null,
      ettn: null,
      extra: true,
    });
    expect(parsed).toMatchObject({
      id: 501,
      grand_total: "100.5",
      currency_rate: "1",
      errors: [],
      ettn: null,
      extra: true,
    });
    expect(InvoiceRecordSchema.parse({ id: 1 }).errors).toEqual([]);
    expect(InvoiceRecordSchema.safeParse({ workflow_status: "processing" }).success).toBe(false);
  });

  it("keeps the service's decimal strings exactly", () => {
    expect(
      InvoiceRecordSchema.parse({ id: 1, grand_total: "100.10", lines: [{ id: 2, unit_price: "0.30" }] }),
    ).toMatchObject({
      grand_total: "100.10",
      lines: [{ id: 2, unit_price: "0.30" }],
    });
  });
});

describe("documentKindOf", () => {
  it.each([
    [{ profile: "EARSIVFATURA" }, "e_archive"],
    [{ profile: "TEMELFATURA" }, "e_invoice"],
    [{ profile: "TICARIFATURA" }, "e_invoice"],
    [{ profile: "IHRACAT" }, "e_invoice"],
    [{ profile: null, receiver: { tax_number: "11111111111" } }, "e_archive"],
    [{ profile: null, receiver: { tax_number: "1234567890" } }, null],
    [{}, null],
  ])("%o is %s", (record, kind) => {
    expect(documentKindOf(record)).toBe(kind);
  });
});

describe("accounts, channels and waybills", () => {
  it("normalises an invoice account's title to name", () => {
    expect(InvoiceIntegrationSchema.parse({ id: 3, title: "Dummy" })).toMatchObject({ id: 3, name: "Dummy" });
    expect(InvoiceIntegrationSchema.parse({ id: 4, name: "Canlı", title: "ignored" }).name).toBe("Canlı");
    expect(SaleChannelSchema.parse({ id: 8, name: "shopify", settings: {} })).toMatchObject({
      id: 8,
      name: "shopify",
      settings: {},
    });
  });

  it("reads a waybill's parties and lines and keeps unknown fields", () => {
    const waybill = WaybillRecordSchema.parse({
      id: 44,
      document_number: "IRS2025000000044",
      invoice_id: null,
      parties: [{ role: "delivery", identifier_number: "1234567890", title: "Alıcı A.Ş." }],
      lines: [{ id: 1, seller_product_code: "SKU-1", quantity: 3, unit_price: "12.50", tax_rate: 20 }],
      direction: "outgoing",
    });
    expect(waybill.parties?.[0]).toMatchObject({ role: "delivery", identifier_number: "1234567890" });
    expect(waybill.lines?.[0]).toMatchObject({ quantity: "3", unit_price: "12.50", tax_rate: "20" });
    expect(waybill.direction).toBe("outgoing");
  });
});
