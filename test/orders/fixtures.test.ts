// Every fixture order is mapped and compared with its reviewed expectation in
// test/fixtures/orders/expected/. Regenerate after a deliberate change with
// `UPDATE_EXPECTED=1 npx vitest run test/orders/fixtures.test.ts`, then review the diff line by line:
// the hand-checked cases below pin the fiscal arithmetic independently of the expected files.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dec } from "../../app/invoicing-service/money";
import { InvoiceRequestSchema } from "../../app/invoicing-service/schemas";
import { computeTotals } from "../../app/invoicing-service/totals";
import { mapOrderToInvoice, type MappingResult } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { validateInvoiceBody } from "../../sandbox/rules";
import { onTheWire } from "../helpers/wire";
import { expectedPath, fixtureContext, fixtureNames, fixtureOrder } from "./fixture-loader";

function map(name: string): MappingResult {
  const parsed = parseShopifyOrder(fixtureOrder(name));
  if (!parsed.ok) throw new Error(`${name}: ${JSON.stringify(parsed.problems)}`);
  return mapOrderToInvoice(parsed.order, fixtureContext(name));
}

function ok(name: string) {
  const result = map(name);
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.problems)}`);
  return result;
}

const names = fixtureNames();

describe("fixture orders", () => {
  it("has at least 30 fixtures, each with an expectation", () => {
    expect(names.length).toBeGreaterThanOrEqual(30);
  });

  it.each(names)("%s maps to its expected body or problems", (name) => {
    const result = JSON.parse(JSON.stringify(map(name)));
    const file = expectedPath(name);
    if (process.env.UPDATE_EXPECTED) writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
    expect(existsSync(file), `${file} is missing: write it with UPDATE_EXPECTED=1 and review it`).toBe(true);
    expect(result).toEqual(JSON.parse(readFileSync(file, "utf8")));
  });

  it.each(names)(
    "%s: a body passes the sandbox rules and the request schema, and its totals equal the amount paid",
    (name) => {
      const result = map(name);
      if (!result.ok) return;
      const ctx = fixtureContext(name);
      expect(
        validateInvoiceBody(onTheWire(result.body), {
          saleChannelIds: [ctx.saleChannelId],
          invoiceIntegrationIds: [ctx.invoiceIntegrationId],
          today: result.body.issue_date,
        }),
      ).toEqual({});
      expect(InvoiceRequestSchema.safeParse(result.body).success).toBe(true);
      expect(result.totals).toEqual(computeTotals(result.body.lines));
      expect(result.totals.grand_total).toBe(result.paid);
      expect(result.difference).toBe("0.00");
    },
  );
});

describe("hand-checked fixtures", () => {
  it("01: 2 × 249.90 incl. 20 % → net 416.50 (2 × 208.25) + VAT 83.30; shipping 49.90 → 41.58 + 8.32; citizen number from a note", () => {
    const r = ok("01-single-item-citizen");
    expect(r.body.lines.map((l) => [l.quantity, l.unit_price, l.tax_rate])).toEqual([
      [2, "208.25", "20"],
      [1, "41.58", "20"],
    ]);
    expect(r.totals).toMatchObject({ lines_total: "458.08", tax_total: "91.62", grand_total: "549.70" });
    expect(r.body.customer).toMatchObject({
      type: "person",
      tax_number: "10000000146",
      city: "İstanbul",
      district: "Kadıköy",
      name: "Ayşe",
      surname: "Yılmaz",
    });
    expect(r.body.shipment).toEqual({
      company_title: "Yurtiçi Kargo Servisi A.Ş.",
      company_tax_number: "9860008925",
      delivery_date: "2026-11-21",
    });
    expect(r.body.issue_time).toBe("13:00"); // 10:00 UTC is 13:00 in Istanbul
  });

  it("20: 3 × 33.33 incl. 20 % = 99.99 is unreachable as one line (net 83.32 → 99.98, 83.33 → 100.00): 2 × 27.77 + 1 × 27.78", () => {
    const r = ok("20-rounding-3x33.33");
    // 55.54 + 11.11 (11.108) = 66.65 and 27.78 + 5.56 (5.556) = 33.34 → 99.99
    expect(r.body.lines.map((l) => [l.quantity, l.unit_price])).toEqual([
      [2, "27.77"],
      [1, "27.78"],
    ]);
    expect(r.totals.grand_total).toBe("99.99");
  });

  it("03: taxes excluded: the Shopify prices are the net prices; VAT 490 + 119.99 (599.97 × 20 % = 119.994) + 15", () => {
    const r = ok("03-taxes-excluded");
    expect(r.body.lines.map((l) => [l.quantity, l.unit_price])).toEqual([
      [1, "2450"],
      [3, "199.99"],
      [1, "75"],
    ]);
    expect(r.totals).toMatchObject({ lines_total: "3124.97", tax_total: "624.99", grand_total: "3749.96" });
  });

  it("19: a refunded unit and a refunded line leave the invoice; 2 of 3 towels keep 2/3 of the discount (35.98 → net 29.98)", () => {
    const r = ok("19-partial-refund");
    expect(r.body.lines.map((l) => l.name)).toEqual(["Pamuklu Havlu - Gri", "Banyo Paspası", "Kargo: Standart Kargo"]);
    // towels: 2 × 179.90 − 35.98 = 323.82; mat 229.00; shipping 49.90
    expect(r.paid).toBe("602.72");
    expect(r.body.lines[0]).toMatchObject({ quantity: 2, discount_type: "amount", discount: "29.98" });
  });

  it("09: a VKN note makes a company with its tax office and the billing company as title", () => {
    const r = ok("09-company-buyer");
    expect(r.body.customer).toMatchObject({
      type: "company",
      tax_number: "0720039666",
      tax_office: "Nilüfer",
      title: "Anadolu Tekstil Sanayi ve Ticaret A.Ş.",
    });
  });

  it("11: a tax number written into the billing company is taken out of the title", () => {
    const r = ok("11-company-number-in-billing-company");
    expect(r.body.customer).toMatchObject({
      type: "company",
      tax_number: "6080712084",
      tax_office: "Çankaya",
      title: "Demir Bilişim Ltd. Şti.",
    });
  });

  it("13: a buyer outside Turkey gets 2222222222; foreign city is city and district", () => {
    const r = ok("13-foreign-buyer");
    expect(r.body.customer).toMatchObject({
      type: "person",
      tax_number: "2222222222",
      city: "Berlin",
      district: "Berlin",
      country: "Germany",
    });
    expect(r.warnings.map((w) => w.code)).toContain("customer.foreign_buyer");
  });

  it("14 and 15: cash on delivery and bank transfer are paid when marked paid, so payment_date is the invoicing date", () => {
    const cod = ok("14-cash-on-delivery");
    expect(cod.body.internet_sale).toMatchObject({
      payment_method: "cash_on_delivery",
      payment_platform: "Cash on Delivery (COD)",
      payment_date: "2026-11-22",
    });
    const bank = ok("15-bank-transfer");
    expect(bank.body.internet_sale).toMatchObject({ payment_method: "direct_transfer", payment_date: "2026-11-22" });
  });

  it("16: digital goods need no shipment", () => {
    const r = ok("16-digital-goods");
    expect(r.body.is_need_shipment).toBe(false);
    expect(r.body.shipment).toBeUndefined();
  });

  it("17: a gift card purchase is left off the invoice and said so", () => {
    const r = ok("17-gift-card-with-item");
    expect(r.body.lines.map((l) => l.name)).toEqual(["Kokulu Mum", "Kargo: Standart Kargo"]);
    expect(r.notes.join(" ")).toMatch(/Gift card/);
  });

  it("21: a POS sale is no internet sale, needs no shipment, and takes the shop's address", () => {
    const r = ok("21-pos-sale");
    expect(r.body.is_internet_sale).toBe(false);
    expect(r.body.internet_sale).toBeUndefined();
    expect(r.body.is_need_shipment).toBe(false);
    expect(r.body.customer).toMatchObject({
      tax_number: "11111111111",
      city: "İstanbul",
      district: "Beşiktaş",
      id: "guest-5810000021",
    });
  });

  it("22: invoiced in EUR at the order's own rate 40 (shop total / presentment total)", () => {
    const r = ok("22-presentment-eur-invoiced-in-eur");
    expect(r.body).toMatchObject({ currency: "EUR", currency_rate: "40" });
    // 2 × 30.00 EUR and 20.00 EUR shipping, VAT included
    expect(r.paid).toBe("80.00");
    expect(ok("23-presentment-eur-invoiced-in-try").body).toMatchObject({ currency: "TRY", currency_rate: "1" });
  });

  it("36: a shop east of Turkey never issues tomorrow's date", () => {
    const r = ok("36-shop-ahead-of-turkey");
    expect(r.body).toMatchObject({ issue_date: "2026-11-22", issue_time: "23:30" });
  });

  it("37: 120 lines stay 120 lines (+ shipping): cents are carried between lines instead of splitting", () => {
    const r = ok("37-wholesale-120-lines");
    expect(r.body.lines).toHaveLength(121);
    expect(dec(r.totals.grand_total).eq(r.paid)).toBe(true);
  });

  it.each([
    ["08-zero-rate-without-exemption", "line.zero_rate_without_exemption"],
    ["10-company-without-tax-office", "customer.company_without_tax_office"],
    ["18-gift-card-only", "order.no_invoiceable_lines"],
    ["26-unsupported-tax-rate", "line.unsupported_tax_rate"],
    ["30-no-carrier", "shipment.no_carrier"],
    ["31-missing-address", "customer.missing_address"],
    ["32-invalid-tax-number", "customer.invalid_tax_number"],
  ])("%s is refused with %s", (name, code) => {
    const r = map(name);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.code)).toContain(code);
  });
});
