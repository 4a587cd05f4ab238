// The pure waybill → form → body rules (app/waybills/waybill-invoice.ts), on the sandbox's waybill shape.
import { describe, expect, it } from "vitest";
import { TAX_RATES } from "../../app/invoicing-service/schemas";
import { VAT_RATES } from "../../app/invoicing-service/vat-rates";
import { WaybillRecordSchema } from "../../app/invoicing-service/schemas";
import { MappingSettingsSchema } from "../../app/settings/schema";
import {
  decimalInput,
  draftFromWaybill,
  readForm,
  waybillInvoiceBody,
  MAX_LINES,
  type WaybillInvoiceForm,
} from "../../app/waybills/waybill-invoice";
import { validateInvoiceBody } from "../../sandbox/rules";
import { onTheWire } from "../helpers/wire";

const settings = MappingSettingsSchema.parse({ exemptionCode: "301", exemptionReason: "11/1-a Mal İhracatı" });
const waybill = WaybillRecordSchema.parse({
  id: 31,
  document_number: "2026000000001",
  issue_date: "2026-11-20",
  currency: "TRY",
  currency_rate: 1,
  invoice_id: null,
  status: "completed",
  direction: "outgoing",
  parties: [
    { role: "supplier", identifier_number: "9876543217", title: "Satıcı A.Ş." },
    {
      role: "delivery",
      identifier_number: "1234567890",
      title: "Anadolu Yapı Market Ltd. Şti.",
      name: null,
      surname: null,
      tax_office: "Çankaya",
      country: "Türkiye",
      city: "Ankara",
      district: "Çankaya",
      address: "Atatürk Bulvarı No 100",
    },
  ],
  lines: [
    {
      id: 7,
      seller_product_code: "VIDA-M8",
      name: "Vida M8",
      quantity: "100",
      unit: "C62",
      unit_price: "1.25",
      tax_rate: "20.00",
    },
    {
      id: 8,
      seller_product_code: null,
      name: "Kablo 3x2,5",
      quantity: "12.500",
      unit: "mtr",
      unit_price: "18.40",
      tax_rate: "20",
    },
    {
      id: 9,
      seller_product_code: "IHR-1",
      name: "İhraç kaydıyla",
      quantity: "1",
      unit: "C62",
      unit_price: "10",
      tax_rate: "0",
    },
  ],
});
const now = new Date("2026-11-22T10:00:00Z");
const context = {
  waybill: { id: 31, currency: "TRY", currencyRate: "1" },
  settings,
  saleChannelId: 11,
  invoiceIntegrationId: 21,
  now,
  timezone: "Europe/Istanbul",
  callbackUrl: "https://app.example/callbacks/invoices/r1",
};
const draft = () => draftFromWaybill(waybill, settings, "2026-11-22");
const change = (edit: (form: WaybillInvoiceForm) => void) => {
  const form = structuredClone(draft());
  edit(form);
  return waybillInvoiceBody(form, context);
};
const errorsOf = (edit: (form: WaybillInvoiceForm) => void) => {
  const result = change(edit);
  return result.ok ? {} : Object.fromEntries(Object.entries(result.errors).map(([field, e]) => [field, e.code]));
};

describe("the waybill form's VAT rate", () => {
  it("accepts exactly the one list of valid VAT rates (issue 36, point 2)", () => {
    for (const rate of TAX_RATES)
      expect(
        errorsOf((form) => {
          form.lines[0].taxRate = rate;
        })["lines.0.taxRate"],
        rate,
      ).toBe((VAT_RATES as readonly string[]).includes(rate) ? undefined : "tax_rate");
  });
});

describe("the form prefilled from a waybill", () => {
  it("takes the recipient from the delivery party and the lines from the waybill lines", () => {
    const form = draft();
    expect(form.customer).toEqual({
      type: "company",
      taxNumber: "1234567890",
      title: "Anadolu Yapı Market Ltd. Şti.",
      name: "",
      surname: "",
      taxOffice: "Çankaya",
      country: "Türkiye",
      city: "Ankara",
      district: "Çankaya",
      address: "Atatürk Bulvarı No 100",
      email: "",
    });
    // seller_product_code, else the line id; decimals as plain strings; the shop's exemption on 0 % lines.
    expect(form.lines.map((l) => [l.id, l.quantity, l.unit, l.unitPrice, l.taxRate, l.exemptionCode])).toEqual([
      ["VIDA-M8", "100", "C62", "1.25", "20", ""],
      ["8", "12.5", "MTR", "18.40", "20", ""],
      ["IHR-1", "1", "C62", "10.00", "0", "301"],
    ]);
    expect(form).toMatchObject({
      waybillNumber: "2026000000001",
      waybillDate: "2026-11-20",
      cashSale: true,
      paymentDate: "2026-11-22",
      dueDate: "",
    });
  });

  it("a person recipient named only in the title gets the title's last word as surname", () => {
    const person = WaybillRecordSchema.parse({
      ...waybill,
      parties: [{ role: "delivery", identifier_number: "12345678950", title: "Ayşe Nur Yılmaz" }],
    });
    expect(draftFromWaybill(person, settings, "2026-11-22").customer).toMatchObject({
      type: "person",
      name: "Ayşe Nur",
      surname: "Yılmaz",
    });
  });

  it("a person recipient (11 digits) gets name and surname", () => {
    const person = WaybillRecordSchema.parse({
      ...waybill,
      parties: [{ role: "DELIVERY", identifier_number: "12345678950", name: "Ayşe", surname: "Yılmaz" }],
    });
    expect(draftFromWaybill(person, settings, "2026-11-22").customer).toMatchObject({
      type: "person",
      taxNumber: "12345678950",
      name: "Ayşe",
      surname: "Yılmaz",
      title: "Ayşe Yılmaz",
    });
  });
});

describe("the body of POST /waybills/{id}/invoice", () => {
  it("carries the waybill's number and date, the lines with their product codes and a recipient id no order can have", () => {
    const result = change(() => undefined);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const { body } = result;
    expect(body).toMatchObject({
      type: "SATIS",
      sale_channel_id: 11,
      invoice_integration_id: 21,
      currency: "TRY",
      currency_rate: "1",
      issue_date: "2026-11-22",
      issue_time: "13:00",
      waybill_number: "2026000000001",
      waybill_date: "2026-11-20",
      cash_sale: true,
      payment_date: "2026-11-22",
      is_internet_sale: false,
      is_need_shipment: false,
      callback_url: "https://app.example/callbacks/invoices/r1",
      customer: {
        id: "waybill-31",
        type: "company",
        tax_number: "1234567890",
        tax_office: "Çankaya",
        title: "Anadolu Yapı Market Ltd. Şti.",
      },
    });
    expect(body.order_id).toBeUndefined();
    expect(body.lines.map((l) => [l.id, l.quantity, l.unit_price, l.tax_rate, l.exemption_code])).toEqual([
      ["VIDA-M8", "100", "1.25", "20", undefined],
      ["8", "12.5", "18.4", "20", undefined],
      ["IHR-1", "1", "10", "0", "301"],
    ]);
    // 125 + 230 + 10 = 365 net; VAT 25 + 46 = 71; exact.
    expect(result.totals).toMatchObject({ lines_total: "365.00", tax_total: "71.00", grand_total: "436.00" });
    expect(result.customerName).toBe("Anadolu Yapı Market Ltd. Şti.");
    expect(
      validateInvoiceBody(onTheWire(body), { saleChannelIds: [11], invoiceIntegrationIds: [21], today: "2026-11-22" }),
    ).toEqual({});
  });

  it("refuses what an order's invoice would refuse, field by field", () => {
    expect(errorsOf((f) => (f.customer.taxNumber = "1234567891"))).toEqual({ "customer.taxNumber": "vkn" });
    expect(errorsOf((f) => ((f.customer.taxOffice = ""), (f.customer.title = "")))).toEqual({
      "customer.taxOffice": "required",
      "customer.title": "required",
    });
    expect(
      errorsOf(
        (f) => (
          (f.customer.type = "person"),
          (f.customer.taxNumber = "12345678901"),
          (f.customer.name = "A"),
          (f.customer.surname = "B")
        ),
      ),
    ).toEqual({ "customer.taxNumber": "tckn" });
    expect(errorsOf((f) => (f.customer.district = ""))).toEqual({ "customer.district": "required" });
    expect(errorsOf((f) => (f.customer.email = "not-an-address"))).toEqual({ "customer.email": "email" });
    expect(errorsOf((f) => (f.lines[0].quantity = "0"))).toEqual({ "lines.0.quantity": "positive" });
    expect(errorsOf((f) => (f.lines[0].quantity = "1,5"))).toEqual({ "lines.0.quantity": "positive" });
    expect(errorsOf((f) => (f.lines[1].unitPrice = "-1"))).toEqual({ "lines.1.unitPrice": "non_negative" });
    expect(errorsOf((f) => (f.lines[1].taxRate = "5"))).toEqual({ "lines.1.taxRate": "tax_rate" });
    expect(errorsOf((f) => (f.lines[1].unit = "metre"))).toEqual({ "lines.1.unit": "unit" });
    expect(errorsOf((f) => ((f.lines[2].exemptionCode = ""), (f.lines[2].exemptionReason = "")))).toEqual({
      "lines.2.exemptionCode": "exemption_code",
      "lines.2.exemptionReason": "exemption_pair",
    });
    expect(errorsOf((f) => (f.lines[0].id = ""))).toEqual({ "lines.0.id": "required" });
    expect(errorsOf((f) => (f.lines = []))).toEqual({ lines: "lines_empty" });
    expect(errorsOf((f) => (f.paymentDate = ""))).toEqual({ paymentDate: "date" });
    expect(errorsOf((f) => (f.paymentDate = "2026-11-23"))).toEqual({ paymentDate: "date_future" });
    expect(errorsOf((f) => (f.waybillDate = "2026-02-30"))).toEqual({ waybillDate: "date" });
    // The spec's waybill_number is a numeric string: a prefixed number is refused here, not by the service.
    expect(errorsOf((f) => (f.waybillNumber = "IRS2026000000001"))).toEqual({ waybillNumber: "waybill_number" });
    expect(errorsOf((f) => (f.dueDate = "soon"))).toEqual({ dueDate: "date" });
    expect(errorsOf((f) => ((f.customer.address = "a".repeat(501)), (f.lines[0].name = "n".repeat(256))))).toEqual({
      "customer.address": "too_long",
      "lines.0.name": "too_long",
    });
  });

  it("accepts the anonymous consumer and the buyer-abroad number for a person, and a sale on credit without a payment date", () => {
    for (const number of ["11111111111", "2222222222"]) {
      expect(
        errorsOf((f) =>
          Object.assign(f.customer, { type: "person", taxNumber: number, name: "Nihai", surname: "Tüketici" }),
        ),
      ).toEqual({});
    }
    const credit = change((f) => ((f.cashSale = false), (f.paymentDate = ""), (f.dueDate = "2026-12-22")));
    expect(credit.ok && credit.body).toMatchObject({ cash_sale: false, due_date: "2026-12-22" });
    expect(credit.ok && credit.body.payment_date).toBeUndefined();
  });

  it("an invoice whose lines are all exempt with a 3xx code is an exemption invoice (ISTISNA)", () => {
    const result = change((f) => (f.lines = [f.lines[2]]));
    expect(result.ok && result.body.type).toBe("ISTISNA");
  });

  it("says when the invoice comes later than 7 days after the waybill", () => {
    const late = waybillInvoiceBody({ ...draft(), waybillDate: "2026-11-10" }, context);
    expect(late.ok && late.warnings).toEqual([{ code: "late", params: { date: "2026-11-10", days: "7" } }]);
    expect(change(() => undefined).ok && (change(() => undefined) as { warnings: unknown[] }).warnings).toEqual([]);
  });
});

describe("the form as the browser sends it", () => {
  it("keeps only the form's fields, as trimmed strings, and refuses more lines than the limit", () => {
    const form = readForm({
      customer: { type: "company", taxNumber: " 1234567890 ", injected: "x" },
      lines: [{ id: "A", quantity: 2, unit: "c62" }],
      cashSale: "yes",
      extra: 1,
    });
    expect(form.customer.taxNumber).toBe("1234567890");
    expect(form.customer).not.toHaveProperty("injected");
    expect(form).not.toHaveProperty("extra");
    expect(form.lines[0]).toMatchObject({ id: "A", quantity: "2", unit: "C62" });
    const many = readForm({ ...draft(), lines: Array.from({ length: MAX_LINES + 50 }, () => draft().lines[0]) });
    expect(many.lines).toHaveLength(MAX_LINES + 1);
    const result = waybillInvoiceBody(many, context);
    expect(result.ok ? null : result.errors.lines).toEqual({
      code: "lines_too_many",
      params: { max: String(MAX_LINES) },
    });
    expect(readForm(null).lines).toEqual([]);
  });

  it("takes amounts with a Turkish decimal comma exactly: 18,40 is 18.40, 1.234,56 is 1234.56", () => {
    expect(decimalInput("18,40")).toBe("18.40");
    expect(decimalInput(" 1.234,56 ")).toBe("1234.56");
    expect(decimalInput("0,333333333333333333")).toBe("0.333333333333333333");
    expect(decimalInput("18.40")).toBe("18.40");
    expect(decimalInput("18,4,0")).toBe("18,4,0");
    const base = draft();
    const form = readForm({ ...base, lines: [{ ...base.lines[0], quantity: "2,5", unitPrice: "18,40" }] });
    expect(form.lines[0]).toMatchObject({ quantity: "2.5", unitPrice: "18.40" });
    const result = waybillInvoiceBody(form, context);
    expect(result.ok && result.body.lines[0]).toMatchObject({ quantity: "2.5", unit_price: "18.4" });
    // Still refused: what is not a number in either notation.
    const bad = waybillInvoiceBody(readForm({ ...base, lines: [{ ...base.lines[0], unitPrice: "18,4,0" }] }), context);
    expect(bad.ok ? null : bad.errors["lines.0.unitPrice"]).toMatchObject({ code: "non_negative" });
  });
});
